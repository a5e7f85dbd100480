// The argument layouts shared by the operators' planners (host) and their
// kernels (the simulated device). Everything a kernel reads is in its
// argument bytes; device addresses are patched in by the executor at every
// run (aclnn/nnopbase/executor.h).
#ifndef ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_

#include <cstdint>

namespace ascend::nn {

inline constexpr int kArgDims = 8;

// One tensor as a kernel sees it: the address of its element 0 (patched),
// its type and its view over `ndim` dimensions (strides in elements; 0
// where a dimension is broadcast).
struct TensorArg {
  uint64_t addr;
  int32_t dtype;
  int32_t ndim;
  int64_t shape[kArgDims];
  int64_t strides[kArgDims];
};

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_
