/* The aclnn headers compile as plain C99 with warnings as errors. */
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_util.h"
#include "aclnnop/aclnn_zero.h"

int main(void) {
  aclnnStatus status = ACLNN_SUCCESS;
  aclTensor *tensor = NULL;
  aclOpExecutor *executor = NULL;
  (void)tensor;
  (void)executor;
  return status;
}
