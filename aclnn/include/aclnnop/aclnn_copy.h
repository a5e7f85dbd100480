/*
 * selfRef = src, element by element, src broadcast to selfRef's shape
 * and converted to its type (as aclnnCast converts); any strides.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, a src that does not broadcast to selfRef, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_COPY_H_
#define ASCENDCL_ACLNNOP_ACLNN_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *src, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_COPY_H_ */
