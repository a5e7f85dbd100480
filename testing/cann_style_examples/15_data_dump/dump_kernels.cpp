// Two AscendC kernels: one scales a vector, the other traps (an AI Core
// trap exception, 507016, on the device).
#include "dump_kernels.h"

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_kernel(__gm__ float* x,
                                                   __gm__ float* y,
                                                   uint32_t n) {
  const uint32_t blocks = static_cast<uint32_t>(block_num);
  const uint32_t per = (n + blocks - 1) / blocks;
  const uint32_t begin = static_cast<uint32_t>(block_idx) * per;
  for (uint32_t i = begin; i < begin + per && i < n; ++i) y[i] = 2 * x[i];
}

extern "C" __global__ __aicore__ void trap_kernel(__gm__ uint32_t* mark) {
  mark[0] = 1;
  asm("trap");
}

int32_t ScaleDo(uint32_t blockDim, void* stream, float* x, float* y,
                uint32_t n) {
  return scale_kernel<<<blockDim, nullptr, stream>>>(x, y, n);
}

int32_t TrapDo(void* stream, uint32_t* mark) {
  return trap_kernel<<<1, nullptr, stream>>>(mark);
}
