/*
 * out = |self|, element by element; out has self's type and shape.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, an out of another type or shape than self, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_ABS_H_
#define ASCENDCL_ACLNNOP_ACLNN_ABS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most dimensions an operand of these operators may have. */
#define ACLNN_MAX_SHAPE_RANK 8

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor *self,
                                               aclTensor *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAbs(void *workspace, uint64_t workspaceSize,
                               aclOpExecutor *executor,
                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_ABS_H_ */
