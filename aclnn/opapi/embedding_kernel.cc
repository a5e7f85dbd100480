// The embedding kernel (embedding_args.h): runs on the simulated cores,
// one call per block, each block a contiguous run of index positions, each
// copying one row of weight to out.
#include <cstdint>
#include <cstring>

#include "aclnn/opapi/embedding_args.h"

namespace ascend::nn {

void EmbeddingKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const EmbeddingArgs*>(args);
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  const int64_t lo = a.count * b / blocks;
  const int64_t hi = a.count * (b + 1) / blocks;
  if (lo >= hi) return;
  const auto* weight = reinterpret_cast<const uint8_t*>(a.weight_addr);
  const auto* indices = reinterpret_cast<const uint8_t*>(a.indices_addr);
  auto* out = reinterpret_cast<uint8_t*>(a.out_addr);
  const int64_t es = a.esize;
  const int64_t isize = a.index_size;
  const bool dense = a.wstride[1] == 1 && a.ocol == 1;
  int64_t idx[kArgDims] = {};
  for (int64_t rest = lo, d = a.ni - 1; d >= 0; --d) {
    idx[d] = rest % a.ishape[d];
    rest /= a.ishape[d];
  }
  for (int64_t i = lo; i < hi; ++i) {
    int64_t ie = 0, oe = 0;
    for (int d = 0; d < a.ni; ++d) {
      ie += idx[d] * a.istride[d];
      oe += idx[d] * a.ostride[d];
    }
    int64_t row = 0;
    if (isize == 4) {
      int32_t v;
      std::memcpy(&v, indices + ie * isize, sizeof v);
      row = v;
    } else {
      std::memcpy(&row, indices + ie * isize, sizeof row);
    }
    if (row < 0 || row >= a.rows) {
      ctx->raiseException(ctx, 0);  // 507015 at the stream's sync
      return;
    }
    const uint8_t* src = weight + row * a.wstride[0] * es;
    uint8_t* dst = out + oe * es;
    if (dense) {
      std::memcpy(dst, src, static_cast<size_t>(a.cols * es));
    } else {
      for (int64_t c = 0; c < a.cols; ++c) {
        std::memcpy(dst + c * a.ocol * es, src + c * a.wstride[1] * es,
                    static_cast<size_t>(es));
      }
    }
    for (int d = a.ni - 1; d >= 0; --d) {
      if (++idx[d] < a.ishape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace ascend::nn
