// The host side of vector_add_kernel.cpp.
#ifndef ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_7_VECTOR_ADD_H_
#define ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_7_VECTOR_ADD_H_

#include <cstdint>

// Elements per block, and the block count the kernel is written for.
constexpr uint32_t kVectorAddBlocks = 8;
constexpr uint32_t kVectorAddBlockLength = 2048;

// Launches z = x + y over kVectorAddBlocks blocks of half elements on stream;
// answers the launch's code.
int32_t VectorAddDo(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y,
                    uint8_t* z);

#endif  // ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_7_VECTOR_ADD_H_
