// Cast, InplaceCopy, InplaceZero and InplaceFillScalar (aclnnop/
// aclnn_cast.h, aclnn_copy.h, aclnn_zero.h, aclnn_fill_scalar.h):
// conversions and fills as element-wise launches (DESIGN.md §5.26).
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/convert.h"
#include "aclnn/opapi/elementwise.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnn/opapi/staging.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"

namespace ascend::nn {
namespace {

// The pages' lists for Atlas A2, complex types excepted (DESIGN.md §5.26):
// every real type the simulator stores.
constexpr DtypeList kAllReal = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,
                                ACL_INT8,  ACL_UINT8,   ACL_INT16,  ACL_UINT16,
                                ACL_INT32, ACL_UINT32,  ACL_INT64,  ACL_UINT64,
                                ACL_BOOL};
// InplaceZero lists neither UINT32 nor UINT64.
constexpr DtypeList kZeroTypes = {
    ACL_INT8, ACL_INT32,  ACL_INT64, ACL_UINT8,  ACL_FLOAT16, ACL_FLOAT,
    ACL_BOOL, ACL_DOUBLE, ACL_INT16, ACL_UINT16, ACL_BF16};

// The type a conversion from `from` to `to` computes in: exact for every
// value of `from` that `to` can hold. Floats go through FLOAT (DOUBLE when
// either side is DOUBLE); integers and BOOL through INT32, or INT64 when a
// side is wider than 32 bits or an unsigned 32-bit type.
aclDataType ConversionType(aclDataType from, aclDataType to) {
  if (IsFloating(from) || IsFloating(to)) {
    return from == ACL_DOUBLE || to == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
  }
  return ComputeTypeFor(from) == ACL_INT64 || ComputeTypeFor(to) == ACL_INT64
             ? ACL_INT64
             : ACL_INT32;
}

// One conversion launch of `in` (broadcast) into `out`, through the
// workspace when their memory overlaps otherwise than element for element.
void PlanConversion(aclOpExecutor& e, const aclTensor* in, uint32_t in_index,
                    const Operand& out) {
  aclTensor staged;
  const Operand src =
      ReadableInput(e, in, Base::kInput, in_index, *out.tensor, &staged);
  PlanElementwise(e, ElementOp::kCopy,
                  ConversionType(in->dtype, out.tensor->dtype), {src}, out);
}

aclnnStatus Finish(std::unique_ptr<aclOpExecutor> e, uint64_t* workspace_size,
                   aclOpExecutor** executor) {
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCast(const char* api, const aclTensor* self, aclDataType dtype,
                     const aclTensor* out, uint64_t* workspace_size,
                     aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kAllReal));
  ACLNN_CHECK(CheckDtype(api, "dtype", dtype, kAllReal));
  // The result has type dtype and is written to out as it is: out must
  // have that type (our rule: the page names no conversion after the
  // cast).
  if (out->dtype != dtype) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("out has type ") + DtypeName(out->dtype) +
                      "; it must be dtype " + DtypeName(dtype));
  }
  ACLNN_CHECK(CheckPlainFormat(api, "self", self));
  if (out->format != self->format) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "out's format " + std::to_string(out->format) +
                      " differs from self's " + std::to_string(self->format));
  }
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  ACLNN_CHECK(CheckShape(api, "out", out, self->view_shape));

  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t in = e->AddInput(self);
  PlanConversion(*e, self, in, Operand{out, Base::kOutput, e->AddOutput(out)});
  return Finish(std::move(e), workspace_size, executor);
}

aclnnStatus PlanInplaceCopy(const char* api, const aclTensor* self_ref,
                            const aclTensor* src, uint64_t* workspace_size,
                            aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"selfRef", self_ref}, {"src", src}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "selfRef", self_ref));
  ACLNN_CHECK(CheckTensor(api, "src", src));
  // Any real type converts to any other (as aclnnCast converts).
  ACLNN_CHECK(CheckDtype(api, "selfRef", self_ref->dtype, kAllReal));
  ACLNN_CHECK(CheckDtype(api, "src", src->dtype, kAllReal));
  ACLNN_CHECK(CheckMaxDims(api, "selfRef", self_ref, kMaxDims));
  ACLNN_CHECK(CheckMaxDims(api, "src", src, kMaxDims));
  std::vector<int64_t> shape;
  ACLNN_CHECK(BroadcastShapes(api, "selfRef", self_ref->view_shape, "src",
                              src->view_shape, &shape));
  if (shape != self_ref->view_shape) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "src " + ShapeString(src->view_shape) +
                      " does not broadcast to selfRef's shape " +
                      ShapeString(self_ref->view_shape));
  }
  ACLNN_CHECK(CheckPlainFormat(api, "selfRef", self_ref));
  ACLNN_CHECK(CheckPlainFormat(api, "src", src));

  auto e = std::make_unique<aclOpExecutor>(api);
  const Operand dst{self_ref, Base::kOutput, e->AddOutput(self_ref)};
  PlanConversion(*e, src, e->AddInput(src), dst);
  return Finish(std::move(e), workspace_size, executor);
}

// `t` with the dimensions a walk over it takes as one merged (a dimension
// whose stride is the next one's extent) and size-1 dimensions dropped:
// the same elements, in as few dimensions as they allow.
aclTensor MergedView(const aclTensor& t) {
  aclTensor view = t;
  view.tag = Tag::kDead;  // a planning view, not an object
  view.view_shape.clear();
  view.strides.clear();
  for (size_t d = 0; d < t.view_shape.size(); ++d) {
    if (t.view_shape[d] == 1) continue;
    if (!view.view_shape.empty() &&
        view.strides.back() == t.strides[d] * t.view_shape[d]) {
      view.view_shape.back() *= t.view_shape[d];
      view.strides.back() = t.strides[d];
    } else {
      view.view_shape.push_back(t.view_shape[d]);
      view.strides.push_back(t.strides[d]);
    }
  }
  return view;
}

