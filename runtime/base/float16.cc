#include "runtime/base/float16.h"

#include <cstdint>
#include <cstring>

namespace ascend::rt {
namespace {

constexpr uint32_t kFloatExpMask = 0xFFu;
constexpr uint32_t kFloatMantMask = 0x7FFFFFu;
constexpr uint32_t kFloatBias = 127;
constexpr int32_t kHalfBias = 15;
constexpr uint16_t kHalfInf = 0x7C00u;
constexpr uint16_t kHalfQuiet = 0x0200u;

// Shifts `significand` right by `shift` (1..31) rounding to nearest, ties to
// even. A carry out of the mantissa correctly bumps the exponent of the
// caller's packed result.
uint32_t ShiftRightRoundEven(uint32_t significand, uint32_t shift) {
  const uint32_t kept = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u) != 0)) return kept + 1;
  return kept;
}

}  // namespace

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t exp = (bits >> 23) & kFloatExpMask;
  const uint32_t mant = bits & kFloatMantMask;

  if (exp == kFloatExpMask) {  // Inf or NaN
    if (mant == 0) return sign | kHalfInf;
    auto payload = static_cast<uint16_t>(mant >> 13);
    if (payload == 0) payload = kHalfQuiet;
    return sign | kHalfInf | payload;
  }
  // Unbiased exponent re-biased for binary16. Float subnormals (exp 0) are
  // far below half the smallest half subnormal and fall in the underflow case.
  const int32_t half_exp =
      static_cast<int32_t>(exp) - static_cast<int32_t>(kFloatBias) + kHalfBias;
  if (exp == 0 || half_exp < -10) return sign;  // below 2^-25: rounds to 0
  if (half_exp >= 31) return sign | kHalfInf;   // at least 2^16
  if (half_exp <= 0) {
    // Half subnormal: the 24-bit significand in units of 2^-24.
    const uint32_t significand = mant | 0x800000u;
    return sign | static_cast<uint16_t>(ShiftRightRoundEven(
                      significand, static_cast<uint32_t>(14 - half_exp)));
  }
  const uint32_t packed = (static_cast<uint32_t>(half_exp) << 23) | mant;
  return sign | static_cast<uint16_t>(ShiftRightRoundEven(packed, 13));
}

float HalfToFloat(uint16_t value) {
  const uint32_t sign = static_cast<uint32_t>(value & 0x8000u) << 16;
  uint32_t exp = (value >> 10) & 0x1Fu;
  uint32_t mant = value & 0x3FFu;
  uint32_t bits;
  if (exp == 0x1Fu) {  // Inf or NaN
    bits = sign | (kFloatExpMask << 23) | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + kFloatBias - kHalfBias) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise so the leading one reaches bit 10.
    exp = kFloatBias - kHalfBias + 1;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
  }
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

}  // namespace ascend::rt
