// ReduceSum, Mean, MeanV2, Amax, ArgMax (aclnnop/aclnn_reduce_sum.h,
// aclnn_mean.h, aclnn_amax.h, aclnn_argmax.h): the checks of their pages
// in hicann/ops-math (math/reduce_sum/docs/aclnnReduceSum.md,
// math/reduce_mean/docs/aclnnMean.md and aclnnMeanV2.md,
// math/reduce_max/docs/aclnnAmax.md, math/arg_max_v2/docs/aclnnArgMax.md),
// in the order their implementations make them, then one reduction
// (reduce.h).
#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/reduce.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"

namespace ascend::nn {
namespace {

// The types the pages list for Atlas A2 (complex types excepted: the
// simulator's kernels have no complex arithmetic; DESIGN.md §5.26).
constexpr DtypeList kSumTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8,  ACL_INT16,
                                 ACL_INT32,   ACL_INT64, ACL_UINT8, ACL_BOOL,
                                 ACL_DOUBLE,  ACL_BF16};
constexpr DtypeList kMeanTypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,
                                  ACL_DOUBLE, ACL_INT32,   ACL_INT64,
                                  ACL_INT16,  ACL_INT8,    ACL_UINT8};
constexpr DtypeList kAmaxTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8,
                                  ACL_INT16, ACL_INT32,   ACL_INT64,  ACL_UINT8,
                                  ACL_BOOL,  ACL_BF16};
constexpr DtypeList kArgMaxTypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16,
                                    ACL_DOUBLE, ACL_INT8,    ACL_INT16,
                                    ACL_INT32,  ACL_INT64,   ACL_UINT8};
constexpr DtypeList kIndexTypes = {ACL_INT32, ACL_INT64};

aclnnStatus CheckSameType(const char* api, const char* name, const aclTensor* t,
                          aclDataType want, const char* want_name) {
  if (t->dtype != want) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " has type " + DtypeName(t->dtype) +
                      "; it must be " + want_name + "'s type " +
                      DtypeName(want));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDims8(const char* api, const aclTensor* self,
                       const aclTensor* out) {
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  return CheckMaxDims(api, "out", out, kMaxDims);
}

aclnnStatus CheckFormats(const char* api, const aclTensor* self,
                         const aclTensor* out) {
  ACLNN_CHECK(CheckPlainFormat(api, "self", self));
  return CheckPlainFormat(api, "out", out);
}

// Finishes a first phase: the executor with one reduction of self.
aclnnStatus Finish(const char* api, ReduceOp op, const aclTensor* self,
                   aclDataType cast, const std::vector<bool>& mask, bool keep,
                   const aclTensor* out, uint64_t* workspace_size,
                   aclOpExecutor** executor) {
  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t in = e->AddInput(self);
  const uint32_t o = e->AddOutput(out);
  PlanReduce(*e, op, *self, in, cast, mask, keep, *out, o);
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

// aclnnReduceSum.md: self, dims and out non-null; self, out and dtype in
// the list and dtype out's type; at most 8 dimensions; dims in range and
// distinct (empty: every axis); out of the reduced shape. Sums in dtype.
aclnnStatus PlanReduceSum(const char* api, const aclTensor* self,
                          const aclIntArray* dims, bool keep, aclDataType dtype,
                          const aclTensor* out, uint64_t* workspace_size,
                          aclOpExecutor** executor) {
  ACLNN_CHECK(
      CheckNotNull(api, {{"self", self}, {"dims", dims}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckIntArray(api, "dims", dims));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kSumTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kSumTypes));
  ACLNN_CHECK(CheckDtype(api, "dtype", dtype, kSumTypes));
  ACLNN_CHECK(CheckSameType(api, "out", out, dtype, "dtype"));
  ACLNN_CHECK(CheckMaxDims(api, "self", self, kMaxDims));
  std::vector<bool> mask;
  ACLNN_CHECK(ReduceAxes(api, "dims", self, dims->values, true, &mask));
  ACLNN_CHECK(CheckMaxDims(api, "out", out, kMaxDims));
  ACLNN_CHECK(
      CheckShape(api, "out", out, ReducedShape(self->view_shape, mask, keep)));
  ACLNN_CHECK(CheckFormats(api, self, out));
  return Finish(api, ReduceOp::kSum, self, dtype, mask, keep, out,
                workspace_size, executor);
}

// aclnnMean.md: self, dim and out non-null; self, dtype and out in the
// list; self's type converts to dtype, dtype to out's; dim in range and
// distinct (empty: every axis); at most 8 dimensions; out of the reduced
// shape. Averages in dtype.
aclnnStatus PlanMean(const char* api, const aclTensor* self,
                     const aclIntArray* dim, bool keep, aclDataType dtype,
                     const aclTensor* out, uint64_t* workspace_size,
                     aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"dim", dim}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckIntArray(api, "dim", dim));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kMeanTypes));
  ACLNN_CHECK(CheckDtype(api, "dtype", dtype, kMeanTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kMeanTypes));
  if (!CanCast(self->dtype, dtype)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("self's type ") + DtypeName(self->dtype) +
                      " cannot be converted to dtype " + DtypeName(dtype));
  }
  ACLNN_CHECK(CheckCastable(api, "out", dtype, out));
  std::vector<bool> mask;
  ACLNN_CHECK(ReduceAxes(api, "dim", self, dim->values, true, &mask));
  ACLNN_CHECK(CheckDims8(api, self, out));
  ACLNN_CHECK(
      CheckShape(api, "out", out, ReducedShape(self->view_shape, mask, keep)));
  ACLNN_CHECK(CheckFormats(api, self, out));
  return Finish(api, ReduceOp::kMean, self, dtype, mask, keep, out,
                workspace_size, executor);
}

