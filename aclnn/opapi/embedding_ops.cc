// Embedding (aclnnop/aclnn_embedding.h): the checks of its page in
// hicann/ops-nn (index/embedding/docs/aclnnEmbedding.md), then one gather
// launch (embedding_args.h).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/embedding_args.h"
#include "aclnn/opapi/launch.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_embedding.h"

namespace ascend::nn {
namespace {

// The page's weight types for Atlas A2 (complex types excepted: the
// simulator has no complex types; DESIGN.md §5.26).
constexpr DtypeList kWeightTypes = {
    ACL_BF16,  ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT32,
    ACL_INT16, ACL_INT8,  ACL_UINT8,   ACL_BOOL,  ACL_DOUBLE};
constexpr DtypeList kIndexTypes = {ACL_INT64, ACL_INT32};

aclnnStatus PlanEmbedding(const char* api, const aclTensor* weight,
                          const aclTensor* indices, const aclTensor* out,
                          uint64_t* workspace_size, aclOpExecutor** executor) {
  ACLNN_CHECK(CheckNotNull(
      api, {{"weight", weight}, {"indices", indices}, {"out", out}}));
  ACLNN_CHECK(CheckOutputs(api, workspace_size, executor));
  ACLNN_CHECK(CheckTensor(api, "weight", weight));
  ACLNN_CHECK(CheckTensor(api, "indices", indices));
  ACLNN_CHECK(CheckTensor(api, "out", out));
  ACLNN_CHECK(CheckDtype(api, "weight", weight->dtype, kWeightTypes));
  if (out->dtype != weight->dtype) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("out has type ") + DtypeName(out->dtype) +
                      "; it must be weight's type " + DtypeName(weight->dtype));
  }
  ACLNN_CHECK(CheckDtype(api, "indices", indices->dtype, kIndexTypes));
  ACLNN_CHECK(CheckMaxDims(api, "weight", weight, kMaxDims));
  ACLNN_CHECK(CheckMaxDims(api, "indices", indices, kMaxDims));
  ACLNN_CHECK(CheckMaxDims(api, "out", out, kMaxDims));
  if (weight->Dims() != 2) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "weight has " + std::to_string(weight->Dims()) +
                      " dimensions; it must have 2");
  }
  std::vector<int64_t> shape = indices->view_shape;
  shape.push_back(weight->view_shape[1]);
  ACLNN_CHECK(CheckShape(api, "out", out, shape));
  ACLNN_CHECK(CheckPlainFormat(api, "weight", weight));
  ACLNN_CHECK(CheckPlainFormat(api, "indices", indices));
  ACLNN_CHECK(CheckPlainFormat(api, "out", out));

  auto e = std::make_unique<aclOpExecutor>(api);
  const uint32_t w = e->AddInput(weight);
  const uint32_t i = e->AddInput(indices);
  const uint32_t o = e->AddOutput(out);
  if (out->Numel() > 0) {
    EmbeddingArgs args{};
    args.esize = static_cast<int32_t>(ElementSize(weight->dtype));
    args.index_size = static_cast<int32_t>(ElementSize(indices->dtype));
    args.rows = weight->view_shape[0];
    args.cols = weight->view_shape[1];
    args.wstride[0] = weight->strides[0];
    args.wstride[1] = weight->strides[1];
    args.ocol = out->strides.back();
    args.count = indices->Numel();
    // The index axes, size-1 ones dropped and neighbours merged where both
    // the indices and out walk them as one.
    int ni = 0;
    for (size_t d = 0; d < indices->view_shape.size(); ++d) {
      const int64_t size = indices->view_shape[d];
      const int64_t is = indices->strides[d], os = out->strides[d];
      if (size == 1) continue;
      if (ni > 0 && args.istride[ni - 1] == is * size &&
          args.ostride[ni - 1] == os * size) {
        args.ishape[ni - 1] *= size;
        args.istride[ni - 1] = is;
        args.ostride[ni - 1] = os;
        continue;
      }
      args.ishape[ni] = size;
      args.istride[ni] = is;
      args.ostride[ni] = os;
      ++ni;
    }
    if (ni == 0) args.ishape[ni++] = 1;
    args.ni = ni;
    const uint32_t blocks = static_cast<uint32_t>(std::min<int64_t>(
        args.count, BlocksFor(args.count * args.cols, 1 << 15)));
    PlannedLaunch& l =
        e->AddLaunch(KernelHandle(&EmbeddingKernel, "aclnn_embedding"), blocks,
                     &args, sizeof args);
    l.Patch(offsetof(EmbeddingArgs, weight_addr), Base::kInput, w,
            ViewByteOffset(*weight));
    l.Patch(offsetof(EmbeddingArgs, indices_addr), Base::kInput, i,
            ViewByteOffset(*indices));
    l.Patch(offsetof(EmbeddingArgs, out_addr), Base::kOutput, o,
            ViewByteOffset(*out));
  }
  *workspace_size = e->workspace_size;
  *executor = e.release();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace ascend::nn

extern "C" {

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight,
                                           const aclTensor* indices,
                                           const aclTensor* out,
                                           uint64_t* workspaceSize,
                                           aclOpExecutor** executor) try {
  return ascend::nn::PlanEmbedding(__func__, weight, indices, out,
                                   workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnEmbedding)
