/*
 * A simulated kernel binary for the runtime's tests, written against the
 * ABI of aclsim/aclsim_kernel.h: built as a host shared object and loaded
 * with aclrtBinaryLoadFromFile / FromData.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "aclsim/aclsim_kernel.h"

/* vadd(x, y, z, n): z[i] = x[i] + y[i], the n elements split over the
 * blocks. Describes its parameters. */
typedef struct {
  const float *x;
  const float *y;
  float *z;
  uint32_t n;
} VaddArgs;

ACLSIM_KERNEL void vadd(const aclsimKernelContext *ctx, void *args) {
  const VaddArgs *a = (const VaddArgs *)args;
  const uint32_t per = (a->n + ctx->blockNum - 1) / ctx->blockNum;
  const uint32_t begin = ctx->blockIdx * per;
  uint32_t end = begin + per;
  if (end > a->n) end = a->n;
  for (uint32_t i = begin; i < end; ++i) a->z[i] = a->x[i] + a->y[i];
}

static const aclsimKernelParam vadd_params[] = {
    {offsetof(VaddArgs, x), sizeof(float *)},
    {offsetof(VaddArgs, y), sizeof(float *)},
    {offsetof(VaddArgs, z), sizeof(float *)},
    {offsetof(VaddArgs, n), sizeof(uint32_t)},
};
__attribute__((visibility("default")))
const aclsimKernelInfo vadd__aclsim_info = {ACLSIM_KERNEL_ABI_VERSION, 4,
                                            vadd_params};

/* block_ids(out): out[block] = block index, blockNum, device id. */
ACLSIM_KERNEL void block_ids(const aclsimKernelContext *ctx, void *args) {
  uint32_t *out = *(uint32_t **)args;
  out[3 * ctx->blockIdx] = ctx->blockIdx;
  out[3 * ctx->blockIdx + 1] = ctx->blockNum;
  out[3 * ctx->blockIdx + 2] = (uint32_t)ctx->deviceId;
}

/* fail(code, block): block `block` raises exception `code`. */
typedef struct {
  uint32_t code;
  uint32_t block;
} FailArgs;
ACLSIM_KERNEL void fail(const aclsimKernelContext *ctx, void *args) {
  const FailArgs *a = (const FailArgs *)args;
  if (ctx->blockIdx == a->block) ctx->raiseException(ctx, a->code);
}

/* trap(): executes a trap instruction in every block. */
ACLSIM_KERNEL void trap(const aclsimKernelContext *ctx, void *args) {
  (void)ctx;
  (void)args;
  __builtin_trap();
}

/* hello(): every block prints a line. */
ACLSIM_KERNEL void hello(const aclsimKernelContext *ctx, void *args) {
  (void)args;
  char line[64];
  int n = snprintf(line, sizeof line, "hello from block %u of %u\n",
                   ctx->blockIdx, ctx->blockNum);
  ctx->print(ctx, line, (size_t)n);
}

/* A device global: a counter every launch of `count` adds its block count
 * to, and `read_counter(out)` copies out. */
static int64_t counter_initial = 1000;
static void *counter_slot;
__attribute__((visibility("default")))
const aclsimDeviceGlobal aclsim_device_globals[] = {
    {"counter", &counter_slot, &counter_initial, sizeof counter_initial},
    {NULL, NULL, NULL, 0},
};
/* The host symbol aclrtGetSymbolAddress takes for the counter. */
__attribute__((visibility("default"))) const void *counter_symbol(void) {
  return &counter_initial;
}

ACLSIM_KERNEL void count(const aclsimKernelContext *ctx, void *args) {
  (void)args;
  if (ctx->blockIdx == 0) *(int64_t *)counter_slot += ctx->blockNum;
}

/* spin(iterations, out): a compute-bound kernel; each block writes its
 * result to out[block]. */
typedef struct {
  uint64_t iterations;
  double *out;
} SpinArgs;
ACLSIM_KERNEL void spin(const aclsimKernelContext *ctx, void *args) {
  const SpinArgs *a = (const SpinArgs *)args;
  double x = ctx->blockIdx + 1.0;
  for (uint64_t i = 0; i < a->iterations; ++i) x = x * 0.999999 + 1e-7;
  a->out[ctx->blockIdx] = x;
}

/* empty(): does nothing (launch overhead). */
ACLSIM_KERNEL void empty(const aclsimKernelContext *ctx, void *args) {
  (void)ctx;
  (void)args;
}

/* A kernel with its own entry name: scale(p, factor) multiplies *p. */
typedef struct {
  int32_t *p;
  int32_t factor;
} ScaleArgs;
ACLSIM_KERNEL void scale__aclsim_entry(const aclsimKernelContext *ctx,
                                       void *args) {
  const ScaleArgs *a = (const ScaleArgs *)args;
  if (ctx->blockIdx == 0) *a->p *= a->factor;
}
