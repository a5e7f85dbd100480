/*
 * out = self * other, element by element, with broadcasting and type
 * promotion; the Muls forms take a scalar other, the Inplace forms write
 * selfRef.
 * Returns 161001 for a null argument, 161002 for types outside the
 * page's list or without a common type, shapes that do not broadcast or
 * an output of another shape or a type the result cannot convert to.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_MUL_H_
#define ASCENDCL_ACLNNOP_ACLNN_MUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor *self,
                                                const aclScalar *other,
                                                aclTensor *out,
                                                uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMuls(void *workspace, uint64_t workspaceSize,
                                aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self,
                                               const aclTensor *other,
                                               aclTensor *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize,
                               aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceMulsGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMuls(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor,
                                       aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef,
                                                      const aclTensor *other,
                                                      uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMul(void *workspace, uint64_t workspaceSize,
                                      aclOpExecutor *executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_MUL_H_ */
