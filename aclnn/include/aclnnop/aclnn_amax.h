/*
 * out = the largest element of self over the axes in dim (every axis when
 * dim is empty), the reduced axes kept with size 1 when keepDim is true;
 * NaN when any element of a slice is NaN. out has self's type.
 * Returns 161001 for a null self, dim, out, workspaceSize or executor;
 * 161002 for a type outside the page's list, an out of another type or
 * shape, an axis outside [-rank, rank - 1], repeated or of size 0, more
 * than 8 dimensions, or a format other than ND.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_AMAX_H_
#define ASCENDCL_ACLNNOP_ACLNN_AMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self,
                                                const aclIntArray *dim,
                                                bool keepDim, aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_AMAX_H_ */
