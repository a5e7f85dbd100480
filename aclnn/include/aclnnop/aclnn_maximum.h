/*
 * out = max(self, other), element by element, with broadcasting and
 * type promotion; NaN where either is NaN.
 * Returns 161001 for a null argument, 161002 for types outside the
 * page's list or without a common type, shapes that do not broadcast or
 * an output of another shape or a type the result cannot convert to.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_MAXIMUM_H_
#define ASCENDCL_ACLNNOP_ACLNN_MAXIMUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor *self,
                                                   const aclTensor *other,
                                                   aclTensor *out,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaximum(void *workspace, uint64_t workspaceSize,
                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_MAXIMUM_H_ */
