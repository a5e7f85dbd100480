// Planning one launch of the matrix-multiply kernel (matmul_args.h) for the
// matrix operators (Matmul, Mm, BatchMatMul and their WeightNz forms;
// DESIGN.md §5.26): the operators check their arguments and describe each
// operand as the kernel reads it; this chooses the tiles, the blocks and
// the workspace.
//
//   MatmulProblem p;
//   p.m = 64; p.n = 32; p.k = 16;
//   p.a = MatmulView{self, Base::kInput, exec->AddInput(self), 16, 1};
//   ...
//   PlanMatmulLaunch(*exec, p);
#ifndef ASCENDCL_ACLNN_OPAPI_MATMUL_PLAN_H_
#define ASCENDCL_ACLNN_OPAPI_MATMUL_PLAN_H_

#include <cstdint>
#include <vector>

#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"
#include "aclnn/opapi/matmul_args.h"

namespace ascend::nn {

// One operand: the tensor (its type and view offset), where its address
// comes from, and its strides in elements. A's rows are m, columns k; B's
// rows k, columns n; C's rows m, columns n.
struct MatmulView {
  const aclTensor* tensor = nullptr;
  Base base = Base::kInput;
  uint32_t index = 0;
  int64_t row_stride = 0;
  int64_t col_stride = 0;
  std::vector<int64_t> batch_strides;  // one per batch dimension
  // B in the FRACTAL_NZ layout (matmul_args.h).
  bool nz = false;
  bool nz_transposed = false;
  int64_t nz_row_blocks = 0;
  int64_t nz_c0 = 0;
};

struct MatmulProblem {
  int64_t m = 0, n = 0, k = 0;
  std::vector<int64_t> batch_shape;
  MatmulRounding rounding = MatmulRounding::kNone;
  MatmulView a, b, c;
};

// Adds the launch (none when C has no elements) and sets the executor's
// workspace size.
void PlanMatmulLaunch(aclOpExecutor& e, MatmulProblem p);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_MATMUL_PLAN_H_
