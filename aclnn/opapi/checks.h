// The argument checks operators share (DESIGN.md §5.26), each answering
// CANN's code and logging one line that names the operator, the parameter
// and the rule: null pointers (161001), types outside an operator's list,
// shapes that do not broadcast, outputs of the wrong shape or a type the
// result cannot convert to (161002).
//
//   ACLNN_CHECK(CheckNotNull(api, {{"self", self}, {"out", out}}));
//   ACLNN_CHECK(CheckDtype(api, "self", self, kAddTypes));
#ifndef ASCENDCL_ACLNN_OPAPI_CHECKS_H_
#define ASCENDCL_ACLNN_OPAPI_CHECKS_H_

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/nnopbase/entry.h"
#include "aclnn/nnopbase/objects.h"

namespace ascend::nn {

// Returns the code from the enclosing function when `expr` is not 0.
#define ACLNN_CHECK(expr)                         \
  do {                                            \
    const aclnnStatus aclnn_status_ = (expr);     \
    if (aclnn_status_ != 0) return aclnn_status_; \
  } while (0)

using DtypeList = std::initializer_list<aclDataType>;

// 161001 when any named pointer is null; 161002 when a non-null one is not
// a live object of its kind is left to the typed checks.
aclnnStatus CheckNotNull(
    const char* api,
    std::initializer_list<std::pair<const char*, const void*>> args);
// A live tensor whose memory is set when it has elements (161002 else).
aclnnStatus CheckTensor(const char* api, const char* name, const aclTensor* t);
aclnnStatus CheckScalar(const char* api, const char* name, const aclScalar* s);
aclnnStatus CheckDtype(const char* api, const char* name, aclDataType t,
                       DtypeList allowed);
aclnnStatus CheckMaxDims(const char* api, const char* name, const aclTensor* t,
                         int64_t max_dims);
// The broadcast of shapes a and b (aligned right; sizes equal or one of
// them 1), or 161002.
aclnnStatus BroadcastShapes(const char* api, const char* a_name,
                            const std::vector<int64_t>& a, const char* b_name,
                            const std::vector<int64_t>& b,
                            std::vector<int64_t>* out);
aclnnStatus CheckShape(const char* api, const char* name, const aclTensor* t,
                       const std::vector<int64_t>& expected);
// The result type `from` converts to t's type (161002 else).
aclnnStatus CheckCastable(const char* api, const char* name, aclDataType from,
                          const aclTensor* t);
// 161002 unless `t`'s format is ND (or another plain layout: NCHW, NHWC,
// NCDHW, NDHWC, NCL, NC), which the simulator's kernels read as ND.
aclnnStatus CheckPlainFormat(const char* api, const char* name,
                             const aclTensor* t);

// The first phase's common ending: *executor = e, *workspace = its size.
// 161001 when workspaceSize or executor is null.
aclnnStatus CheckOutputs(const char* api, uint64_t* workspace_size,
                         aclOpExecutor** executor);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_CHECKS_H_
