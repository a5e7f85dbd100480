/*
 * out = self - alpha * other, element by element, with broadcasting and
 * type promotion; the Subs forms take a scalar other, the Inplace forms
 * write selfRef.
 * Returns 161001 for a null argument, 161002 for types outside the
 * page's list or without a common type, shapes that do not broadcast or
 * an output of another shape or a type the result cannot convert to.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_SUB_H_
#define ASCENDCL_ACLNNOP_ACLNN_SUB_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSubGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSub(void *workspace, uint64_t workspaceSize,
                               aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnSubsGetWorkspaceSize(
    const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSubs(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor *selfRef,
                                                      const aclTensor *other,
                                                      const aclScalar *alpha,
                                                      uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSub(void *workspace, uint64_t workspaceSize,
                                      aclOpExecutor *executor,
                                      aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceSubsGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSubs(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_SUB_H_ */
