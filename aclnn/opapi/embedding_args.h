// The argument bytes of the embedding kernel (embedding_ops.cc).
#ifndef ASCENDCL_ACLNN_OPAPI_EMBEDDING_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_EMBEDDING_ARGS_H_

#include <cstdint>

#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

// out[i, :] = weight[indices[i], :] for each of `count` index positions i
// (ni axes, the indices' and out's strides over them); weight is rows x
// cols with strides wstride, out's last axis has stride ocol. Strides in
// elements; every element `esize` bytes.
struct EmbeddingArgs {
  uint64_t weight_addr;
  uint64_t indices_addr;
  uint64_t out_addr;
  int32_t esize;
  int32_t index_size;  // 4 (INT32 indices) or 8 (INT64)
  int32_t ni;
  int32_t pad;
  int64_t rows;
  int64_t cols;
  int64_t wstride[2];
  int64_t ocol;
  int64_t count;
  int64_t ishape[kArgDims];
  int64_t istride[kArgDims];
  int64_t ostride[kArgDims];
};

// The kernel (embedding_kernel.cc): called once per block. An index
// outside [0, rows) raises the block's device exception.
void EmbeddingKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_EMBEDDING_ARGS_H_
