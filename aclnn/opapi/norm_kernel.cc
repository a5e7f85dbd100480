// The normalisation kernel (norm.h): runs on the simulated cores, one call
// per block, each block a contiguous run of rows. A row is read in chunks
// along its fastest axis, once per pass, so no row is held whole: Softmax
// takes its largest element, then the sum of exp(x - max), then writes;
// LayerNorm takes the mean, then the sum of squared deviations (two
// passes, no cancellation), then writes; RmsNorm takes the mean square,
// then writes. Sums gather chunk sums in groups as the reductions do.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/convert.h"
#include "aclnn/opapi/norm_args.h"

namespace ascend::nn {
namespace {

constexpr int64_t kChunk = 1024;
constexpr int kGroup = 64;

template <typename CT>
CT SumRow(const CT* x, int64_t n) {
  CT lane[16] = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < 16; ++j) lane[j] += x[i + j];
  }
  for (int j = 0; i < n; ++i, ++j) lane[j] += x[i];
  for (int w = 8; w > 0; w >>= 1) {
    for (int j = 0; j < w; ++j) lane[j] += lane[j + w];
  }
  return lane[0];
}

// A sum gathered in groups of chunk sums.
template <typename CT>
struct Sum {
  CT total = 0, group = 0;
  int chunks = 0;
  void Add(CT s) {
    group += s;
    if (++chunks == kGroup) {
      total += group;
      group = 0;
      chunks = 0;
    }
  }
  CT Get() const { return total + group; }
};

struct RowPos {
  const NormArgs* a;
  int64_t x, y, w, b;  // batch offsets (elements)
};

uint8_t* At(const NormOperand& o, int64_t e) {
  return reinterpret_cast<uint8_t*>(o.addr) +
         e * static_cast<int64_t>(
                 ElementSize(static_cast<aclDataType>(o.dtype)));
}

int64_t Step(const NormOperand& o, int last) {
  return o.rstride[last] *
         static_cast<int64_t>(ElementSize(static_cast<aclDataType>(o.dtype)));
}

