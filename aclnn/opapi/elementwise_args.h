// The argument bytes of the element-wise kernel (elementwise.h).
#ifndef ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_ARGS_H_

#include <cstdint>

#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

inline constexpr int kMaxElementInputs = 3;

struct ElementOperand {
  uint64_t addr;  // element 0 (patched)
  int32_t dtype;
  int32_t is_scalar;  // 1: every element is `fvalue` / `ivalue`, no memory
  int64_t strides[kArgDims];  // elements; 0 where broadcast
  double fvalue;
  int64_t ivalue;
};

struct ElementwiseArgs {
  uint32_t op;      // ElementOp
  uint32_t inputs;  // how many of `in` are used
  int32_t compute;  // aclDataType the kernel computes in
  int32_t ndim;     // >= 1
  int64_t numel;
  int64_t shape[kArgDims];
  double s0;
  int64_t i0;
  ElementOperand out;
  ElementOperand in[kMaxElementInputs];
};

// The kernel (elementwise_kernel.cc): called once per block.
void ElementwiseKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_ELEMENTWISE_ARGS_H_
