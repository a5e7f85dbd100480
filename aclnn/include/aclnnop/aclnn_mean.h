/*
 * out = the mean of self over the axes in dim, the averaged axes kept with
 * size 1 when keepDim is true.
 *
 * aclnnMean converts self to dtype first (self's type must convert to
 * dtype, dtype to out's type); an empty dim averages every axis.
 * aclnnMeanV2 computes in self's type, which out must have; an empty dim
 * averages every axis, or, with noopWithEmptyAxes, copies self to out.
 * 16-bit floats and FLOAT accumulate in FLOAT, DOUBLE in DOUBLE, integers
 * in INT64 (their mean is rounded toward zero); the mean of no elements is
 * NaN (0 in an integer out).
 * Returns 161001 for a null self, dim, out, workspaceSize or executor;
 * 161002 for a type outside the page's list (complex types included: the
 * simulator has no complex arithmetic) or a conversion the rules refuse,
 * an axis outside [-rank, rank - 1] or repeated, more than 8 dimensions,
 * a format other than ND, or an out of another shape.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_MEAN_H_
#define ASCENDCL_ACLNNOP_ACLNN_MEAN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self,
                                                const aclIntArray *dim,
                                                bool keepDim, aclDataType dtype,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMean(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnMeanV2GetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dim, bool keepDim,
    bool noopWithEmptyAxes, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMeanV2(void *workspace, uint64_t workspaceSize,
                                  aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_MEAN_H_ */
