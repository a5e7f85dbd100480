// The one-input operators: Neg, Abs, Exp, Log, Sqrt, Rsqrt, Tanh, Relu,
// Sigmoid, Silu, Gelu and the Inplace forms CANN declares (aclnnop/
// aclnn_neg.h, aclnn_abs.h, aclnn_exp.h, aclnn_log.h, aclnn_sqrt.h,
// aclnn_rsqrt.h, aclnn_tanh.h, aclnn_relu.h, aclnn_sigmoid.h, aclnn_silu.h,
// aclnn_gelu.h).
#include "aclnn/opapi/unary_ops.h"

#include <memory>
#include <string>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnn/opapi/staging.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"

namespace ascend::nn {

aclnnStatus PlanUnary(const UnarySpec& spec, const aclTensor* self,
                      const aclTensor* out, bool inplace,
                      uint64_t* workspace_size, aclOpExecutor** executor) {
  const char* api = spec.api;
  const char* self_name = inplace ? "selfRef" : "self";
  const char* out_name = inplace ? self_name : "out";
  // Null pointers first (161001), then each tensor's validity.
  ACLNN_CHECK(CheckNotNull(
      api, {{self_name, self},
            {"out", inplace ? static_cast<const void*>(self) : out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, self_name, self));
  if (!inplace) ACLNN_CHECK(CheckTensor(api, "out", out));
  const aclTensor* result = inplace ? self : out;

  // Types: the page's lists (the Inplace form has one of its own), then
  // the result type and what out must be.
  if (inplace) {
    ACLNN_CHECK(CheckDtype(api, self_name, self->dtype, spec.inplace_types));
  } else {
    ACLNN_CHECK(CheckDtype(api, "self", self->dtype, spec.self_types));
    ACLNN_CHECK(CheckDtype(api, "out", out->dtype, spec.out_types));
  }
  aclDataType result_type = self->dtype;
  if (!IsFloating(self->dtype)) {
    if (spec.result == ResultRule::kFloatForIntegers) result_type = ACL_FLOAT;
    if (spec.result == ResultRule::kOutForIntegers) result_type = result->dtype;
  }
  if (spec.out_rule == OutRule::kSameType) {
    if (result->dtype != self->dtype) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string("out has type ") + DtypeName(result->dtype) +
                        "; it must be self's type " + DtypeName(self->dtype));
    }
  } else {
    ACLNN_CHECK(CheckCastable(api, out_name, result_type, result));
  }

  // Shapes: at most 8 dimensions, out's shape is self's; plain formats.
  ACLNN_CHECK(CheckMaxDims(api, self_name, self, kMaxDims));
  if (!inplace) {
    ACLNN_CHECK(CheckMaxDims(api, "out", out, kMaxDims));
    ACLNN_CHECK(CheckShape(api, "out", out, self->view_shape));
  }
  ACLNN_CHECK(CheckPlainFormat(api, self_name, self));
  if (!inplace) ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  ElementOp op = spec.op;
  // |x| and max(x, 0) of an unsigned or BOOL x is x itself.
  if ((op == ElementOp::kAbs || op == ElementOp::kRelu) &&
      (self->dtype == ACL_UINT8 || self->dtype == ACL_BOOL)) {
    op = ElementOp::kCopy;
  }
  aclDataType compute = ComputeTypeFor(result_type);
  if (spec.int64_in_double && self->dtype == ACL_INT64) compute = ACL_DOUBLE;
  if (inplace) {
    const Operand ref{self, Base::kOutput, e->AddOutput(self)};
    if (op != ElementOp::kCopy) PlanElementwise(*e, op, compute, {ref}, ref);
  } else {
    const uint32_t in = e->AddInput(self);
    const Operand dst{out, Base::kOutput, e->AddOutput(out)};
    aclTensor staged;
    const Operand src =
        ReadableInput(*e, self, Base::kInput, in, *out, &staged);
    PlanElementwise(*e, op, compute, {src}, dst);
  }
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

namespace {

// The types the pages list for Atlas A2 (complex types excepted: the
// simulator's kernels have no complex arithmetic; DESIGN.md §5.26).
constexpr DtypeList kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kFloat32s = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeList kNegTypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT16,
                                 ACL_BF16, ACL_FLOAT, ACL_DOUBLE};
constexpr DtypeList kAbsTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,
                                 ACL_INT8,  ACL_INT16,   ACL_INT32,  ACL_INT64,
                                 ACL_UINT8, ACL_BOOL};
constexpr DtypeList kExpSelf = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                ACL_BOOL,  ACL_INT64,   ACL_BF16};
// Log, Sqrt and Rsqrt take every real type but the wide unsigned ones.
constexpr DtypeList kMathSelf = {ACL_BOOL,   ACL_INT64, ACL_INT32, ACL_INT16,
                                 ACL_INT8,   ACL_UINT8, ACL_FLOAT, ACL_FLOAT16,
                                 ACL_DOUBLE, ACL_BF16};
