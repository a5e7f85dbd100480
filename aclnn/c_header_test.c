/* The aclnn headers compile as plain C99 with warnings as errors. */
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"

int main(void) {
  aclnnStatus status = ACLNN_SUCCESS;
  aclTensor *tensor = NULL;
  aclOpExecutor *executor = NULL;
  (void)tensor;
  (void)executor;
  return status;
}
