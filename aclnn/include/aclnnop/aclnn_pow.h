/*
 * Powers, element by element. PowTensorScalar: out = self ^ exponent for
 * a scalar exponent (the Inplace form writes self); PowScalarTensor:
 * out = self ^ exponent for a scalar base and a tensor of exponents.
 * The two types promote as the page says and the result converts to out.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, two BOOL operands, types without a common type or a result that
 * does not convert to out, an out of another shape, more than 8
 * dimensions, or an exponent the promoted type cannot hold (a negative
 * one for integer types).
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_POW_H_
#define ASCENDCL_ACLNNOP_ACLNN_POW_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *exponent, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorScalar(void *workspace,
                                           uint64_t workspaceSize,
                                           aclOpExecutor *executor,
                                           const aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *exponent, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplacePowTensorScalar(void *workspace,
                                                  uint64_t workspaceSize,
                                                  aclOpExecutor *executor,
                                                  aclrtStream stream);

ACLNN_API aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(
    const aclScalar *self, const aclTensor *exponent, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowScalarTensor(void *workspace,
                                           uint64_t workspaceSize,
                                           aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_POW_H_ */
