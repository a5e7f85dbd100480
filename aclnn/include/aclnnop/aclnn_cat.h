/*
 * out = the tensors of the list joined along dim (negative: counted from
 * the end); every other dimension must agree. The inputs' types promote
 * to a common type that must convert to out's.
 * Returns 161001 for a null list, list entry or out, 161002 for types or
 * formats outside the page's lists, types without a common type, a dim
 * out of range or shapes that do not join into out's.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_CAT_H_
#define ASCENDCL_ACLNNOP_ACLNN_CAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors,
                                               int64_t dim, aclTensor *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCat(void *workspace, uint64_t workspaceSize,
                               aclOpExecutor *executor,
                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_CAT_H_ */
