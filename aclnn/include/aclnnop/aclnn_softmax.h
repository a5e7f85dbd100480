/*
 * out = exp(self - m) / sum(exp(self - m)) along axis dim, m the slice's
 * largest element (so no exponential overflows). 16-bit floats compute in
 * FLOAT, and the result is converted to out's type. An empty self is
 * accepted and computes nothing.
 * Returns 161001 for a null self, out, workspaceSize or executor; 161002
 * for a type outside the page's list, dim outside [-rank, rank - 1], more
 * than 8 dimensions, a format other than ND, or an out of another shape.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_SOFTMAX_H_
#define ASCENDCL_ACLNNOP_ACLNN_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self,
                                                   int64_t dim, aclTensor *out,
                                                   uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize,
                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_SOFTMAX_H_ */
