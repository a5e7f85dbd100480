// The arithmetic of the built-in stream tasks (aclrtReduceAsync,
// aclrtRandomNumAsync), on host copies of device memory. The family methods
// that validate and enqueue them are in builtin_task.cc. DESIGN.md §5.16.
//
//   ASCEND_RETURN_IF_ERROR(ReduceElements(kind, type, dst, src, bytes));
//   Philox4x32 philox(seed);
//   std::array<uint32_t, 4> words = philox.Block(counter);
#ifndef ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASKS_H_
#define ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASKS_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "acl/acl_rt.h"

namespace ascend::rt {

// Element size of a data type aclrtReduceAsync accepts (int8, int16, int32,
// fp16, fp32, bf16), else 0.
size_t ReduceElementSize(int32_t type);

// dst[i] = dst[i] op src[i] for the `bytes / element size` elements. SUM on
// integers wraps (two's complement); on fp16/bf16 it computes in fp32 and
// rounds to nearest even. MAX/MIN of a NaN operand give NaN.
void ReduceElements(aclrtReduceKind kind, aclDataType type, void* dst,
                    const void* src, uint64_t bytes);

// bfloat16 <-> float (round to nearest even; NaN stays NaN).
uint16_t FloatToBf16(float value);
float Bf16ToFloat(uint16_t value);

// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11): a counter-based generator. Block(c) is a pure function of the
// key (the seed) and the 128-bit counter c.
class Philox4x32 {
 public:
  explicit Philox4x32(uint64_t seed)
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)} {}
  // Counter words, least significant first.
  std::array<uint32_t, 4> Block(std::array<uint32_t, 4> counter) const;

 private:
  std::array<uint32_t, 2> key_;
};

// The 128-bit counter `base` advanced by `n` blocks (wrapping).
std::array<uint32_t, 4> AddToCounter(std::array<uint32_t, 4> base, uint64_t n);

// One random task, its parameters resolved to numbers.
struct RandomRequest {
  aclrtRandomNumFuncType func = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  aclDataType type = ACL_FLOAT;
  uint64_t seed = 0;
  uint64_t count = 0;
  std::array<uint32_t, 4> counter{};
  // Uniform: [a, b); normal: mean a, stddev b; dropout: a is the ratio.
  // Floating types hold doubles, integer types their integers.
  double fa = 0, fb = 0;
  int64_t ia = 0, ib = 0;
  uint64_t ua = 0, ub = 0;
};

// Bytes of output a request writes: count elements, or count bits (rounded
// up to bytes) for the dropout bitmask.
uint64_t RandomOutputBytes(const RandomRequest& request);
// Size of one value of `type` in a random task (bf16, fp16, fp32, int32,
// uint32, int64, uint64), else 0.
size_t RandomElementSize(int32_t type);

// Fills `out` (RandomOutputBytes bytes). Element i uses Philox block
// counter + i, so results depend only on (seed, counter, i).
void GenerateRandom(const RandomRequest& request, void* out);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASKS_H_
