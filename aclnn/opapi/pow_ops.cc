// PowTensorScalar, InplacePowTensorScalar and PowScalarTensor
// (aclnnop/aclnn_pow.h): a tensor raised to a scalar power, and a scalar
// raised to a tensor of powers, with the pages' type rules (DESIGN.md
// §5.26).
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/elementwise.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnn/opapi/staging.h"
#include "aclnnop/aclnn_pow.h"

namespace ascend::nn {
namespace {

// The pages' lists for Atlas A2, complex types excepted (DESIGN.md §5.26).
constexpr DtypeList kPowTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8,
                                 ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_BOOL,
                                 ACL_UINT8, ACL_BF16};
constexpr DtypeList kInplacePowTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                        ACL_INT32, ACL_INT64,   ACL_INT8,
                                        ACL_UINT8, ACL_INT16,   ACL_BF16};
constexpr DtypeList kPowOutTypes = {
    ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE, ACL_BOOL,  ACL_INT16,
    ACL_INT32,  ACL_INT64,   ACL_INT8,   ACL_UINT8, ACL_BF16,
    ACL_UINT16, ACL_UINT32,  ACL_UINT64};
// PowScalarTensor's base and exponents (no BOOL).
constexpr DtypeList kPowBaseTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                     ACL_INT16, ACL_INT32,   ACL_INT64,
                                     ACL_INT8,  ACL_UINT8,   ACL_BF16};

// The type a power computes in (CANN's rule for these operators, which is
// not the general tensor-scalar promotion): a floating tensor keeps its
// type; an integer tensor keeps its type unless the scalar is floating (or
// the tensor is BOOL), then the two promote as tensors do; a DOUBLE
// exponent written to a FLOAT out computes in FLOAT.
aclDataType PowResultType(aclDataType tensor, aclDataType scalar,
                          aclDataType exponent, aclDataType out) {
  if (exponent == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
  if (IsFloating(tensor)) return tensor;
  if (IsFloating(scalar) || tensor == ACL_BOOL) {
    return PromoteTypes(tensor, scalar);
  }
  return tensor;
}

// The finite range of a computing type, for the exponent's check.
void TypeRange(aclDataType t, double* lo, double* hi) {
  switch (t) {
    case ACL_FLOAT16:
      *hi = 65504.0;
      break;
    case ACL_BF16:
      *hi = 3.3895313892515355e38;  // (2 - 2^-7) * 2^127
      break;
    case ACL_FLOAT:
      *hi = std::numeric_limits<float>::max();
      break;
    case ACL_DOUBLE:
      *hi = std::numeric_limits<double>::max();
      break;
    case ACL_INT8:
      *hi = 127;
      break;
    case ACL_UINT8:
      *lo = 0;
      *hi = 255;
      return;
    case ACL_INT16:
      *hi = 32767;
      break;
    case ACL_INT32:
      *hi = 2147483647.0;
      break;
    default:  // INT64
      *hi = 9223372036854775807.0;
      break;
  }
  *lo = IsFloating(t) ? -*hi : -*hi - 1;
}

// The page's rule on the exponent's value: within the computing type's
// range, and not negative for an integer type (161002 else).
aclnnStatus CheckExponent(const char* api, const aclScalar* exponent,
                          aclDataType type) {
  double lo = 0, hi = 0;
  TypeRange(type, &lo, &hi);
  const bool floating = exponent->IsFloating();
  const double v = exponent->ToDouble();
  if (IsFloating(type)) {
    if (std::isfinite(v) && (v < lo || v > hi)) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    "exponent " + std::to_string(v) + " overflows the type " +
                        DtypeName(type) + " the power computes in");
    }
    return ACLNN_SUCCESS;
  }
  // An integer type: the exponent is an integer or BOOL here.
  const int64_t i = floating ? 0 : exponent->ToInt();
  if (i < 0) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "exponent " + std::to_string(i) +
                      " is negative and the power computes in the integer "
                      "type " +
                      DtypeName(type));
  }
  if (static_cast<double>(i) > hi) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "exponent " + std::to_string(i) + " overflows the type " +
                      DtypeName(type) + " the power computes in");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus RefuseNoCommonType(const char* api, aclDataType a, aclDataType b) {
  return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                std::string("self (") + DtypeName(a) + ") and exponent (" +
                    DtypeName(b) + ") have no common type");
}

