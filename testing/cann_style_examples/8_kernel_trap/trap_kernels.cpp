// Two AscendC kernels: one counts, the other traps in one of its blocks (a
// trap instruction is an AI Core trap exception, 507016, on the device).
#include "trap_kernels.h"

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void count_kernel(__gm__ uint32_t* counter) {
  counter[0] += 1;
}

extern "C" __global__ __aicore__ void trap_kernel(__gm__ uint32_t* marks,
                                                  uint32_t trapBlock) {
  marks[block_idx] = 1;
  if (static_cast<uint32_t>(block_idx) == trapBlock) {
    asm("trap");
  }
  marks[block_idx] = 2;
}

int32_t CountDo(void* stream, uint32_t* counter) {
  return count_kernel<<<1, nullptr, stream>>>(counter);
}

int32_t TrapDo(uint32_t blockDim, void* stream, uint32_t* marks,
               uint32_t trapBlock) {
  return trap_kernel<<<blockDim, nullptr, stream>>>(marks, trapBlock);
}
