/*
 * out = sqrt(self), element by element, NaN for negative elements
 * (integer and BOOL inputs compute as FLOAT); the Inplace form writes self.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, a result type that does not convert to out's type, an out of
 * another shape than self, or more than 8 dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_SQRT_H_
#define ASCENDCL_ACLNNOP_ACLNN_SQRT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor *self,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **opExecutor);
ACLNN_API aclnnStatus aclnnSqrt(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *opExecutor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(
    aclTensor *self, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSqrt(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_SQRT_H_ */
