// The planner shared by the binary arithmetic operators (Add, Sub, Mul,
// Div, Maximum, Minimum and their scalar and in-place forms): the checks
// their pages list, in the order they list them, then one element-wise
// launch (DESIGN.md §5.26).
#ifndef ASCENDCL_ACLNN_OPAPI_BINARY_OPS_H_
#define ASCENDCL_ACLNN_OPAPI_BINARY_OPS_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/elementwise.h"

namespace ascend::nn {

struct BinarySpec {
  const char* api;
  ElementOp op;
  DtypeList types;  // what self and other may be (the page's list)
  bool has_alpha = false;
  bool true_division = false;  // integers divide as floats (Div)
};

// One call of a binary operator's first phase. Exactly one of other /
// other_scalar is set; inplace: self is also the output (out is null).
aclnnStatus PlanBinary(const BinarySpec& spec, const aclTensor* self,
                       const aclTensor* other, const aclScalar* other_scalar,
                       const aclScalar* alpha, const aclTensor* out,
                       bool inplace, uint64_t* workspace_size,
                       aclOpExecutor** executor);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_BINARY_OPS_H_
