/*
 * out = max(self, 0), element by element; out has self's type and
 * shape. The Inplace form writes selfRef.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, an out of another type or shape than self, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_RELU_H_
#define ASCENDCL_ACLNNOP_ACLNN_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self,
                                                const aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor,
                                const aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceReluGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRelu(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_RELU_H_ */
