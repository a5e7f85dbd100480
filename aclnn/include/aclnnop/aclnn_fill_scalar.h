/*
 * selfRef = value, every element, value converted to selfRef's type.
 * Returns 161001 for a null argument, 161002 for a type outside the page's
 * list, a value type without a common type with selfRef's, or more than
 * 8 dimensions.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_FILL_SCALAR_H_
#define ASCENDCL_ACLNNOP_ACLNN_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *value, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFillScalar(void *workspace,
                                             uint64_t workspaceSize,
                                             aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_FILL_SCALAR_H_ */
