/*
 * out = the sum of self over the axes in dims (every axis when dims is
 * empty), the summed axes kept with size 1 when keepDims is true. self is
 * first converted to dtype, which out must have; 16-bit floats and FLOAT
 * accumulate in FLOAT, DOUBLE in DOUBLE, integers in INT64, and the sum is
 * rounded once when stored; a BOOL dtype answers whether any element is
 * non-zero. An empty self sums to 0.
 * Returns 161001 for a null self, dims, out, workspaceSize or executor;
 * 161002 for a type outside the page's list (complex types included: the
 * simulator has no complex arithmetic), dtype unlike out's type, an axis
 * outside [-rank, rank - 1] or repeated, more than 8 dimensions, a format
 * other than ND, or an out of another shape.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_REDUCE_SUM_H_
#define ASCENDCL_ACLNNOP_ACLNN_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dims, bool keepDims,
    aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReduceSum(void *workspace, uint64_t workspaceSize,
                                     aclOpExecutor *executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_REDUCE_SUM_H_ */
