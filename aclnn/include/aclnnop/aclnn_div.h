/*
 * out = self / other, element by element, with broadcasting and type
 * promotion; integers divide as floats (the result type is FLOAT). The
 * Divs forms take a scalar other, the Inplace forms write selfRef.
 * Returns 161001 for a null argument, 161002 for types outside the
 * page's list or without a common type, shapes that do not broadcast or
 * an output of another shape or a type the result cannot convert to.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_DIV_H_
#define ASCENDCL_ACLNNOP_ACLNN_DIV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self,
                                               const aclTensor *other,
                                               aclTensor *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDiv(void *workspace, uint64_t workspaceSize,
                               aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self,
                                                const aclScalar *other,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDivs(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor *selfRef,
                                                      const aclTensor *other,
                                                      uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceDiv(void *workspace, uint64_t workspaceSize,
                                      aclOpExecutor *executor,
                                      aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceDivsGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceDivs(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_DIV_H_ */
