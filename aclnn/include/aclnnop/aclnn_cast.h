/*
 * out = self converted to dtype, element by element: floats convert to
 * integers toward zero (NaN to 0, saturating), anything converts to BOOL
 * as != 0, 16-bit floats round to nearest even.
 * Returns 161001 for a null argument, 161002 for a self type or dtype
 * outside the page's list, an out whose type is not dtype, whose shape
 * is not self's or whose format differs from self's, or more than 8
 * dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_CAST_H_
#define ASCENDCL_ACLNNOP_ACLNN_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self,
                                                const aclDataType dtype,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_CAST_H_ */
