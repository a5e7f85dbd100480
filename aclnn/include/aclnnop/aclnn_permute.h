/*
 * out = self with its dimensions reordered: dimension i of out is
 * dimension dims[i] of self (negative: counted from the end).
 * Returns 161001 for a null self, dims or out, 161002 for a type outside
 * the page's list, out of another type or shape, more than 8 dimensions,
 * or dims that are not a permutation of self's dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_PERMUTE_H_
#define ASCENDCL_ACLNNOP_ACLNN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self,
                                                   const aclIntArray *dims,
                                                   aclTensor *out,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPermute(void *workspace, uint64_t workspaceSize,
                                   aclOpExecutor *executor,
                                   const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_PERMUTE_H_ */