// aclnnMeanV2.md: as Mean without dtype: out has self's type; an empty
// dim with noopWithEmptyAxes copies self to out.
aclnnStatus PlanMeanV2(const char* api, const aclTensor* self,
                       const aclIntArray* dim, bool keep, bool noop,
                       const aclTensor* out, uint64_t* workspace_size,
                       aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"dim", dim}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckIntArray(api, "dim", dim));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kMeanTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kMeanTypes));
  ACLNN_CHECK(CheckSameType(api, "out", out, self->dtype, "self"));
  std::vector<bool> mask;
  const bool copy = dim->values.empty() && noop;
  ACLNN_CHECK(ReduceAxes(api, "dim", self, dim->values, !copy, &mask));
  ACLNN_CHECK(CheckDims8(api, self, out));
  ACLNN_CHECK(
      CheckShape(api, "out", out, ReducedShape(self->view_shape, mask, keep)));
  ACLNN_CHECK(CheckFormats(api, self, out));
  return Finish(api, copy ? ReduceOp::kSum : ReduceOp::kMean, self, self->dtype,
                mask, keep, out, workspace_size, executor);
}

// aclnnAmax.md: self, dim and out non-null; out of self's type, in the
// list; dim in range, distinct, no reduced axis of size 0 (empty: every
// axis); at most 8 dimensions; out of the reduced shape.
aclnnStatus PlanAmax(const char* api, const aclTensor* self,
                     const aclIntArray* dim, bool keep, const aclTensor* out,
                     uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"dim", dim}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckIntArray(api, "dim", dim));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckSameType(api, "out", out, self->dtype, "self"));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kAmaxTypes));
  std::vector<bool> mask;
  ACLNN_CHECK(ReduceAxes(api, "dim", self, dim->values, true, &mask));
  for (size_t d = 0; d < mask.size(); ++d) {
    if (mask[d] && self->view_shape[d] == 0) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    "axis " + std::to_string(d) +
                        " of self has size 0; the largest of no elements is "
                        "undefined");
    }
  }
  ACLNN_CHECK(CheckDims8(api, self, out));
  ACLNN_CHECK(
      CheckShape(api, "out", out, ReducedShape(self->view_shape, mask, keep)));
  ACLNN_CHECK(CheckFormats(api, self, out));
  return Finish(api, ReduceOp::kMax, self, self->dtype, mask, keep, out,
                workspace_size, executor);
}

// aclnnArgMax.md: self and out non-null; self in the list, out INT32 or
// INT64; at most 8 dimensions; dim in range; out of the reduced shape.
aclnnStatus PlanArgMax(const char* api, const aclTensor* self, int64_t dim,
                       bool keep, const aclTensor* out,
                       uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "self", self));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "self", self->dtype, kArgMaxTypes));
  ACLNN_CHECK(CheckDtype(api, "out", out->dtype, kIndexTypes));
  ACLNN_CHECK(CheckDims8(api, self, out));
  std::vector<bool> mask;
  ACLNN_CHECK(ReduceAxes(api, "dim", self, {dim}, false, &mask));
  ACLNN_CHECK(
      CheckShape(api, "out", out, ReducedShape(self->view_shape, mask, keep)));
  if (out->Numel() > 0) {
    for (size_t d = 0; d < mask.size(); ++d) {
      if (mask[d] && self->view_shape[d] == 0) {
        return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                      "axis " + std::to_string(d) +
                          " of self has size 0; no element is the largest");
      }
    }
  }
  ACLNN_CHECK(CheckFormats(api, self, out));
  return Finish(api, ReduceOp::kArgMax, self, self->dtype, mask, keep, out,
                workspace_size, executor);
}

}  // namespace
}  // namespace ascend::nn

extern "C" {

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self,
                                           const aclIntArray* dims,
                                           bool keepDims, aclDataType dtype,
                                           aclTensor* out,
                                           uint64_t* workspaceSize,
                                           aclOpExecutor** executor) try {
  return ascend::nn::PlanReduceSum(__func__, self, dims, keepDims, dtype, out,
                                   workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self,
                                      const aclIntArray* dim, bool keepDim,
                                      aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return ascend::nn::PlanMean(__func__, self, dim, keepDim, dtype, out,
                              workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self,
                                        const aclIntArray* dim, bool keepDim,
                                        bool noopWithEmptyAxes, aclTensor* out,
                                        uint64_t* workspaceSize,
                                        aclOpExecutor** executor) try {
  return ascend::nn::PlanMeanV2(__func__, self, dim, keepDim, noopWithEmptyAxes,
                                out, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self,
                                      const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return ascend::nn::PlanAmax(__func__, self, dim, keepDim, out, workspaceSize,
                              executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                        bool keepdim, aclTensor* out,
                                        uint64_t* workspaceSize,
                                        aclOpExecutor** executor) try {
  return ascend::nn::PlanArgMax(__func__, self, dim, keepdim, out,
                                workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnReduceSum)
ACLNN_SECOND_PHASE(aclnnMean)
ACLNN_SECOND_PHASE(aclnnMeanV2)
ACLNN_SECOND_PHASE(aclnnAmax)
ACLNN_SECOND_PHASE(aclnnArgMax)
