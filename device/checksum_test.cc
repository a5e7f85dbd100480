#include "device/checksum.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ascend::device {
namespace {

std::vector<uint8_t> Random(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> data(size);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  return data;
}

// Runs the body with the vector kernel (where the CPU has one) and with the
// portable kernel.
class ChecksumTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    internal::ForcePortableChecksumForTesting(GetParam());
  }
  void TearDown() override { internal::ForcePortableChecksumForTesting(false); }
};

TEST_P(ChecksumTest, UsesTheExpectedKernel) {
  const std::string kernel = internal::ChecksumKernelForTesting();
  if (GetParam()) {
    EXPECT_EQ(kernel, "portable");
    return;
  }
#if defined(__aarch64__)
  EXPECT_EQ(kernel, "neon");
#elif defined(__x86_64__)
  EXPECT_EQ(kernel, __builtin_cpu_supports("avx2") ? "avx2" : "portable");
#endif
  std::printf("checksum kernel: %s\n", kernel.c_str());
}

TEST_P(ChecksumTest, EqualContentEqualChecksum) {
  std::vector<uint8_t> a(5000), b(5000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(Checksum(a.data(), a.size()), Checksum(b.data(), b.size()));
}

TEST_P(ChecksumTest, EveryByteFlipChangesChecksum) {
  // Sizes covering whole 1 KiB blocks, whole 64-byte stripes, the padded
  // tail stripe and combinations of them.
  for (size_t size : {1u, 7u, 8u, 63u, 64u, 65u, 100u, 1023u, 1024u, 1025u,
                      2048u + 64u + 9u}) {
    std::vector<uint8_t> data = Random(size, static_cast<uint32_t>(size));
    const uint64_t base = Checksum(data.data(), size);
    for (size_t i = 0; i < size; ++i) {
      for (uint8_t bit : {0x01, 0x80}) {
        data[i] ^= bit;
        EXPECT_NE(Checksum(data.data(), size), base)
            << "size " << size << " byte " << i << " bit " << int{bit};
        data[i] ^= bit;
      }
    }
  }
}

TEST_P(ChecksumTest, EveryByteFlipOfZerosChangesChecksum) {
  std::vector<uint8_t> data(3 * 1024 + 100, 0);
  const uint64_t base = Checksum(data.data(), data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = 0xFF;
    EXPECT_NE(Checksum(data.data(), data.size()), base) << "byte " << i;
    data[i] = 0;
  }
}

TEST_P(ChecksumTest, LengthMatters) {
  std::vector<uint8_t> zeros(4096, 0);
  for (size_t size : {0u, 1u, 32u, 63u, 64u, 1024u, 2048u, 4095u}) {
    EXPECT_NE(Checksum(zeros.data(), size), Checksum(zeros.data(), size + 1))
        << size;
  }
  EXPECT_NE(Checksum(zeros.data(), 1024), Checksum(zeros.data(), 2048));
}

TEST_P(ChecksumTest, OrderMatters) {
  std::vector<uint64_t> words(3 * 128);
  for (size_t i = 0; i < words.size(); ++i) words[i] = i * 0x1234567 + 1;
  const size_t bytes = words.size() * 8;
  const uint64_t before = Checksum(words.data(), bytes);
  // Neighbouring words, words of two stripes, two stripes, two blocks.
  for (const auto& [i, j] : std::vector<std::pair<size_t, size_t>>{
           {0, 1}, {0, 2}, {3, 11}, {130, 250}}) {
    std::swap(words[i], words[j]);
    EXPECT_NE(Checksum(words.data(), bytes), before) << i << "<->" << j;
    std::swap(words[i], words[j]);
  }
  std::vector<uint64_t> swapped = words;
  std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
  EXPECT_NE(Checksum(swapped.data(), bytes), before) << "stripes";
  swapped = words;
  std::swap_ranges(swapped.begin(), swapped.begin() + 128,
                   swapped.begin() + 128);
  EXPECT_NE(Checksum(swapped.data(), bytes), before) << "blocks";
}

TEST_P(ChecksumTest, PiecewiseEqualsOneShot) {
  const std::vector<uint8_t> data = Random(64 * 1024 + 777, 7);
  const uint64_t whole = Checksum(data.data(), data.size());
  for (size_t piece : {1024u, 4096u, 16384u}) {
    ChecksumState state;
    size_t offset = 0;
    while (data.size() - offset > piece) {
      state.Update(data.data() + offset, piece);
      offset += piece;
    }
    EXPECT_EQ(state.Finish(data.data() + offset, data.size() - offset), whole)
        << "pieces of " << piece;
  }
}

TEST_P(ChecksumTest, CopyAndChecksumCopiesAndHashesTheSource) {
  for (size_t size : {0u, 5u, 64u, 1000u, 1024u, 70000u}) {
    const std::vector<uint8_t> src = Random(size, 11);
    std::vector<uint8_t> dst(size + 1, 0xAB);
    EXPECT_EQ(CopyAndChecksum(dst.data(), src.data(), size),
              Checksum(src.data(), size))
        << size;
    EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin())) << size;
    EXPECT_EQ(dst[size], 0xAB) << "wrote past the end, size " << size;
  }
  // And piecewise.
  const std::vector<uint8_t> src = Random(10 * 1024 + 3, 12);
  std::vector<uint8_t> dst(src.size());
  ChecksumState state;
  state.CopyUpdate(dst.data(), src.data(), 8 * 1024);
  EXPECT_EQ(state.CopyFinish(dst.data() + 8 * 1024, src.data() + 8 * 1024,
                             src.size() - 8 * 1024),
            Checksum(src.data(), src.size()));
  EXPECT_EQ(dst, src);
}

TEST_P(ChecksumTest, EmptyInputsAreEqualWhereverTheyPoint) {
  const uint8_t byte = 1;
  EXPECT_EQ(Checksum(nullptr, 0), Checksum(&byte, 0));
}

INSTANTIATE_TEST_SUITE_P(Kernels, ChecksumTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Portable" : "Fastest";
                         });

// The kernels agree bit for bit, at every length around block boundaries and
// on unaligned data.
TEST(ChecksumKernelsTest, VectorAndPortableKernelsAgree) {
  const std::vector<uint8_t> data = Random(20000, 3);
  for (size_t offset : {0u, 1u, 13u}) {
    for (size_t size = 0; size + offset <= data.size();
         size += size < 3000 ? 1 : 997) {
      const uint64_t fastest = Checksum(data.data() + offset, size);
      internal::ForcePortableChecksumForTesting(true);
      const uint64_t portable = Checksum(data.data() + offset, size);
      internal::ForcePortableChecksumForTesting(false);
      ASSERT_EQ(fastest, portable) << "offset " << offset << " size " << size;
    }
  }
}

// A pinned value, so an accidental change of the function (which would make
// the device and host sides of a mixed build disagree) is noticed.
TEST(ChecksumKernelsTest, KnownValues) {
  std::vector<uint8_t> data(3000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  const uint64_t fastest = Checksum(data.data(), data.size());
  internal::ForcePortableChecksumForTesting(true);
  const uint64_t portable = Checksum(data.data(), data.size());
  internal::ForcePortableChecksumForTesting(false);
  EXPECT_EQ(fastest, portable);
  EXPECT_EQ(fastest, 0xdcfe9ad09b624573ULL);
  EXPECT_EQ(Checksum(nullptr, 0), 0x210fb61850425313ULL);
}

}  // namespace
}  // namespace ascend::device
