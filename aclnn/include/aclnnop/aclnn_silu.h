/*
 * out = self / (1 + e^-self), element by element; out has self's type
 * and shape.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, an out of another type or shape than self, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_SILU_H_
#define ASCENDCL_ACLNNOP_ACLNN_SILU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor *self,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSilu(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_SILU_H_ */
