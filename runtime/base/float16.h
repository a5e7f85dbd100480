// IEEE 754 binary16 <-> binary32 conversion behind aclFloatToFloat16 and
// aclFloat16ToFloat, done on the bit patterns (no floating-point operation,
// so the result never depends on the FPU's rounding mode or NaN handling).
//
//   uint16_t h = FloatToHalf(1.0f);  // 0x3C00
//   float f = HalfToFloat(h);        // 1.0f
#ifndef ASCENDCL_RUNTIME_BASE_FLOAT16_H_
#define ASCENDCL_RUNTIME_BASE_FLOAT16_H_

#include <cstdint>

namespace ascend::rt {

// Round to nearest, ties to even; overflow to +-Inf, underflow to +-0. A NaN
// keeps its sign and the top ten payload bits (the quiet bit is set only if
// those are all zero, so the result stays a NaN).
uint16_t FloatToHalf(float value);

// Exact; a NaN keeps its sign and payload.
float HalfToFloat(uint16_t value);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BASE_FLOAT16_H_
