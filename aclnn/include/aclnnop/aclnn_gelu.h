/*
 * out = 0.5 self (1 + tanh(sqrt(2 / pi) (self + 0.044715 self^3))), the
 * tanh form of GELU, element by element; out has self's type and shape.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, an out of another type or shape than self, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_GELU_H_
#define ASCENDCL_ACLNNOP_ACLNN_GELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGelu(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor,
                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_GELU_H_ */
