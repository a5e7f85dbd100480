// The arithmetic of HCCL's reductions on the host (the simulated devices'
// memory is host memory): SUM, PROD, MAX, MIN over every reducible type.
// Integers wrap; 16-bit floats (fp16, bfp16) are combined in fp32 and
// rounded once, to nearest even. Used by the in-process transport (several
// inputs at once, tile by tile) and as Gloo's reduce function for the
// types Gloo's own functions do not cover.
#ifndef ASCENDCL_HCCL_CORE_REDUCE_H_
#define ASCENDCL_HCCL_CORE_REDUCE_H_

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

// dst[i] = a[i] op b[i] for n elements (dst may be a or b): Gloo's reduce
// function signature. Null for a type or op that does not reduce.
using PairwiseFn = void (*)(void* dst, const void* a, const void* b, size_t n);
PairwiseFn Pairwise(HcclDataType type, HcclReduceOp op);

// Bytes of one tile: what ReduceTile takes at most per call (n * size).
constexpr size_t kTileBytes = 16 * 1024;

// dst[i] = srcs[0][i] op ... op srcs[nsrc - 1][i], combining in rank order
// (so every run gives the same bits), for n elements with n * size <=
// kTileBytes. dst must not overlap any source. nsrc >= 1.
void ReduceTile(HcclDataType type, HcclReduceOp op, void* dst,
                const void* const* srcs, int nsrc, size_t n);

// Copies bytes; with `stream`, large aligned copies bypass the cache
// (non-temporal stores), for outputs nobody reads soon.
void CopyOut(void* dst, const void* src, size_t bytes, bool stream);
// Orders CopyOut's non-temporal stores before what follows (call once
// after a series of copies, before another thread may read them).
void FenceCopies();

// fp16 and bfp16 conversions (round to nearest even; NaN stays NaN).
float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);
float Bf16ToFloat(uint16_t b);
uint16_t FloatToBf16(float f);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_REDUCE_H_
