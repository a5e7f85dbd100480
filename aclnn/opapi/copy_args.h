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

// Tiles of a transposing copy: kCopyTile x kCopyTile elements.
inline constexpr int64_t kCopyTile = 32;

struct CopyArgs {
  int32_t element_size;  // 1, 2, 4, 8 or 16 bytes
  int32_t ndim;          // >= 1
  // 1: a transposing copy (ndim >= 2): the source's unit stride is on
  // dimension ndim - 2, the destination's on ndim - 1; blocks take tiles of
  // those two dimensions, so both sides are read and written a cache line
  // at a time.
  int32_t tiled;
  int32_t reserved;
  int64_t numel;
  int64_t shape[kArgDims];
  uint64_t src;  // element 0 of each view (patched)
  uint64_t dst;
  int64_t src_strides[kArgDims];  // elements
  int64_t dst_strides[kArgDims];
};

// The kernel: called once per block; each block copies a contiguous run of
// the destination's elements (in row-major order of the shape), or of the
// tiles when tiled.
void CopyKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_COPY_ARGS_H_
