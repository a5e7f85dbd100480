// The host side of dump_kernels.cpp.
#ifndef ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_13_DUMP_KERNELS_H_
#define ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_13_DUMP_KERNELS_H_

#include <cstdint>

// y[i] = 2 * x[i] for n elements, over blockDim blocks.
int32_t ScaleDo(uint32_t blockDim, void* stream, float* x, float* y,
                uint32_t n);
// Executes a trap instruction.
int32_t TrapDo(void* stream, uint32_t* mark);

#endif  // ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_13_DUMP_KERNELS_H_
