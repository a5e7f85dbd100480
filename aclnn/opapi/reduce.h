// Reductions on the simulated device (DESIGN.md §5.26): out = op over a
// set of axes of a view with any strides and offset, for ReduceSum, Mean,
// Amax and ArgMax, plus the checks their pages share (the axis list, the
// reduced shape).
//
// The planner drops size-1 axes, merges axes that walk memory as one, and
// picks one of two loop orders: when a kept axis is the input's fastest,
// a block reduces a tile of up to 256 neighbouring outputs together, each
// reduced position loading one row of the tile; otherwise each output
// reduces rows along its fastest reduced axis. Blocks take disjoint
// outputs. When there are too few outputs to occupy the cores and many
// elements each, the reduced positions are also split into parts: blocks
// leave partial results in the executor's workspace and a second launch
// combines them in part order, so results do not depend on timing.
//
//   std::vector<bool> mask;
//   ACLNN_CHECK(ReduceAxes(api, "dims", self, dims, true, &mask));
//   ACLNN_CHECK(CheckShape(api, "out", out,
//                          ReducedShape(self->view_shape, mask, keep)));
//   PlanReduce(*e, ReduceOp::kSum, *self, in, dtype, mask, keep, *out, o);
#ifndef ASCENDCL_ACLNN_OPAPI_REDUCE_H_
#define ASCENDCL_ACLNN_OPAPI_REDUCE_H_

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"
#include "aclnn/opapi/reduce_args.h"

namespace ascend::nn {

// 161001 for a null array, 161002 for a pointer that is not a live
// aclIntArray.
aclnnStatus CheckIntArray(const char* api, const char* name,
                          const aclIntArray* a);

// The axes `dims` names as a mask over self's axes: each entry in
// [-rank, rank - 1] (a 0-d self counts as rank 1), none twice (after
// wrapping negative ones). An empty list selects every axis when
// all_if_empty. 161002 otherwise.
aclnnStatus ReduceAxes(const char* api, const char* name, const aclTensor* self,
                       const std::vector<int64_t>& dims, bool all_if_empty,
                       std::vector<bool>* mask);

// The shape after reducing the masked axes: dropped, or 1 when keep.
std::vector<int64_t> ReducedShape(const std::vector<int64_t>& shape,
                                  const std::vector<bool>& mask, bool keep);

// The type a reduction of values of type t accumulates in: FLOAT for
// 16-bit floats and FLOAT, DOUBLE for DOUBLE, INT64 for integers and bool.
aclDataType ReduceComputeType(aclDataType t);

// Plans out = op over the masked axes of `in` (input `in_index` of e),
// each element converted to `cast` first; out (output `out_index`) has the
// reduced shape (the caller checked it). Nothing is launched for an empty
// out; an empty reduction gives 0 (kSum) or NaN (kMean), and must not be
// asked of kMax or kArgMax. kArgMax reduces one axis.
void PlanReduce(aclOpExecutor& e, ReduceOp op, const aclTensor& in,
                uint32_t in_index, aclDataType cast,
                const std::vector<bool>& mask, bool keep, const aclTensor& out,
                uint32_t out_index);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_REDUCE_H_
