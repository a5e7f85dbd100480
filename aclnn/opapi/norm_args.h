// The argument bytes of the normalisation kernel (norm.h): Softmax,
// LayerNorm and RmsNorm over rows of a view.
#ifndef ASCENDCL_ACLNN_OPAPI_NORM_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_NORM_ARGS_H_

#include <cstdint>

#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

enum class NormOp : int32_t { kSoftmax, kLayerNorm, kRmsNorm };

// One tensor of the launch: its strides (elements) over the batch axes
// and over the row axes; 0 where it does not extend (weight and bias
// along the batch, mean and rstd along the row). addr 0 when absent.
struct NormOperand {
  uint64_t addr;
  int32_t dtype;
  int32_t present;
  int64_t bstride[kArgDims];
  int64_t rstride[kArgDims];
};

// Each of `rows` batch positions (nb axes) normalises a row of `n`
// elements (nr axes): x in, y out, with LayerNorm's weight and bias (or
// RmsNorm's gamma as weight) along the row and mean / rstd outputs, one
// element per row.
struct NormArgs {
  int32_t op;       // NormOp
  int32_t compute;  // ACL_FLOAT or ACL_DOUBLE
  int32_t nb;
  int32_t nr;
  int64_t bshape[kArgDims];
  int64_t rshape[kArgDims];
  int64_t rows;
  int64_t n;
  double eps;
  NormOperand x, y, weight, bias, mean, rstd;
};

// The kernel (norm_kernel.cc): called once per block.
void NormKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_NORM_ARGS_H_
