/*
 * out = (input - mean) * rstd * weight + bias over input's trailing axes
 * normalizedShape names, with mean = E[input] and rstd =
 * 1 / sqrt(Var[input] + eps) (the biased variance) per slice, written to
 * meanOutOptional and rstdOutOptional when given (shape: input's with the
 * normalized axes 1). A null weight counts as ones, a null bias as zeros.
 * Mean and variance are computed in FLOAT (two passes) whatever the types;
 * results are converted to each output's type. A slice of no elements has
 * mean 0 and rstd NaN.
 *
 * aclnnLayerNormWithImplMode takes implMode 0 (high precision), 1 (high
 * performance) or 2 (FLOAT16 throughout, every input FLOAT16); the
 * simulator computes every mode in FLOAT. aclnnFastLayerNorm is the same
 * computation; its normalized slices hold at most 583705600 elements.
 * Returns 161001 for a null input, normalizedShape, out, workspaceSize or
 * executor; 161002 for types outside the page's lists, a weight or bias of
 * another type than input's (unless FLOAT) or than each other's, an empty
 * normalizedShape or one longer than 8 or than input's rank, sizes that
 * differ from input's trailing sizes, weight's or bias', an out of
 * another shape, mean or rstd outputs of another shape, more than 8
 * dimensions, a format other than ND, or an implMode outside 0..2 (or 2
 * with an input that is not FLOAT16); aclnnFastLayerNorm answers 561103
 * for slices over 583705600 elements.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_LAYER_NORM_H_
#define ASCENDCL_ACLNNOP_ACLNN_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
    aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
    aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    int32_t implMode, uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnFastLayerNormGetWorkspaceSize(
    const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
    aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize,
                                     aclOpExecutor *executor,
                                     aclrtStream stream);
ACLNN_API aclnnStatus aclnnLayerNormWithImplMode(void *workspace,
                                                 uint64_t workspaceSize,
                                                 aclOpExecutor *executor,
                                                 aclrtStream stream);
ACLNN_API aclnnStatus aclnnFastLayerNorm(void *workspace,
                                         uint64_t workspaceSize,
                                         aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_LAYER_NORM_H_ */
