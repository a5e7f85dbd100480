// The strided copy kernel (copy_args.h).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "aclnn/opapi/copy_args.h"

namespace ascend::nn {
namespace {

// n elements of E bytes, src and dst stepping by their strides (elements).
template <size_t E>
void CopyRow(const uint8_t* src, int64_t src_step, uint8_t* dst,
             int64_t dst_step, int64_t n) {
  if (src_step == 1 && dst_step == 1) {
    std::memmove(dst, src, static_cast<size_t>(n) * E);
    return;
  }
  const int64_t ss = src_step * static_cast<int64_t>(E);
  const int64_t ds = dst_step * static_cast<int64_t>(E);
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * ds, src + i * ss, E);
}

template <size_t E>
void CopyRange(const CopyArgs& a, int64_t lo, int64_t hi) {
  const int nd = a.ndim;
  const int last = nd - 1;
  int64_t idx[kArgDims] = {};
  for (int64_t rest = lo, d = last; d >= 0; --d) {
    idx[d] = rest % a.shape[d];
    rest /= a.shape[d];
  }
  const auto* src = reinterpret_cast<const uint8_t*>(a.src);
  auto* dst = reinterpret_cast<uint8_t*>(a.dst);
  for (int64_t pos = lo; pos < hi;) {
    const int64_t n = std::min(a.shape[last] - idx[last], hi - pos);
    int64_t so = 0, doff = 0;
    for (int d = 0; d < nd; ++d) {
      so += idx[d] * a.src_strides[d];
      doff += idx[d] * a.dst_strides[d];
    }
    CopyRow<E>(src + so * static_cast<int64_t>(E), a.src_strides[last],
               dst + doff * static_cast<int64_t>(E), a.dst_strides[last], n);
    pos += n;
    idx[last] += n;
    for (int d = last; d > 0 && idx[d] >= a.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// Tiles [lo, hi) of a transposing copy: the last two dimensions (rows r,
// columns c) in tiles of kCopyTile x kCopyTile, the others outside them.
template <size_t E>
void CopyTiles(const CopyArgs& a, int64_t lo, int64_t hi) {
  const int nd = a.ndim;
  const int64_t rows = a.shape[nd - 2], cols = a.shape[nd - 1];
  const int64_t row_tiles = (rows + kCopyTile - 1) / kCopyTile;
  const int64_t col_tiles = (cols + kCopyTile - 1) / kCopyTile;
  const int64_t srs = a.src_strides[nd - 2] * static_cast<int64_t>(E);
  const int64_t scs = a.src_strides[nd - 1] * static_cast<int64_t>(E);
  const int64_t drs = a.dst_strides[nd - 2] * static_cast<int64_t>(E);
  const int64_t dcs = a.dst_strides[nd - 1] * static_cast<int64_t>(E);
  const auto* src = reinterpret_cast<const uint8_t*>(a.src);
  auto* dst = reinterpret_cast<uint8_t*>(a.dst);
  for (int64_t u = lo; u < hi; ++u) {
    int64_t outer = u / (row_tiles * col_tiles);
    const int64_t tile = u % (row_tiles * col_tiles);
    const int64_t r0 = tile / col_tiles * kCopyTile;
    const int64_t c0 = tile % col_tiles * kCopyTile;
    int64_t so = 0, doff = 0;
    for (int d = nd - 3; d >= 0; --d) {
      const int64_t i = outer % a.shape[d];
      outer /= a.shape[d];
      so += i * a.src_strides[d];
      doff += i * a.dst_strides[d];
    }
    const uint8_t* s = src + so * static_cast<int64_t>(E);
    uint8_t* t = dst + doff * static_cast<int64_t>(E);
    const int64_t r1 = std::min(rows, r0 + kCopyTile);
    const int64_t c1 = std::min(cols, c0 + kCopyTile);
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t c = c0; c < c1; ++c) {
        std::memcpy(t + r * drs + c * dcs, s + r * srs + c * scs, E);
      }
    }
  }
}

template <size_t E>
void Copy(const CopyArgs& a, int64_t block, int64_t blocks) {
  if (a.tiled != 0) {
    const int64_t rows = a.shape[a.ndim - 2], cols = a.shape[a.ndim - 1];
    const int64_t units = a.numel / (rows * cols) *
                          ((rows + kCopyTile - 1) / kCopyTile) *
                          ((cols + kCopyTile - 1) / kCopyTile);
    CopyTiles<E>(a, units * block / blocks, units * (block + 1) / blocks);
    return;
  }
  // Even shares on 64-element boundaries: no two blocks write one cache
  // line of a contiguous destination.
  const int64_t units = (a.numel + 63) / 64;
  const int64_t lo = std::min(a.numel, units * block / blocks * 64);
  const int64_t hi = std::min(a.numel, units * (block + 1) / blocks * 64);
  if (lo < hi) CopyRange<E>(a, lo, hi);
}

}  // namespace

void CopyKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const CopyArgs*>(args);
  if (a.ndim < 1 || a.ndim > kArgDims) {
    ctx->raiseException(ctx, 0);
    return;
  }
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  if (a.numel <= 0 || (a.tiled != 0 && a.ndim < 2)) {
    ctx->raiseException(ctx, 0);
    return;
  }
  // The destination through the device's write target (kernel_args.h).
  CopyArgs local = a;
  local.dst = WriteAddress(ctx, a.dst, a.shape, a.dst_strides, a.ndim,
                           static_cast<size_t>(a.element_size), 0, a.numel);
  switch (a.element_size) {
    case 1:
      Copy<1>(local, b, blocks);
      break;
    case 2:
      Copy<2>(local, b, blocks);
      break;
    case 4:
      Copy<4>(local, b, blocks);
      break;
    case 8:
      Copy<8>(local, b, blocks);
      break;
    case 16:
      Copy<16>(local, b, blocks);
      break;
    default:
      ctx->raiseException(ctx, 0);
      break;
  }
}

}  // namespace ascend::nn
