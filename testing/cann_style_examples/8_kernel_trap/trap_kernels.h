// The host side of trap_kernels.cpp.
#ifndef ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_8_TRAP_KERNELS_H_
#define ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_8_TRAP_KERNELS_H_

#include <cstdint>

// Adds 1 to *counter (one block).
int32_t CountDo(void* stream, uint32_t* counter);
// Each of blockDim blocks sets marks[block] to 1; block trapBlock then
// executes a trap, the others set their mark to 2.
int32_t TrapDo(uint32_t blockDim, void* stream, uint32_t* marks,
               uint32_t trapBlock);

#endif  // ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_8_TRAP_KERNELS_H_
