/*
 * The kernel binary of kernel_vector_add_sample (aclsim/aclsim_kernel.h): a
 * host shared object the sample loads with aclrtBinaryLoadFromFile.
 *
 * vector_add(x, y, z, n): z[i] = x[i] + y[i] for i < n, the elements split
 * into contiguous slices, one per block (the last slices may be short or
 * empty). Its parameters are described, so that aclrtKernelArgsFinalize
 * checks the argument list against them.
 */
#include <stddef.h>
#include <stdint.h>

#include "aclsim/aclsim_kernel.h"

typedef struct {
  const float *x;
  const float *y;
  float *z;
  uint32_t n;
} VectorAddArgs;

ACLSIM_KERNEL void vector_add(const aclsimKernelContext *ctx, void *args) {
  const VectorAddArgs *a = (const VectorAddArgs *)args;
  const uint32_t per = (a->n + ctx->blockNum - 1) / ctx->blockNum;
  const uint64_t begin = (uint64_t)ctx->blockIdx * per;
  uint64_t end = begin + per;
  if (end > a->n) end = a->n;
  for (uint64_t i = begin; i < end; ++i) a->z[i] = a->x[i] + a->y[i];
}

static const aclsimKernelParam vector_add_params[] = {
    {offsetof(VectorAddArgs, x), sizeof(const float *)},
    {offsetof(VectorAddArgs, y), sizeof(const float *)},
    {offsetof(VectorAddArgs, z), sizeof(float *)},
    {offsetof(VectorAddArgs, n), sizeof(uint32_t)},
};
__attribute__((visibility("default")))
const aclsimKernelInfo vector_add__aclsim_info = {ACLSIM_KERNEL_ABI_VERSION, 4,
                                                  vector_add_params};
