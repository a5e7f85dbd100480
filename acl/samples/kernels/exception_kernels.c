/*
 * The kernel binary of kernel_exception_sample (aclsim/aclsim_kernel.h).
 *
 * check_input(values, n, code): block b checks values[b] (b < n) and raises
 *   device exception `code` (0: ACL_ERROR_RT_AICORE_EXCEPTION) when it is
 *   negative, as a kernel validating its input would.
 * store(p, value): *p = value (block 0): shows whether a task after a
 *   failed one ran.
 */
#include <stddef.h>
#include <stdint.h>

#include "aclsim/aclsim_kernel.h"

typedef struct {
  const int32_t *values;
  uint32_t n;
  uint32_t code;
} CheckInputArgs;

ACLSIM_KERNEL void check_input(const aclsimKernelContext *ctx, void *args) {
  const CheckInputArgs *a = (const CheckInputArgs *)args;
  if (ctx->blockIdx < a->n && a->values[ctx->blockIdx] < 0) {
    ctx->raiseException(ctx, a->code);
  }
}

typedef struct {
  int32_t *p;
  int32_t value;
} StoreArgs;

ACLSIM_KERNEL void store(const aclsimKernelContext *ctx, void *args) {
  const StoreArgs *a = (const StoreArgs *)args;
  if (ctx->blockIdx == 0) *a->p = a->value;
}