// Calls fn(n, xoff, yoff, woff, boff) for each chunk of the row, the
// offsets in elements from each operand's address.
template <typename Fn>
void ForChunks(const RowPos& p, Fn fn) {
  const NormArgs& a = *p.a;
  const int last = a.nr - 1;
  int64_t idx[kArgDims] = {};
  for (int64_t pos = 0; pos < a.n;) {
    const int64_t len = std::min(a.rshape[last] - idx[last], kChunk);
    int64_t xo = p.x, yo = p.y, wo = p.w, bo = p.b;
    for (int d = 0; d <= last; ++d) {
      xo += idx[d] * a.x.rstride[d];
      yo += idx[d] * a.y.rstride[d];
      wo += idx[d] * a.weight.rstride[d];
      bo += idx[d] * a.bias.rstride[d];
    }
    fn(len, xo, yo, wo, bo);
    pos += len;
    idx[last] += len;
    for (int d = last; d > 0 && idx[d] >= a.rshape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

template <typename CT>
void Softmax(const RowPos& p) {
  const NormArgs& a = *p.a;
  const int last = a.nr - 1;
  alignas(64) CT buf[kChunk];
  CT m = -std::numeric_limits<CT>::infinity();
  bool nan = false;
  ForChunks(p, [&](int64_t n, int64_t xo, int64_t, int64_t, int64_t) {
    LoadRow<CT>(At(a.x, xo), Step(a.x, last), a.x.dtype, n, buf);
    for (int64_t j = 0; j < n; ++j) {
      nan = nan || buf[j] != buf[j];
      m = buf[j] > m ? buf[j] : m;
    }
  });
  if (nan) m = std::numeric_limits<CT>::quiet_NaN();
  Sum<CT> s;
  ForChunks(p, [&](int64_t n, int64_t xo, int64_t, int64_t, int64_t) {
    LoadRow<CT>(At(a.x, xo), Step(a.x, last), a.x.dtype, n, buf);
    for (int64_t j = 0; j < n; ++j) buf[j] = std::exp(buf[j] - m);
    s.Add(SumRow(buf, n));
  });
  const CT total = s.Get();
  ForChunks(p, [&](int64_t n, int64_t xo, int64_t yo, int64_t, int64_t) {
    LoadRow<CT>(At(a.x, xo), Step(a.x, last), a.x.dtype, n, buf);
    for (int64_t j = 0; j < n; ++j) buf[j] = std::exp(buf[j] - m) / total;
    StoreRow<CT>(buf, n, a.y.dtype, At(a.y, yo), Step(a.y, last));
  });
}

// LayerNorm and RmsNorm; returns mean and rstd through the pointers.
void Normalize(const RowPos& p, float* mean_out, float* rstd_out) {
  const NormArgs& a = *p.a;
  const int last = a.nr - 1;
  const bool layer = static_cast<NormOp>(a.op) == NormOp::kLayerNorm;
  alignas(64) float buf[kChunk], w[kChunk], b[kChunk];
  const auto n = static_cast<float>(a.n);
  float mean = 0;
  if (layer && a.n > 0) {
    Sum<float> s;
    ForChunks(p, [&](int64_t len, int64_t xo, int64_t, int64_t, int64_t) {
      LoadRow<float>(At(a.x, xo), Step(a.x, last), a.x.dtype, len, buf);
      s.Add(SumRow(buf, len));
    });
    mean = s.Get() / n;
  }
  Sum<float> sq;
  ForChunks(p, [&](int64_t len, int64_t xo, int64_t, int64_t, int64_t) {
    LoadRow<float>(At(a.x, xo), Step(a.x, last), a.x.dtype, len, buf);
    for (int64_t j = 0; j < len; ++j) {
      const float d = buf[j] - mean;
      buf[j] = d * d;
    }
    sq.Add(SumRow(buf, len));
  });
  const float var =
      a.n > 0 ? sq.Get() / n : std::numeric_limits<float>::quiet_NaN();
  const float rstd = 1.0f / std::sqrt(var + static_cast<float>(a.eps));
  *mean_out = mean;
  *rstd_out = rstd;
  if (a.y.present == 0) return;
  ForChunks(p, [&](int64_t len, int64_t xo, int64_t yo, int64_t wo,
                   int64_t bo) {
    LoadRow<float>(At(a.x, xo), Step(a.x, last), a.x.dtype, len, buf);
    if (a.weight.present != 0) {
      LoadRow<float>(At(a.weight, wo), Step(a.weight, last), a.weight.dtype,
                     len, w);
    }
    if (a.bias.present != 0) {
      LoadRow<float>(At(a.bias, bo), Step(a.bias, last), a.bias.dtype, len, b);
    }
    for (int64_t j = 0; j < len; ++j) {
      float v = (buf[j] - mean) * rstd;
      if (a.weight.present != 0) v *= w[j];
      if (a.bias.present != 0) v += b[j];
      buf[j] = v;
    }
    StoreRow<float>(buf, len, a.y.dtype, At(a.y, yo), Step(a.y, last));
  });
}

template <typename CT>
void RunRows(const NormArgs& a, int64_t lo, int64_t hi) {
  int64_t idx[kArgDims] = {};
  for (int64_t rest = lo, d = a.nb - 1; d >= 0; --d) {
    idx[d] = rest % a.bshape[d];
    rest /= a.bshape[d];
  }
  for (int64_t row = lo; row < hi; ++row) {
    RowPos p{&a, 0, 0, 0, 0};
    int64_t mo = 0, ro = 0;
    for (int d = 0; d < a.nb; ++d) {
      p.x += idx[d] * a.x.bstride[d];
      p.y += idx[d] * a.y.bstride[d];
      mo += idx[d] * a.mean.bstride[d];
      ro += idx[d] * a.rstd.bstride[d];
    }
    if (static_cast<NormOp>(a.op) == NormOp::kSoftmax) {
      Softmax<CT>(p);
    } else {
      float mean = 0, rstd = 0;
      Normalize(p, &mean, &rstd);
      if (a.mean.present != 0) {
        StoreRow<float>(&mean, 1, a.mean.dtype, At(a.mean, mo), 0);
      }
      if (a.rstd.present != 0) {
        StoreRow<float>(&rstd, 1, a.rstd.dtype, At(a.rstd, ro), 0);
      }
    }
    for (int d = a.nb - 1; d >= 0; --d) {
      if (++idx[d] < a.bshape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

void NormKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const NormArgs*>(args);
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  const int64_t lo = a.rows * b / blocks;
  const int64_t hi = a.rows * (b + 1) / blocks;
  if (lo >= hi) return;
  if (a.compute == ACL_DOUBLE) {
    RunRows<double>(a, lo, hi);
  } else {
    RunRows<float>(a, lo, hi);
  }
}

}  // namespace ascend::nn
