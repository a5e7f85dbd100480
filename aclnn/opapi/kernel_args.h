// The argument layouts shared by the operators' planners (host) and their
// kernels (the simulated device). Everything a kernel reads is in its
// argument bytes; device addresses are patched in by the executor at every
// run (aclnn/nnopbase/executor.h).
#ifndef ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_

#include <cstddef>
#include <cstdint>

#include "aclsim/aclsim_kernel_abi.h"

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

// Where a kernel writes the elements [first, last) (in row-major order) of
// a view whose element 0 is at `addr`: the address of element 0 in the
// device's write target for the bytes those elements reach (kernel ABI
// version 2), so that the writes take no write-tracking fault and are
// recorded as written (DESIGN.md §4.14); `addr` itself without one. A
// contiguous view asks for exactly those elements, any other view for every
// byte it reaches.
inline uint64_t WriteAddress(const aclsimKernelContext* ctx, uint64_t addr,
                             const int64_t* shape, const int64_t* strides,
                             int ndim, size_t element_size, int64_t first,
                             int64_t last) {
  if (ctx == nullptr || ctx->abiVersion < 2 || ctx->writeTarget == nullptr ||
      first >= last || addr == 0) {
    return addr;
  }
  bool contiguous = true;
  int64_t expect = 1;
  int64_t low = 0;   // in elements from element 0
  int64_t high = 0;  // the last element reached
  for (int d = ndim - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != expect) contiguous = false;
    expect *= shape[d];
    if (shape[d] <= 0) return addr;
    const int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? low : high) += reach;
  }
  if (contiguous) {
    low = first;
    high = last - 1;
  }
  const uint64_t esize = static_cast<uint64_t>(element_size);
  const uint64_t begin = addr + static_cast<uint64_t>(low) * esize;
  const uint64_t bytes = static_cast<uint64_t>(high - low + 1) * esize;
  void* const target =
      ctx->writeTarget(ctx, reinterpret_cast<void*>(begin), bytes);
  return reinterpret_cast<uint64_t>(target) - begin + addr;
}

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_KERNEL_ARGS_H_