constexpr DtypeList kTanhSelf = {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL,
                                 ACL_UINT8, ACL_INT8,    ACL_INT16,
                                 ACL_INT32, ACL_INT64,   ACL_BF16};
constexpr DtypeList kReluTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,
                                  ACL_INT32, ACL_INT64,   ACL_BF16};
constexpr DtypeList kInplaceReluTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,
                                         ACL_INT32, ACL_INT64,   ACL_BF16,
                                         ACL_UINT8};
constexpr DtypeList kNone = {};

UnarySpec Neg(const char* api) {
  return {api,       ElementOp::kNeg,    kNegTypes,        kNegTypes,
          kNegTypes, OutRule::kCastable, ResultRule::kSelf};
}
UnarySpec Abs(const char* api) {
  return {api,   ElementOp::kAbs,    kAbsTypes,        kAbsTypes,
          kNone, OutRule::kSameType, ResultRule::kSelf};
}
UnarySpec Exp(const char* api) {
  return {api,
          ElementOp::kExp,
          kExpSelf,
          kFloats,
          kFloats,
          OutRule::kCastable,
          ResultRule::kFloatForIntegers};
}
UnarySpec Log(const char* api) {
  return {api,
          ElementOp::kLog,
          kMathSelf,
          kFloats,
          kFloats,
          OutRule::kCastable,
          ResultRule::kFloatForIntegers};
}
UnarySpec Sqrt(const char* api) {
  return {api,
          ElementOp::kSqrt,
          kMathSelf,
          kFloats,
          kFloats,
          OutRule::kCastable,
          ResultRule::kFloatForIntegers,
          /*int64_in_double=*/true};
}
UnarySpec Rsqrt(const char* api) {
  return {api,
          ElementOp::kRsqrt,
          kMathSelf,
          kFloats,
          kFloats,
          OutRule::kCastable,
          ResultRule::kOutForIntegers};
}
UnarySpec Tanh(const char* api) {
  return {api,
          ElementOp::kTanh,
          kTanhSelf,
          kFloat32s,
          kFloat32s,
          OutRule::kCastable,
          ResultRule::kFloatForIntegers};
}
UnarySpec Relu(const char* api) {
  return {api,
          ElementOp::kRelu,
          kReluTypes,
          kReluTypes,
          kInplaceReluTypes,
          OutRule::kSameType,
          ResultRule::kSelf};
}
UnarySpec Sigmoid(const char* api) {
  return {api,     ElementOp::kSigmoid, kFloat32s,        kFloat32s,
          kFloats, OutRule::kCastable,  ResultRule::kSelf};
}
UnarySpec Silu(const char* api) {
  return {api,   ElementOp::kSilu,   kFloat32s,        kFloat32s,
          kNone, OutRule::kSameType, ResultRule::kSelf};
}
UnarySpec Gelu(const char* api) {
  return {api,   ElementOp::kGelu,   kFloat32s,        kFloat32s,
          kNone, OutRule::kSameType, ResultRule::kSelf};
}

}  // namespace
}  // namespace ascend::nn

