/*
 * The kernel binary of kernel_snapshot_sample (aclsim/aclsim_kernel.h).
 *
 * Two device globals: `launches` (initially 100) and `ticks` (initially 0).
 *
 * accumulate(buf, n): buf[i] += i + 1 for i < n (one slice per block) and
 *   block 0 adds 1 to `launches`: after k launches buf[i] == k * (i + 1)
 *   and launches == 100 + k.
 * tick(): adds 1 to `ticks` (launch it with one block).
 */
#include <stddef.h>
#include <stdint.h>

#include "aclsim/aclsim_kernel.h"

static int64_t launches_initial = 100;
static int64_t ticks_initial = 0;
static void *launches_slot;
static void *ticks_slot;
__attribute__((visibility("default")))
const aclsimDeviceGlobal aclsim_device_globals[] = {
    {"launches", &launches_slot, &launches_initial, sizeof launches_initial},
    {"ticks", &ticks_slot, &ticks_initial, sizeof ticks_initial},
    {NULL, NULL, NULL, 0},
};

typedef struct {
  int64_t *buf;
  uint32_t n;
} AccumulateArgs;

ACLSIM_KERNEL void accumulate(const aclsimKernelContext *ctx, void *args) {
  const AccumulateArgs *a = (const AccumulateArgs *)args;
  const uint32_t per = (a->n + ctx->blockNum - 1) / ctx->blockNum;
  const uint64_t begin = (uint64_t)ctx->blockIdx * per;
  uint64_t end = begin + per;
  if (end > a->n) end = a->n;
  for (uint64_t i = begin; i < end; ++i) a->buf[i] += (int64_t)(i + 1);
  if (ctx->blockIdx == 0) *(int64_t *)launches_slot += 1;
}

ACLSIM_KERNEL void tick(const aclsimKernelContext *ctx, void *args) {
  (void)args;
  if (ctx->blockIdx == 0) *(int64_t *)ticks_slot += 1;
}
