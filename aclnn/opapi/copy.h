// Planning strided copies (copy_args.h) for the layout operators (DESIGN.md
// §5.26): the bytes of every element of one view go unchanged to the same
// element of another view of the same shape and type.
//
//   // out = self transposed: self's view with its strides swapped.
//   aclTensor view = *self; std::swap(view.strides[0], view.strides[1]); ...
//   PlanCopy(*exec, {&view, Base::kInput, in}, {out, Base::kOutput, o});
#ifndef ASCENDCL_ACLNN_OPAPI_COPY_H_
#define ASCENDCL_ACLNN_OPAPI_COPY_H_

#include <cstdint>

#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"

namespace ascend::nn {

// A view of a tensor (its dtype, view shape, strides and offset; only read
// while planning) and where its storage address comes from.
struct CopyEnd {
  const aclTensor* view;
  Base base;
  uint32_t index;
};

// Adds one launch copying src's elements to dst's (same shape, same element
// size); none when there are no elements.
void PlanCopy(aclOpExecutor& e, const CopyEnd& src, const CopyEnd& dst);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_COPY_H_
