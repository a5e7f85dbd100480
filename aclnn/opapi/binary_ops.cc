#include "aclnn/opapi/binary_ops.h"

#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/executor.h"

namespace ascend::nn {
namespace {

// Whether alpha may scale a result of type `result` (like PyTorch: a
// floating alpha needs a floating or complex result, a non-bool alpha a
// non-bool result).
bool AlphaFits(aclDataType alpha, aclDataType result) {
  if (!CanCast(alpha, result)) return false;  // only bool converts to bool
  return !IsFloating(alpha) || IsFloating(result) || IsComplex(result);
}

}  // namespace

aclnnStatus PlanBinary(const BinarySpec& spec, const aclTensor* self,
                       const aclTensor* other, const aclScalar* other_scalar,
                       const aclScalar* alpha, const aclTensor* out,
                       bool inplace, uint64_t* workspace_size,
                       aclOpExecutor** executor) {
  const char* api = spec.api;
  const char* self_name = inplace ? "selfRef" : "self";
  // Null pointers first (161001), then each tensor's validity.
  ACLNN_CHECK(CheckNotNull(
      api,
      {{self_name, self},
       {"other", other != nullptr ? static_cast<const void*>(other)
                                  : static_cast<const void*>(other_scalar)},
       {"alpha", spec.has_alpha ? static_cast<const void*>(alpha) : self},
       {"out", inplace ? static_cast<const void*>(self) : out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, self_name, self));
  if (other != nullptr) ACLNN_CHECK(CheckTensor(api, "other", other));
  if (other_scalar != nullptr) {
    ACLNN_CHECK(CheckScalar(api, "other", other_scalar));
  }
  if (spec.has_alpha) ACLNN_CHECK(CheckScalar(api, "alpha", alpha));
  const aclTensor* result = inplace ? self : out;
  if (!inplace) ACLNN_CHECK(CheckTensor(api, "out", out));

  // Types: each in the page's list, then the promotion, then the result's
  // conversion to the output.
  ACLNN_CHECK(CheckDtype(api, self_name, self->dtype, spec.types));
  if (other != nullptr) {
    ACLNN_CHECK(CheckDtype(api, "other", other->dtype, spec.types));
  }
  const aclDataType promoted =
      other != nullptr ? PromoteTypes(self->dtype, other->dtype)
                       : PromoteWithScalar(self->dtype, other_scalar->dtype);
  if (promoted == ACL_DT_UNDEFINED) {
    return Refuse(
        api, ACLNN_ERR_PARAM_INVALID,
        std::string("the types of ") + self_name + " (" +
            DtypeName(self->dtype) + ") and other (" +
            DtypeName(other != nullptr ? other->dtype : other_scalar->dtype) +
            ") have no common type");
  }
  // Integer division divides as floats: the result is FLOAT.
  const aclDataType result_type =
      spec.true_division && !IsFloating(promoted) ? ACL_FLOAT : promoted;
  if (spec.has_alpha && !AlphaFits(alpha->dtype, result_type)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("alpha of type ") + DtypeName(alpha->dtype) +
                      " cannot scale a result of type " +
                      DtypeName(result_type));
  }
  ACLNN_CHECK(
      CheckCastable(api, inplace ? self_name : "out", result_type, result));

  // Shapes: at most 8 dimensions, broadcast, and the output's shape.
  ACLNN_CHECK(CheckMaxDims(api, self_name, self, kMaxDims));
  std::vector<int64_t> shape = self->view_shape;
  if (other != nullptr) {
    ACLNN_CHECK(CheckMaxDims(api, "other", other, kMaxDims));
    ACLNN_CHECK(BroadcastShapes(api, self_name, self->view_shape, "other",
                                other->view_shape, &shape));
  }
  ACLNN_CHECK(CheckMaxDims(api, "out", result, kMaxDims));
  ACLNN_CHECK(CheckShape(api, inplace ? self_name : "out", result, shape));
  ACLNN_CHECK(CheckPlainFormat(api, self_name, self));
  if (other != nullptr) ACLNN_CHECK(CheckPlainFormat(api, "other", other));
  if (!inplace) ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  const aclDataType compute = ComputeTypeFor(result_type);
  const bool float_compute = compute == ACL_FLOAT || compute == ACL_DOUBLE;
  double fa = 1;
  int64_t ia = 1;
  if (spec.has_alpha) {
    fa = alpha->ToDouble();
    ia = alpha->ToInt();
  }
  Operand out_op{result, Base::kOutput, 0};
  Operand self_op{self, inplace ? Base::kOutput : Base::kInput, 0};
  if (inplace) {
    e->AddOutput(self);
  } else {
    self_op.index = e->AddInput(self);
  }
  if (other != nullptr) {
    Operand other_op{other, Base::kInput, e->AddInput(other)};
    if (!inplace) out_op.index = e->AddOutput(out);
    PlanElementwise(*e, spec.op, compute, {self_op, other_op}, out_op, fa, ia);
  } else {
    // A scalar other: alpha folds into it, so the kernel adds a constant.
    double fv = other_scalar->ToDouble();
    int64_t iv = other_scalar->ToInt();
    if (spec.has_alpha) {
      fv *= fa;
      iv = static_cast<int64_t>(static_cast<uint64_t>(iv) *
                                static_cast<uint64_t>(ia));
    }
    if (!float_compute && IsFloating(other_scalar->dtype)) {
      iv = static_cast<int64_t>(fv);
    }
    if (!inplace) out_op.index = e->AddOutput(out);
    PlanElementwise(*e, spec.op, compute, {self_op, ScalarOperand(fv, iv)},
                    out_op, 1.0, 1);
  }
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

}  // namespace ascend::nn
