// The planner shared by the one-input operators (Neg, Abs, Exp, Log, Sqrt,
// Rsqrt, Tanh, Relu, Sigmoid, Silu, Gelu and their Inplace forms): the
// checks their pages list, in the order CANN makes them, then one
// element-wise launch (DESIGN.md §5.26).
//
//   UnarySpec s{__func__, ElementOp::kExp, kExpSelf, kFloats, kFloats,
//               OutRule::kCastable, ResultRule::kFloatForIntegers};
//   return PlanUnary(s, self, out, /*inplace=*/false, workspaceSize, executor);
#ifndef ASCENDCL_ACLNN_OPAPI_UNARY_OPS_H_
#define ASCENDCL_ACLNN_OPAPI_UNARY_OPS_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "aclnn/opapi/checks.h"
#include "aclnn/opapi/elementwise.h"

namespace ascend::nn {

// What out's type must be.
enum class OutRule {
  kSameType,  // self's type (Abs, Relu, Silu, Gelu)
  kCastable,  // one the result type converts to (conversion_relationship)
};

// The type the result has when self is an integer or BOOL (a floating self
// always computes in its own type).
enum class ResultRule {
  kSelf,              // self's type (Neg, Abs, Relu)
  kFloatForIntegers,  // FLOAT (Exp, Log, Sqrt, Tanh)
  kOutForIntegers,    // out's type (Rsqrt: the input converts to it first)
};

struct UnarySpec {
  const char* api;
  ElementOp op;
  DtypeList self_types;     // self's list on the page
  DtypeList out_types;      // out's list
  DtypeList inplace_types;  // selfRef's list (the Inplace form)
  OutRule out_rule;
  ResultRule result;
  bool int64_in_double = false;  // an INT64 self computes in DOUBLE (Sqrt)
};

// One call of a unary operator's first phase; inplace: self is also the
// output (out is null) and only the Inplace list applies.
aclnnStatus PlanUnary(const UnarySpec& spec, const aclTensor* self,
                      const aclTensor* out, bool inplace,
                      uint64_t* workspace_size, aclOpExecutor** executor);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_UNARY_OPS_H_