aclnnStatus PlanInplaceZero(const char* api, const aclTensor* self_ref,
                            uint64_t* workspace_size,
                            aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"selfRef", self_ref}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "selfRef", self_ref));
  ACLNN_CHECK(CheckDtype(api, "selfRef", self_ref->dtype, kZeroTypes));
  ACLNN_CHECK(CheckPlainFormat(api, "selfRef", self_ref));
  // The page sets no rank limit: any tensor nnopbase makes is zeroed, as
  // the dimensions it merges into; the simulator's kernel walks at most 8
  // that do not merge (DESIGN.md §5.26).
  const aclTensor view = MergedView(*self_ref);
  if (view.Dims() > kMaxDims) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "selfRef's view " + ShapeString(self_ref->view_shape) +
                      " walks " + std::to_string(view.Dims()) +
                      " dimensions that do not merge; the simulator's "
                      "kernels walk at most " +
                      std::to_string(kMaxDims));
  }

  auto e = std::make_unique<aclOpExecutor>(api);
  const Operand dst{&view, Base::kOutput, e->AddOutput(self_ref)};
  PlanElementwise(*e, ElementOp::kFill, ComputeTypeFor(self_ref->dtype), {},
                  dst, 0.0, 0);
  return Finish(std::move(e), workspace_size, executor);
}

// value as an element of integer (or BOOL) type t, widened to int64 as
// the kernel's integer compute types hold it: floats convert toward zero,
// saturating, NaN to 0; integers wrap; anything is != 0 for BOOL.
template <typename T>
int64_t AsElement(const aclScalar& value) {
  if (value.IsFloating()) {
    return static_cast<int64_t>(ConvertValue<T>(value.ToDouble()));
  }
  if constexpr (std::is_same_v<T, bool>) {
    return value.ToInt() != 0;
  } else {
    return static_cast<int64_t>(static_cast<T>(value.ToInt()));
  }
}

int64_t IntegerFillValue(const aclScalar& value, aclDataType t) {
  switch (t) {
    case ACL_BOOL:
      return AsElement<bool>(value);
    case ACL_INT8:
      return AsElement<int8_t>(value);
    case ACL_UINT8:
      return AsElement<uint8_t>(value);
    case ACL_INT16:
      return AsElement<int16_t>(value);
    case ACL_UINT16:
      return AsElement<uint16_t>(value);
    case ACL_INT32:
      return AsElement<int32_t>(value);
    case ACL_UINT32:
      return AsElement<uint32_t>(value);
    case ACL_UINT64:
      return AsElement<uint64_t>(value);  // the bits, as INT64 holds them
    default:
      return AsElement<int64_t>(value);
  }
}

aclnnStatus PlanInplaceFillScalar(const char* api, const aclTensor* self_ref,
                                  const aclScalar* value,
                                  uint64_t* workspace_size,
                                  aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"selfRef", self_ref}, {"value", value}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "selfRef", self_ref));
  ACLNN_CHECK(CheckScalar(api, "value", value));
  ACLNN_CHECK(CheckDtype(api, "selfRef", self_ref->dtype, kAllReal));
  ACLNN_CHECK(CheckDtype(api, "value", value->dtype, kAllReal));
  if (PromoteTypes(self_ref->dtype, value->dtype) == ACL_DT_UNDEFINED) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("value's type ") + DtypeName(value->dtype) +
                      " has no common type with selfRef's " +
                      DtypeName(self_ref->dtype));
  }
  ACLNN_CHECK(CheckMaxDims(api, "selfRef", self_ref, kMaxDims));
  ACLNN_CHECK(CheckPlainFormat(api, "selfRef", self_ref));

  auto e = std::make_unique<aclOpExecutor>(api);
  const Operand dst{self_ref, Base::kOutput, e->AddOutput(self_ref)};
  const aclDataType t = self_ref->dtype;
  if (IsFloating(t)) {
    PlanElementwise(*e, ElementOp::kFill, ComputeTypeFor(t), {}, dst,
                    value->ToDouble(), 0);
  } else {
    PlanElementwise(*e, ElementOp::kFill, ComputeTypeFor(t), {}, dst, 0.0,
                    IntegerFillValue(*value, t));
  }
  return Finish(std::move(e), workspace_size, executor);
}

}  // namespace
}  // namespace ascend::nn

extern "C" {

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self,
                                      const aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return ascend::nn::PlanCast(__func__, self, dtype, out, workspaceSize,
                              executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef,
                                             const aclTensor* src,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return ascend::nn::PlanInplaceCopy(__func__, selfRef, src, workspaceSize,
                                     executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return ascend::nn::PlanInplaceZero(__func__, selfRef, workspaceSize,
                                     executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(
    aclTensor* selfRef, const aclScalar* value, uint64_t* workspaceSize,
    aclOpExecutor** executor) try {
  return ascend::nn::PlanInplaceFillScalar(__func__, selfRef, value,
                                           workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnCast)
ACLNN_SECOND_PHASE(aclnnInplaceCopy)
ACLNN_SECOND_PHASE(aclnnInplaceZero)
ACLNN_SECOND_PHASE(aclnnInplaceFillScalar)
