/*
 * selfRef = 0, every element, of any rank.
 * Returns 161001 for a null selfRef, 161002 for a type outside the page's
 * list or a view whose dimensions do not merge into 8.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_ZERO_H_
#define ASCENDCL_ACLNNOP_ACLNN_ZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceZeroGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceZero(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_ZERO_H_ */
