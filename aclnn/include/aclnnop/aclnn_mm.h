/*
 * out = self @ mat2 for two 2-D tensors.
 * cubeMathType picks how FLOAT inputs enter the multiply: 0 KEEP_DTYPE
 * (as they are), 1 ALLOW_FP32_DOWN_PRECISION and 3 USE_HF32 (rounded to
 * HFLOAT32, 10 mantissa bits), 2 USE_FP16 (rounded to FLOAT16), 4
 * USE_FP32_ADD (as they are, summed in groups). Products accumulate in
 * FLOAT and round once to out's type.
 * Returns 161001 for a null self, mat2 or out, 161002 for types or
 * formats outside the page's lists, types without a common type, a
 * cubeMathType outside 0..4, or shapes that do not multiply.
 */
#ifndef ASCENDCL_ACLNNOP_ACLNN_MM_H_
#define ASCENDCL_ACLNNOP_ACLNN_MM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMmGetWorkspaceSize(
    const aclTensor *self, const aclTensor *mat2, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMm(void *workspace, uint64_t workspaceSize,
                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLNNOP_ACLNN_MM_H_ */
