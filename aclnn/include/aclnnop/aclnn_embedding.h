/*
 * out[i..., :] = weight[indices[i...], :]: each index picks a row of the
 * two-dimensional weight. out has weight's type and shape
 * indices.shape + [weight.shape[1]]. An index outside
 * [0, weight.shape[0]) raises a device exception in the kernel (the
 * stream's synchronization answers 507015).
 * Returns 161001 for a null weight, indices, out, workspaceSize or
 * executor; 161002 for a type outside the page's list (complex types
 * included: the simulator has no complex arithmetic), indices not INT32
 * or INT64, an out of another type or shape, a weight that is not
 * two-dimensional, more than 8 dimensions, or a format other than ND.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_EMBEDDING_H_
#define ASCENDCL_ACLNNOP_ACLNN_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight,
                                                     const aclTensor *indices,
                                                     const aclTensor *out,
                                                     uint64_t *workspaceSize,
                                                     aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEmbedding(void *workspace, uint64_t workspaceSize,
                                     aclOpExecutor *executor,
                                     const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_EMBEDDING_H_ */
