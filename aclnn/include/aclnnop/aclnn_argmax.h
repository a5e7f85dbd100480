/*
 * out = the index along axis dim of the largest element of each slice of
 * self (the first one when several are equal; a NaN counts as the
 * largest), axis dim kept with size 1 when keepdim is true. out is INT32
 * or INT64.
 * Returns 161001 for a null self, out, workspaceSize or executor; 161002
 * for a type outside the page's list, dim outside [-rank, rank - 1], an
 * axis dim of size 0 with a non-empty out, more than 8 dimensions, a
 * format other than ND, or an out of another shape.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_ARGMAX_H_
#define ASCENDCL_ACLNNOP_ACLNN_ARGMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self,
                                                  int64_t dim, bool keepdim,
                                                  aclTensor *out,
                                                  uint64_t *workspaceSize,
                                                  aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArgMax(void *workspace, uint64_t workspaceSize,
                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_ARGMAX_H_ */
