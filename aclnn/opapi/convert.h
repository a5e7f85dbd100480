// Loading device elements of any operator type into a buffer of a compute
// type and storing them back, for the operators' kernels: 16-bit floats
// round to nearest even, floats convert to integers toward zero (NaN to 0,
// saturating at the type's range), anything converts to bool as != 0.
#ifndef ASCENDCL_ACLNN_OPAPI_CONVERT_H_
#define ASCENDCL_ACLNN_OPAPI_CONVERT_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "acl/acl_base.h"
#include "aclnn/nnopbase/dtype.h"

namespace ascend::nn {

template <typename To, typename From>
inline To ConvertValue(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_integral_v<To> &&
                       std::is_floating_point_v<From>) {
    if (std::isnan(v)) return To(0);
    if (v <= static_cast<From>(std::numeric_limits<To>::min())) {
      return std::numeric_limits<To>::min();
    }
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// dst[i] = element i of the `n` elements at p (byte stride `step`), as CT.
template <typename CT>
void LoadRow(const uint8_t* p, int64_t step, int32_t dtype, int64_t n,
             CT* dst) {
#define ACLNN_LOAD(T)                        \
  for (int64_t i = 0; i < n; ++i) {          \
    T v;                                     \
    std::memcpy(&v, p + i * step, sizeof v); \
    dst[i] = static_cast<CT>(v);             \
  }                                          \
  break;
  switch (dtype) {
    case ACL_FLOAT:
      ACLNN_LOAD(float)
    case ACL_DOUBLE:
      ACLNN_LOAD(double)
    case ACL_INT8:
      ACLNN_LOAD(int8_t)
    case ACL_UINT8:
      ACLNN_LOAD(uint8_t)
    case ACL_INT16:
      ACLNN_LOAD(int16_t)
    case ACL_UINT16:
      ACLNN_LOAD(uint16_t)
    case ACL_INT32:
      ACLNN_LOAD(int32_t)
    case ACL_UINT32:
      ACLNN_LOAD(uint32_t)
    case ACL_INT64:
      ACLNN_LOAD(int64_t)
    case ACL_UINT64:
      ACLNN_LOAD(uint64_t)
    case ACL_BOOL:
      for (int64_t i = 0; i < n; ++i)
        dst[i] = static_cast<CT>(p[i * step] != 0);
      break;
    case ACL_FLOAT16:
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + i * step, 2);
        dst[i] = static_cast<CT>(HalfToFloat(h));
      }
      break;
    case ACL_BF16:
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, p + i * step, 2);
        dst[i] = static_cast<CT>(Bf16ToFloat(h));
      }
      break;
    default:
      for (int64_t i = 0; i < n; ++i) dst[i] = CT(0);
      break;
  }
#undef ACLNN_LOAD
}

// Element i of the `n` elements at p (byte stride `step`) = src[i].
template <typename CT>
void StoreRow(const CT* src, int64_t n, int32_t dtype, uint8_t* p,
              int64_t step) {
#define ACLNN_STORE(T)                       \
  for (int64_t i = 0; i < n; ++i) {          \
    const T v = ConvertValue<T>(src[i]);     \
    std::memcpy(p + i * step, &v, sizeof v); \
  }                                          \
  break;
  switch (dtype) {
    case ACL_FLOAT:
      ACLNN_STORE(float)
    case ACL_DOUBLE:
      ACLNN_STORE(double)
    case ACL_INT8:
      ACLNN_STORE(int8_t)
    case ACL_UINT8:
      ACLNN_STORE(uint8_t)
    case ACL_INT16:
      ACLNN_STORE(int16_t)
    case ACL_UINT16:
      ACLNN_STORE(uint16_t)
    case ACL_INT32:
      ACLNN_STORE(int32_t)
    case ACL_UINT32:
      ACLNN_STORE(uint32_t)
    case ACL_INT64:
      ACLNN_STORE(int64_t)
    case ACL_UINT64:
      ACLNN_STORE(uint64_t)
    case ACL_BOOL:
      ACLNN_STORE(bool)
    case ACL_FLOAT16:
      for (int64_t i = 0; i < n; ++i) {
        const uint16_t h = FloatToHalf(static_cast<float>(src[i]));
        std::memcpy(p + i * step, &h, 2);
      }
      break;
    case ACL_BF16:
      for (int64_t i = 0; i < n; ++i) {
        const uint16_t h = FloatToBf16(static_cast<float>(src[i]));
        std::memcpy(p + i * step, &h, 2);
      }
      break;
    default:
      break;
  }
#undef ACLNN_STORE
}

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_CONVERT_H_
