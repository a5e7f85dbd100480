/*
 * yOut = x * rstd * gamma and rstdOut = 1 / sqrt(mean(x^2) + epsilon),
 * the mean taken over x's trailing axes that gamma's shape names (gamma's
 * shape is x's last gamma.dim() sizes; rstdOut has x's shape with those
 * axes 1). Computes in FLOAT; rstdOut is FLOAT, yOut has x's type.
 * Returns 161001 for a null x, gamma, yOut, rstdOut, workspaceSize or
 * executor; 161002 for types outside the page's table or a format other
 * than ND; 561002 for shapes the page's parameter table does not allow (x
 * with 0 or more than 8 dimensions, an empty gamma, gamma not x's
 * trailing sizes, yOut not x's shape, rstdOut not the reduced shape).
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_RMS_NORM_H_
#define ASCENDCL_ACLNNOP_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(
    const aclTensor *x, const aclTensor *gamma, double epsilon,
    const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize,
                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_RMS_NORM_H_ */
