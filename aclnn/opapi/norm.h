// Normalisations on the simulated device (DESIGN.md §5.26): Softmax along
// one axis, LayerNorm and RmsNorm over trailing axes, of views with any
// strides and offset. Each row (the normalised axes at one position of
// the others) is one unit of work; blocks take disjoint runs of rows.
// Statistics are computed in FLOAT (DOUBLE for a DOUBLE Softmax) and each
// output rounds once on store.
//
//   NormPlan p{NormOp::kSoftmax, ACL_FLOAT, 0, x, row_axes};
//   p.x = {self, Base::kInput, e->AddInput(self)};
//   p.y = {out, Base::kOutput, e->AddOutput(out)};
//   PlanNorm(*e, p);
#ifndef ASCENDCL_ACLNN_OPAPI_NORM_H_
#define ASCENDCL_ACLNN_OPAPI_NORM_H_

#include <cstdint>
#include <vector>

#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"
#include "aclnn/opapi/norm_args.h"

namespace ascend::nn {

// A tensor of the launch and where its address comes from; t null (or
// empty) leaves it out.
struct NormTensor {
  const aclTensor* t = nullptr;
  Base base = Base::kInput;
  uint32_t index = 0;
};

struct NormPlan {
  NormOp op;
  aclDataType compute;  // ACL_FLOAT, or ACL_DOUBLE for Softmax
  double eps;
  // Which of x's axes form a row: one for Softmax, the trailing ones for
  // LayerNorm and RmsNorm.
  std::vector<bool> row_axes;
  NormTensor x, y;          // x's shape
  NormTensor weight, bias;  // the row's shape (trailing row axes)
  NormTensor mean, rstd;    // x's rank, row axes of size 1
};

// Plans the launch; nothing when there is no row or nothing to write.
void PlanNorm(aclOpExecutor& e, const NormPlan& p);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_NORM_H_
