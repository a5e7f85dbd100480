// Data types as the operators see them (DESIGN.md §5.26): sizes, names,
// categories, CANN's promotion tables (tensor with tensor, tensor with
// scalar), the conversion rule an output type must meet, and float16 /
// bfloat16 conversions that round to nearest even as the hardware does.
#ifndef ASCENDCL_ACLNN_NNOPBASE_DTYPE_H_
#define ASCENDCL_ACLNN_NNOPBASE_DTYPE_H_

#include <cstdint>
#include <cstring>

#include "acl/acl_base.h"

namespace ascend::nn {

// Bytes per element (aclDataTypeSize: 0 for types without a whole-byte size).
size_t ElementSize(aclDataType t);
// "FLOAT16", ... for log lines.
const char* DtypeName(aclDataType t);

bool IsFloating(aclDataType t);  // f16, bf16, f32, f64
bool IsIntegral(aclDataType t);  // signed and unsigned integers, not bool
bool IsComplex(aclDataType t);

// The type two tensors compute in (CANN's tensor-tensor table, like
// PyTorch's promotion), or ACL_DT_UNDEFINED where the table has none.
aclDataType PromoteTypes(aclDataType a, aclDataType b);
// The type a tensor and a scalar compute in (the tensor-scalar table: the
// tensor's type wins within a category).
aclDataType PromoteWithScalar(aclDataType tensor, aclDataType scalar);
// Whether a result of type `from` may be written to an output of type `to`
// (CANN's conversion rule: integers and floats convert both ways, bool
// converts to any; nothing converts to bool except bool).
bool CanCast(aclDataType from, aclDataType to);

// IEEE half and bfloat16 <-> float, round to nearest even; NaN stays NaN.
inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while ((man & 0x400u) == 0) {
        man <<= 1;
        --exp;
      }
      man &= 0x3ffu;
      bits = sign | (exp << 23) | (man << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // Inf or NaN
    return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u);
  }
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds past 65504
  if (abs < 0x38800000u) {                        // half subnormal or zero
    if (abs < 0x33000000u) return sign;           // below half the smallest
    const uint32_t e = abs >> 23;
    const uint32_t m = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e;  // value = m * 2^(e - 150) = r * 2^-24
    const uint32_t half_man = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    uint32_t r = half_man;
    if (rest > mid || (rest == mid && (half_man & 1u))) ++r;
    return sign | static_cast<uint16_t>(r);
  }
  uint32_t r = abs + 0xfffu + ((abs >> 13) & 1u);  // nearest even
  r -= 0x38000000u;                                // rebias 127 -> 15
  return sign | static_cast<uint16_t>(r >> 13);
}

inline float Bf16ToFloat(uint16_t h) {
  const uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint16_t FloatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  }
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_NNOPBASE_DTYPE_H_
