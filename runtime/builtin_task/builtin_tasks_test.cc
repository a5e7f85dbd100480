// The built-in tasks' arithmetic: Philox4x32-10 against its published
// known-answer vectors, counters, bf16 rounding and the reductions.
#include "runtime/builtin_task/builtin_tasks.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

using Words = std::array<uint32_t, 4>;

Words Philox(uint32_t k0, uint32_t k1, Words ctr) {
  return Philox4x32(static_cast<uint64_t>(k1) << 32 | k0).Block(ctr);
}

TEST(Philox4x32Test, KnownAnswers) {
  // Random123's kat_vectors for philox4x32-10.
  EXPECT_EQ(Philox(0, 0, {0, 0, 0, 0}),
            (Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(Philox(0xffffffff, 0xffffffff,
                   {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}),
            (Words{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(Philox(0xa4093822, 0x299f31d0,
                   {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}),
            (Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(CounterTest, AddCarries) {
  EXPECT_EQ(AddToCounter({0xffffffff, 0xffffffff, 0, 0}, 1),
            (Words{0, 0, 1, 0}));
  EXPECT_EQ(AddToCounter({1, 0, 0, 0}, uint64_t{1} << 32), (Words{1, 1, 0, 0}));
  EXPECT_EQ(AddToCounter({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 2),
            (Words{1, 0, 0, 0}));
}

TEST(Bf16Test, RoundsToNearestEven) {
  EXPECT_EQ(FloatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(Bf16ToFloat(0x4040), 3.0f);
  // 1 + 2^-8 is halfway between 1 and the next bf16: ties to even (1).
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  // Just above the tie rounds up.
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)),
            0x3F81);
  EXPECT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(std::nanf("")))));
}

TEST(ReduceTest, FloatNaNAndIntegerWrap) {
  std::vector<float> dst = {1, NAN, 5}, src = {2, 3, NAN};
  ReduceElements(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, dst.data(),
                 src.data(), 12);
  EXPECT_EQ(dst[0], 2);
  EXPECT_TRUE(std::isnan(dst[1]));
  EXPECT_TRUE(std::isnan(dst[2]));
  std::vector<int32_t> a = {INT32_MAX, -5}, b = {1, -5};
  ReduceElements(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, a.data(),
                 b.data(), 8);
  EXPECT_EQ(a[0], INT32_MIN);
  EXPECT_EQ(a[1], -10);
  EXPECT_EQ(ReduceElementSize(ACL_DOUBLE), 0u);
}

TEST(RandomTest, ReproducibleAndOffsetShifts) {
  RandomRequest r;
  r.func = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  r.type = ACL_UINT32;
  r.seed = 42;
  r.count = 8;
  r.ua = 0;
  r.ub = 0xFFFFFFFF;
  std::vector<uint32_t> first(8), again(8), shifted(8);
  GenerateRandom(r, first.data());
  GenerateRandom(r, again.data());
  EXPECT_EQ(first, again);
  // Element i uses counter + i: starting two later shifts the sequence.
  r.counter = AddToCounter(r.counter, 2);
  GenerateRandom(r, shifted.data());
  EXPECT_EQ(std::vector<uint32_t>(first.begin() + 2, first.end()),
            std::vector<uint32_t>(shifted.begin(), shifted.end() - 2));
}

TEST(RandomTest, UniformNeverReachesTheUpperBound) {
  // [1, 1 + 2 ulp) in fp16: values near the top round to the bound, which
  // must be stepped down.
  RandomRequest r;
  r.func = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  r.type = ACL_FLOAT16;
  r.count = 4096;
  r.fa = 1.0;
  r.fb = 1.0 + 2.0 / 1024;
  std::vector<uint16_t> out(r.count);
  GenerateRandom(r, out.data());
  for (uint16_t h : out) {
    ASSERT_TRUE(h == 0x3C00 || h == 0x3C01) << std::hex << h;
  }
}

TEST(RandomTest, DropoutBitmaskExtremes) {
  RandomRequest r;
  r.func = ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;
  r.type = ACL_FLOAT;
  r.count = 20;
  EXPECT_EQ(RandomOutputBytes(r), 3u);
  std::vector<uint8_t> out(3);
  r.fa = 0.0;  // keep everything
  GenerateRandom(r, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0xFF, 0xFF, 0x0F}));
  r.fa = 1.0;  // drop everything
  GenerateRandom(r, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 0}));
}

}  // namespace
}  // namespace ascend::rt
