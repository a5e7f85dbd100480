// Element-wise operators on the simulated device (DESIGN.md §5.26): one
// kernel computes out = op(inputs...) over out's shape, with the inputs
// broadcast to it, any strides and storage offsets, and the types converted
// on the way in and out: each block takes a contiguous run of the output's
// elements, loads each input row into a buffer of the compute type (float
// for 16-bit floats, as the hardware's vector units do), computes, and
// stores with round-to-nearest-even. Contiguous operands of the compute type
// are read and written in place.
//
//   Operand x{self, Base::kInput, exec->AddInput(self)};
//   Operand y{other, Base::kInput, exec->AddInput(other)};
//   Operand z{out, Base::kOutput, exec->AddOutput(out)};
//   PlanElementwise(*exec, ElementOp::kAdd, ACL_FLOAT, {x, y}, z, alpha);
#ifndef ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_H_
#define ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"

namespace ascend::nn {

enum class ElementOp : uint32_t {
  // Binary: a op b (s0: alpha where the formula has one).
  kAdd,      // a + s0 * b
  kSub,      // a - s0 * b
  kMul,      // a * b
  kDiv,      // a / b
  kMaximum,  // max(a, b), NaN if either is
  kMinimum,  // min(a, b), NaN if either is
  // Unary: op(a).
  kPowScalar,  // a ^ s0
  kNeg,
  kAbs,
  kExp,
  kLog,
  kSqrt,
  kRsqrt,
  kRelu,
  kSigmoid,
  kTanh,
  kSilu,
  kGelu,     // 0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))
  kGeluErf,  // 0.5 a (1 + erf(a / sqrt 2))
  kCopy,     // a (the conversion to the output's type is the work)
  // No input.
  kFill,  // s0
  // Unary, added after the rest so the others keep their numbers.
  kPowBase,  // s0 ^ a (a scalar base, a tensor of exponents)
  kCount
};

// Number of inputs op takes.
int InputCount(ElementOp op);

// A tensor of an element-wise launch and where its address comes from, or
// (tensor null) a scalar value every element takes.
struct Operand {
  const aclTensor* tensor;
  Base base;
  uint32_t index;
  double fvalue = 0;
  int64_t ivalue = 0;
};
inline Operand ScalarOperand(double f, int64_t i) {
  return Operand{nullptr, Base::kInput, 0, f, i};
}

// The compute type for operands of type t: FLOAT for 16-bit floats, INT32
// for integers of at most 32 bits and bool, else t itself.
aclDataType ComputeTypeFor(aclDataType t);

// Plans one launch of `op` computing in `compute` (ACL_FLOAT, ACL_DOUBLE,
// ACL_INT32 or ACL_INT64) into `out`; the inputs broadcast to out's shape
// (the caller checked they do). s0: the op's scalar as a float; i0: the
// same for integer compute types.
void PlanElementwise(aclOpExecutor& e, ElementOp op, aclDataType compute,
                     std::initializer_list<Operand> inputs, const Operand& out,
                     double s0 = 0, int64_t i0 = 0);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_H_
