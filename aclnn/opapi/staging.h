// Inputs whose memory the output overlaps (DESIGN.md §5.26). The
// element-wise kernel reads a chunk of each input and then writes that
// chunk of the output, block by block in parallel, so it is exact when the
// output and an input are the same view (element i read, then written in
// place) or disjoint. Any other overlap — a shifted view of the same
// storage, another element size over the same bytes — would read elements
// the launch already wrote. Such an input is first copied into the
// workspace (a launch of its own, ordered before the operator's), as CANN's
// operators compute into fresh memory and copy the result out last.
//
//   aclTensor staged;
//   Operand x = ReadableInput(*e, self, Base::kInput, index, *out, &staged);
//   PlanElementwise(*e, op, compute, {x}, out_operand);
#ifndef ASCENDCL_ACLNN_OPAPI_STAGING_H_
#define ASCENDCL_ACLNN_OPAPI_STAGING_H_

#include <cstdint>

#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"
#include "aclnn/opapi/elementwise.h"

namespace ascend::nn {

// Whether the bytes out's view covers overlap in's other than element for
// element (same address, element size and strides over out's shape; `in`
// broadcasts to out's shape). Decided from the addresses the tensors hold
// now.
bool OverlapsOtherwise(const aclTensor& in, const aclTensor& out);

// The operand an element-wise launch into `out` reads `in` through: `in`
// itself (input or output `index` of the executor, per `base`), or, when
// OverlapsOtherwise(in, out), a contiguous copy of it that this call plans
// into the workspace (growing e.workspace_size) and describes in *staging,
// which must outlive the operand's use.
Operand ReadableInput(aclOpExecutor& e, const aclTensor* in, Base base,
                      uint32_t index, const aclTensor& out, aclTensor* staging);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_STAGING_H_
