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

}  // namespace

void CopyKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const CopyArgs*>(args);
  if (a.ndim < 1 || a.ndim > kArgDims) {
    ctx->raiseException(ctx, 0);
    return;
  }
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  // Even shares on 64-element boundaries: no two blocks write one cache
  // line of a contiguous destination.
  const int64_t units = (a.numel + 63) / 64;
  const int64_t lo = std::min(a.numel, units * b / blocks * 64);
  const int64_t hi = std::min(a.numel, units * (b + 1) / blocks * 64);
  if (lo >= hi) return;
  switch (a.element_size) {
    case 1:
      CopyRange<1>(a, lo, hi);
      break;
    case 2:
      CopyRange<2>(a, lo, hi);
      break;
    case 4:
      CopyRange<4>(a, lo, hi);
      break;
    case 8:
      CopyRange<8>(a, lo, hi);
      break;
    case 16:
      CopyRange<16>(a, lo, hi);
      break;
    default:
      ctx->raiseException(ctx, 0);
      break;
  }
}

}  // namespace ascend::nn
