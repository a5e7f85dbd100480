// The argument bytes of the matrix-multiply kernel (matmul_kernel.cc) and
// the tiling both sides agree on (DESIGN.md §5.26).
//
// The kernel computes C[b] = A[b] @ B[b] for every batch index b: A is
// m x k, B is k x n, C is m x n, each addressed through its own strides (so
// transposed and broadcast operands are read in place) and of its own type
// (FLOAT, FLOAT16 or BFLOAT16). The output is cut into tiles of mc rows by
// nc columns; each block of the launch takes a contiguous run of tiles, so
// no two blocks write the same element. A tile is computed in steps of kc
// along k: the step's slices of A and B are packed into panels (converted
// to float and, where the precision mode says so, rounded to FLOAT16 or
// HFLOAT32), a register-blocked micro-kernel multiplies the panels into a
// float accumulator tile, and the tile is rounded once to C's type when
// the last step is done. Panels and accumulator live in the launch's
// workspace: `scratch_per_block` bytes per block.
#ifndef ASCENDCL_ACLNN_OPAPI_MATMUL_ARGS_H_
#define ASCENDCL_ACLNN_OPAPI_MATMUL_ARGS_H_

#include <cstdint>

#include "aclsim/aclsim_kernel_abi.h"

namespace ascend::nn {

inline constexpr int kMatmulBatchDims = 6;

// Tile sizes. Row counts are multiples of kMatmulRowAlign and column counts
// of kMatmulColAlign, so every micro-kernel's register block (6 or 8 rows,
// 8, 16 or 32 columns) divides a tile.
inline constexpr int64_t kMatmulRowAlign = 24;
inline constexpr int64_t kMatmulColAlign = 32;
inline constexpr int64_t kMatmulMc = 144;
inline constexpr int64_t kMatmulNc = 256;
inline constexpr int64_t kMatmulKc = 256;

// How inputs are rounded before they multiply (the cubeMathType's effect).
enum class MatmulRounding : int32_t {
  kNone = 0,  // as they are (FLOAT16 and BFLOAT16 values are exact floats)
  kHf32 = 1,  // to HFLOAT32: 10 mantissa bits, nearest even
  kFp16 = 2,  // to FLOAT16, nearest even
};

// Which micro-kernel runs: kAuto takes the best the host CPU has; a named
// one the CPU lacks falls back to kAuto's choice.
enum class MatmulEngine : int32_t {
  kAuto = 0,
  kGeneric = 1,  // 4-wide vectors, 6 x 8 register block (any CPU)
  kAvx2 = 2,     // 8-wide with FMA, 6 x 16
  kAvx512 = 3,   // 16-wide with FMA, 8 x 32
};

struct MatmulOperand {
  uint64_t addr;       // element (0, 0) of batch 0 (patched)
  int32_t dtype;       // ACL_FLOAT, ACL_FLOAT16 or ACL_BF16
  int32_t nz;          // 1: B in the FRACTAL_NZ layout (below)
  int64_t row_stride;  // elements; 0 for a single row (column)
  int64_t col_stride;
  int64_t batch_strides[kMatmulBatchDims];  // 0 where broadcast
  // FRACTAL_NZ: the stored matrix X (B, or B transposed when nz_transposed)
  // is kept in fractals of 16 rows by nz_c0 columns: element (r, c) of X is
  // at ((c / c0) * nz_row_blocks + r / 16) * 16 * c0 + (r % 16) * c0 + c % c0
  // with nz_row_blocks = ceil(rows of X / 16).
  int64_t nz_row_blocks;
  int64_t nz_c0;
  int32_t nz_transposed;
  int32_t reserved;
};

struct MatmulArgs {
  int64_t m, n, k;
  int64_t mc, nc, kc;  // tile sizes (multiples of the alignments above)
  int64_t m_tiles, n_tiles;
  int64_t batches;  // product of batch_shape (1 when batch_dims is 0)
  int32_t batch_dims;
  int32_t rounding;  // MatmulRounding
  int32_t engine;    // MatmulEngine
  int32_t reserved;
  int64_t batch_shape[kMatmulBatchDims];
  uint64_t scratch;           // the workspace (patched)
  int64_t scratch_per_block;  // bytes
  MatmulOperand a, b, c;
};

// Bytes of workspace one block needs for tiles of mc x nc, steps of kc.
int64_t MatmulScratchBytes(int64_t mc, int64_t nc, int64_t kc);

// Whether the host CPU runs `engine`'s micro-kernel (kAuto: always).
bool MatmulEngineAvailable(MatmulEngine engine);

// The kernel: called once per block.
void MatmulKernel(const aclsimKernelContext* ctx, void* args);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_MATMUL_ARGS_H_
