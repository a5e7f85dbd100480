// Exhaustive checks of the binary16 <-> binary32 conversion: every half
// round-trips bit-exactly, every half converts to the exact value, and
// float -> half rounds correctly at every rounding boundary (checked against
// an independent nearest-value search over all finite halves).
#include "runtime/base/float16.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

bool IsHalfNan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

// The value of a half computed from the definition (not by the code under
// test): (-1)^s * 2^(e-15) * (1 + m/1024), or 2^-14 * m/1024 for e == 0.
double HalfValue(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  const double magnitude = e == 0    ? std::ldexp(m, -24)
                           : e == 31 ? INFINITY
                                     : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// Reference float -> half for non-NaN x: the nearest finite half, ties to
// the even mantissa; a value at or beyond 65520 (half-way to 2^16) is Inf.
uint16_t ReferenceToHalf(float x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(x));
  if (a >= 65520.0) return sign | 0x7C00;
  // Positive finite halves 0x0000..0x7BFF are increasing in value.
  uint16_t lo = 0, hi = 0x7BFF;
  while (lo < hi) {  // first half with value >= a
    const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
    if (HalfValue(mid) < a) {
      lo = static_cast<uint16_t>(mid + 1);
    } else {
      hi = mid;
    }
  }
  uint16_t best = lo;
  if (lo > 0) {
    const double above = HalfValue(lo) - a;
    const double below = a - HalfValue(static_cast<uint16_t>(lo - 1));
    if (below < above || (below == above && ((lo - 1) & 1) == 0)) {
      best = static_cast<uint16_t>(lo - 1);
    }
  }
  return sign | best;
}

TEST(HalfToFloat, EveryHalfIsExact) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (IsHalfNan(static_cast<uint16_t>(h))) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      ASSERT_EQ(Bits(f) >> 31, h >> 15) << std::hex << h;
      ASSERT_EQ((Bits(f) >> 13) & 0x3FF, h & 0x3FF) << std::hex << h;
      ASSERT_EQ(Bits(f) & 0x1FFF, 0u) << std::hex << h;
    } else {
      ASSERT_EQ(static_cast<double>(f), HalfValue(static_cast<uint16_t>(h)))
          << std::hex << h;
      ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;
    }
  }
}

TEST(FloatToHalf, EveryHalfRoundTripsBitExactly) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    ASSERT_EQ(FloatToHalf(HalfToFloat(static_cast<uint16_t>(h))), h)
        << std::hex << h;
  }
}

TEST(FloatToHalf, EveryRoundingBoundary) {
  // For each pair of adjacent positive halves (and the step past 65504), the
  // midpoint and the floats just either side of it.
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    const double low = HalfValue(static_cast<uint16_t>(h));
    const double high =
        h == 0x7BFF ? 65536.0 : HalfValue(static_cast<uint16_t>(h + 1));
    const auto mid = static_cast<float>((low + high) / 2);  // exact in float
    ASSERT_EQ(static_cast<double>(mid), (low + high) / 2);
    for (const float x :
         {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      ASSERT_EQ(FloatToHalf(x), ReferenceToHalf(x)) << x;
      ASSERT_EQ(FloatToHalf(-x), ReferenceToHalf(-x)) << -x;
    }
    // Ties go to the even neighbour.
    const uint16_t expected = (h & 1) == 0 ? h : h + 1;
    ASSERT_EQ(FloatToHalf(mid), expected) << std::hex << h;
  }
}

TEST(FloatToHalf, SampleOfAllFloats) {
  // Every 9973rd bit pattern (a prime stride visits every exponent and
  // mantissa region), about 430000 floats.
  for (uint64_t b = 0; b <= 0xFFFFFFFFu; b += 9973) {
    const float x = FromBits(static_cast<uint32_t>(b));
    if (std::isnan(x)) continue;
    ASSERT_EQ(FloatToHalf(x), ReferenceToHalf(x)) << std::hex << b << " " << x;
  }
}

TEST(FloatToHalf, SpecialValues) {
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(FloatToHalf(-INFINITY), 0xFC00);
  EXPECT_EQ(FloatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(FloatToHalf(65519.996f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // tie to even: 0
  EXPECT_EQ(FloatToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -26)), 0x8000);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(FloatToHalf(FromBits(0x00000001)), 0x0000);   // float subnormal
  EXPECT_EQ(FloatToHalf(FromBits(0x80000001)), 0x8000);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(FloatToHalf(std::ldexp(1023.75f, -24)), 0x0400);
}

TEST(FloatToHalf, NanKeepsSignAndTopPayloadBits) {
  EXPECT_EQ(FloatToHalf(FromBits(0x7FC00000)), 0x7E00);  // quiet NaN
  EXPECT_EQ(FloatToHalf(FromBits(0xFFC00000)), 0xFE00);
  EXPECT_EQ(FloatToHalf(FromBits(0x7F802000)), 0x7C01);  // signalling, kept
  EXPECT_EQ(FloatToHalf(FromBits(0x7F800001)), 0x7E00);  // low payload only
  EXPECT_EQ(FloatToHalf(FromBits(0xFF800FFF)), 0xFE00);
  EXPECT_EQ(FloatToHalf(FromBits(0x7FFFFFFF)), 0x7FFF);
}

}  // namespace
}  // namespace ascend::rt