aclnnStatus PlanPowTensorScalar(const char* api, const aclTensor* self,
                                const aclScalar* exponent, const aclTensor* out,
                                bool inplace, uint64_t* workspace_size,
                                aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(
      api, {{"self", self},
            {"exponent", exponent},
            {"out", inplace ? static_cast<const void*>(self) : out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckScalar(api, "exponent", exponent));
  if (!inplace) ACLNN_CHECK(CheckTensor(api, "out", out));
  const aclTensor* result = inplace ? self : out;
  const char* out_name = inplace ? "self" : "out";

  // Types: the lists, no BOOL ^ BOOL, a common type, the computing type's
  // conversion to out, and the exponent's value.
  const DtypeList types = inplace ? kInplacePowTypes : kPowTypes;
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, types));
  ACLNN_CHECK(CheckDtype(api, "exponent", exponent->dtype, types));
  if (!inplace) ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kPowOutTypes));
  if (self->dtype == ACL_BOOL && exponent->dtype == ACL_BOOL) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "self and exponent may not both be BOOL");
  }
  if (PromoteTypes(self->dtype, exponent->dtype) == ACL_DT_UNDEFINED) {
    return RefuseNoCommonType(api, self->dtype, exponent->dtype);
  }
  const aclDataType type = PowResultType(self->dtype, exponent->dtype,
                                         exponent->dtype, result->dtype);
  ACLNN_CHECK(CheckCastable(api, out_name, type, result));
  ACLNN_CHECK(CheckExponent(api, exponent, type));

  // Shapes and formats.
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  if (!inplace) ACLNN_CHECK(CheckShape(api, "out", out, self->view_shape));
  ACLNN_CHECK(CheckPlainFormat(api, "self", self));
  if (!inplace) ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  const double f = exponent->ToDouble();
  const int64_t i = exponent->IsFloating() ? 0 : exponent->ToInt();
  const aclDataType compute = ComputeTypeFor(type);
  if (inplace) {
    const Operand ref{self, Base::kOutput, e->AddOutput(self)};
    PlanElementwise(*e, ElementOp::kPowScalar, compute, {ref}, ref, f, i);
  } else {
    const uint32_t in = e->AddInput(self);
    const Operand dst{out, Base::kOutput, e->AddOutput(out)};
    aclTensor staged;
    const Operand src =
        ReadableInput(*e, self, Base::kInput, in, *out, &staged);
    PlanElementwise(*e, ElementOp::kPowScalar, compute, {src}, dst, f, i);
  }
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

aclnnStatus PlanPowScalarTensor(const char* api, const aclScalar* self,
                                const aclTensor* exponent, const aclTensor* out,
                                uint64_t* workspace_size,
                                aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(
      api, {{"self", self}, {"exponent", exponent}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckScalar(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "exponent", exponent));
  ACLNN_CHECK(CheckTensor(api, "out", out));

  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kPowBaseTypes));
  ACLNN_CHECK(CheckDtype(api, "exponent", exponent->dtype, kPowBaseTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kPowOutTypes));
  if (PromoteTypes(self->dtype, exponent->dtype) == ACL_DT_UNDEFINED) {
    return RefuseNoCommonType(api, self->dtype, exponent->dtype);
  }
  // The tensor here is the exponent: its type leads.
  const aclDataType type =
      PowResultType(exponent->dtype, self->dtype, exponent->dtype, out->dtype);
  ACLNN_CHECK(CheckCastable(api, "out", type, out));

  ACLNN_CHECK(CheckMaxDims(api, "exponent", exponent, kMaxDims));
  ACLNN_CHECK(CheckShape(api, "out", out, exponent->view_shape));
  ACLNN_CHECK(CheckPlainFormat(api, "exponent", exponent));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t in = e->AddInput(exponent);
  const Operand dst{out, Base::kOutput, e->AddOutput(out)};
  aclTensor staged;
  const Operand src =
      ReadableInput(*e, exponent, Base::kInput, in, *out, &staged);
  PlanElementwise(*e, ElementOp::kPowBase, ComputeTypeFor(type), {src}, dst,
                  self->ToDouble(), self->IsFloating() ? 0 : self->ToInt());
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace ascend::nn

using ascend::nn::PlanPowScalarTensor;
using ascend::nn::PlanPowTensorScalar;

extern "C" {

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                 const aclScalar* exponent,
                                                 const aclTensor* out,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) try {
  return PlanPowTensorScalar(__func__, self, exponent, out, false,
                             workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(
    const aclTensor* self, const aclScalar* exponent, uint64_t* workspaceSize,
    aclOpExecutor** executor) try {
  return PlanPowTensorScalar(__func__, self, exponent, nullptr, true,
                             workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self,
                                                 const aclTensor* exponent,
                                                 const aclTensor* out,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) try {
  return PlanPowScalarTensor(__func__, self, exponent, out, workspaceSize,
                             executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnPowTensorScalar)
ACLNN_SECOND_PHASE(aclnnInplacePowTensorScalar)
ACLNN_SECOND_PHASE(aclnnPowScalarTensor)