using ascend::nn::PlanUnary;

// One operator's out-of-place and in-place first phases.
#define ACLNN_UNARY_OUT(NAME, SPEC, OUT_TYPE)                        \
  aclnnStatus aclnn##NAME##GetWorkspaceSize(                         \
      const aclTensor* self, OUT_TYPE* out, uint64_t* workspaceSize, \
      aclOpExecutor** executor) try {                                \
    return PlanUnary(ascend::nn::SPEC(__func__), self, out, false,   \
                     workspaceSize, executor);                       \
  }                                                                  \
  ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)
#define ACLNN_UNARY_INPLACE(NAME, SPEC)                                  \
  aclnnStatus aclnnInplace##NAME##GetWorkspaceSize(                      \
      aclTensor* selfRef, uint64_t* workspaceSize,                       \
      aclOpExecutor** executor) try {                                    \
    return PlanUnary(ascend::nn::SPEC(__func__), selfRef, nullptr, true, \
                     workspaceSize, executor);                           \
  }                                                                      \
  ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

extern "C" {

ACLNN_UNARY_OUT(Neg, Neg, aclTensor)
ACLNN_UNARY_INPLACE(Neg, Neg)
ACLNN_UNARY_OUT(Abs, Abs, aclTensor)
ACLNN_UNARY_OUT(Exp, Exp, aclTensor)
ACLNN_UNARY_INPLACE(Exp, Exp)
ACLNN_UNARY_OUT(Log, Log, aclTensor)
ACLNN_UNARY_INPLACE(Log, Log)
ACLNN_UNARY_OUT(Sqrt, Sqrt, aclTensor)
ACLNN_UNARY_INPLACE(Sqrt, Sqrt)
ACLNN_UNARY_OUT(Rsqrt, Rsqrt, aclTensor)
ACLNN_UNARY_INPLACE(Rsqrt, Rsqrt)
ACLNN_UNARY_OUT(Tanh, Tanh, aclTensor)
ACLNN_UNARY_INPLACE(Tanh, Tanh)
ACLNN_UNARY_OUT(Relu, Relu, const aclTensor)
ACLNN_UNARY_INPLACE(Relu, Relu)
ACLNN_UNARY_OUT(Sigmoid, Sigmoid, aclTensor)
ACLNN_UNARY_INPLACE(Sigmoid, Sigmoid)
ACLNN_UNARY_OUT(Silu, Silu, aclTensor)
ACLNN_UNARY_OUT(Gelu, Gelu, aclTensor)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnNeg)
ACLNN_SECOND_PHASE(aclnnInplaceNeg)
ACLNN_SECOND_PHASE(aclnnAbs)
ACLNN_SECOND_PHASE(aclnnExp)
ACLNN_SECOND_PHASE(aclnnInplaceExp)
ACLNN_SECOND_PHASE(aclnnLog)
ACLNN_SECOND_PHASE(aclnnInplaceLog)
ACLNN_SECOND_PHASE(aclnnSqrt)
ACLNN_SECOND_PHASE(aclnnInplaceSqrt)
ACLNN_SECOND_PHASE(aclnnRsqrt)
ACLNN_SECOND_PHASE(aclnnInplaceRsqrt)
ACLNN_SECOND_PHASE(aclnnTanh)
ACLNN_SECOND_PHASE(aclnnInplaceTanh)
ACLNN_SECOND_PHASE(aclnnRelu)
ACLNN_SECOND_PHASE(aclnnInplaceRelu)
ACLNN_SECOND_PHASE(aclnnSigmoid)
ACLNN_SECOND_PHASE(aclnnInplaceSigmoid)
ACLNN_SECOND_PHASE(aclnnSilu)
ACLNN_SECOND_PHASE(aclnnGelu)
