// The argument bytes of the reduction kernels (reduce.h) and the partial
// results they leave in the workspace when a reduction is split.
#ifndef ASCENDCL_ACLNN_OPAPI_REDUCE_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_REDUCE_ARGS_H_

#include <cstdint>

#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

// The most outputs one tile of an `outer` reduction holds.
inline constexpr int64_t kReduceTile = 256;

enum class ReduceOp : int32_t {
  kSum,     // sum (a BOOL output makes it "any element non-zero")
  kMean,    // sum / count
  kMax,     // largest, NaN if any is NaN
  kArgMax,  // index of the first largest (a NaN counts as largest)
};

// One output's state over a part of its elements: `f` holds a FLOAT or
// DOUBLE value, `i` an INT64 one, `index` ArgMax's index.
struct ReducePartial {
  double f;
  int64_t i;
  int64_t index;
};

// out[k] = op over r of in[k, r]: the kept axes k (nk of them, with the
// input's and the output's strides) and the reduced axes r (nr of them,
// the input's strides), both at least one axis long (a lone size-1 axis
// when there is none). Strides are in elements.
//
// The work is cut into tiles x parts units. A tile is `width` consecutive
// outputs along the last kept axis (width 1 unless `outer`, where the last
// kept axis is the input's fastest and each reduced position loads a row
// of the tile); a part is a slice of the reduced positions. With one part
// the kernel stores the outputs; with more it writes ReducePartials to
// the workspace, [output][part], and the combine kernel finishes them.
struct ReduceArgs {
  uint64_t in_addr;
  uint64_t out_addr;
  uint64_t ws_addr;
  int32_t op;          // ReduceOp
  int32_t compute;     // ACL_FLOAT, ACL_DOUBLE or ACL_INT64
  int32_t in_dtype;    // the input's type
  int32_t cast_dtype;  // converted to this type before reducing
  int32_t out_dtype;
  int32_t outer;
  int32_t nk;
  int32_t nr;
  int64_t kshape[kArgDims];
  int64_t kin[kArgDims];
  int64_t kout[kArgDims];
  int64_t rshape[kArgDims];
  int64_t rin[kArgDims];
  int64_t outputs;  // the product of kshape
  int64_t count;    // the product of rshape
  int64_t width;
  int64_t tiles;
  int64_t parts;
};

// The kernels (reduce_kernel.cc): called once per block.
void ReduceKernel(const aclsimKernelContext* ctx, void* args);
void ReduceCombineKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_REDUCE_ARGS_H_
