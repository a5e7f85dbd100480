// The argument bytes of the strided copy kernel (copy_kernel.cc): element
// bytes moved unchanged from one view to another of the same shape, for the
// layout operators (Cat, Permute; DESIGN.md §5.26). Any type copies, complex
// ones included, bit for bit.
#ifndef ASCENDCL_ACLNN_OPAPI_COPY_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_COPY_ARGS_H_

#include <cstdint>

#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

struct CopyArgs {
  int32_t element_size;  // 1, 2, 4, 8 or 16 bytes
  int32_t ndim;          // >= 1
  int64_t numel;
  int64_t shape[kArgDims];
  uint64_t src;  // element 0 of each view (patched)
  uint64_t dst;
  int64_t src_strides[kArgDims];  // elements
  int64_t dst_strides[kArgDims];
};

// The kernel: called once per block; each block copies a contiguous run of
// the destination's elements (in row-major order of the shape).
void CopyKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_COPY_ARGS_H_
