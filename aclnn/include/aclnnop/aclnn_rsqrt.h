/*
 * out = 1 / sqrt(self), element by element (integer and BOOL inputs
 * compute in out's type); the Inplace form writes selfRef.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, a result type that does not convert to out's type, an out of
 * another shape than self, or more than 8 dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_RSQRT_H_
#define ASCENDCL_ACLNNOP_ACLNN_RSQRT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor *self,
                                                 aclTensor *out,
                                                 uint64_t *workspaceSize,
                                                 aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRsqrt(void *workspace, uint64_t workspaceSize,
                                 aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRsqrt(void *workspace, uint64_t workspaceSize,
                                        aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_RSQRT_H_ */
