// The reduction kernels (reduce.h): run on the simulated cores, one call
// per block, each block a contiguous run of the launch's units (tiles x
// parts, reduce_args.h). Sums add 16 lanes per row and gather row sums in
// groups before adding a group to the total, so the rounding error grows
// with the number of groups, not of elements; FLOAT accumulates in FLOAT
// (16-bit floats included), DOUBLE in DOUBLE, integers in INT64, wrapping.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/convert.h"
#include "aclnn/opapi/reduce_args.h"

namespace ascend::nn {
namespace {

constexpr int64_t kChunk = 1024;
constexpr int kGroup = 64;  // row (or reduced position) sums per group

template <typename CT>
constexpr bool kIsFloat = std::is_floating_point_v<CT>;

template <typename CT>
inline CT Add(CT a, CT b) {
  if constexpr (kIsFloat<CT>) {
    return a + b;
  } else {
    return static_cast<CT>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
}

// Whether a displaces b as the largest: larger, or a NaN over a number
// (so the first NaN stays, and the first of equal values).
template <typename CT>
inline bool Beats(CT a, CT b) {
  if constexpr (kIsFloat<CT>) {
    if (a != a) return b == b;
  }
  return a > b;
}

template <typename CT>
CT SumRow(const CT* x, int64_t n) {
  if constexpr (kIsFloat<CT>) {
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
  } else {
    uint64_t s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<uint64_t>(x[i]);
    return static_cast<CT>(s);
  }
}

// n input elements at p (byte stride step) as CT, converted to the
// launch's cast type first when it differs from the input's.
template <typename CT>
void LoadInput(const ReduceArgs& a, const uint8_t* p, int64_t step, int64_t n,
               CT* dst) {
  if (a.cast_dtype == a.in_dtype) {
    LoadRow<CT>(p, step, a.in_dtype, n, dst);
    return;
  }
  const auto cast = static_cast<aclDataType>(a.cast_dtype);
  const auto csize = static_cast<int64_t>(ElementSize(cast));
  alignas(8) uint8_t converted[kChunk * 8];
  if (IsFloating(static_cast<aclDataType>(a.in_dtype))) {
    double t[kChunk];
    LoadRow<double>(p, step, a.in_dtype, n, t);
    StoreRow<double>(t, n, a.cast_dtype, converted, csize);
  } else {
    int64_t t[kChunk];
    LoadRow<int64_t>(p, step, a.in_dtype, n, t);
    StoreRow<int64_t>(t, n, a.cast_dtype, converted, csize);
  }
  LoadRow<CT>(converted, csize, a.cast_dtype, n, dst);
}

// The results of `w` outputs: sums (kSum, kMean) or the largest values
// and their indexes (kMax, kArgMax).
template <typename CT>
struct Results {
  CT value[kReduceTile];
  int64_t index[kReduceTile];
};

int64_t KeptOffset(const int64_t* kidx, const int64_t* strides, int nk) {
  int64_t e = 0;
  for (int d = 0; d < nk; ++d) e += kidx[d] * strides[d];
  return e;
}

void DecodeKept(const ReduceArgs& a, int64_t m, int64_t* kidx) {
  for (int d = a.nk - 1; d >= 0; --d) {
    kidx[d] = m % a.kshape[d];
    m /= a.kshape[d];
  }
}

// Stores the finished results of `w` outputs at p (byte stride step).
template <typename CT>
void Store(const ReduceArgs& a, Results<CT>& r, int64_t w, uint8_t* p,
           int64_t step) {
  switch (static_cast<ReduceOp>(a.op)) {
    case ReduceOp::kSum:
    case ReduceOp::kMax:
      StoreRow<CT>(r.value, w, a.out_dtype, p, step);
      break;
    case ReduceOp::kMean:
      // The mean is a value of the cast type (integers round toward
      // zero), then converted to out's type.
      if constexpr (kIsFloat<CT>) {
        const CT n = static_cast<CT>(a.count);
        for (int64_t j = 0; j < w; ++j) r.value[j] = r.value[j] / n;
      } else {
        const double n = static_cast<double>(a.count);
        for (int64_t j = 0; j < w; ++j) {
          r.value[j] =
              ConvertValue<int64_t>(static_cast<double>(r.value[j]) / n);
        }
      }
      if (a.cast_dtype != a.out_dtype) {
        const auto cast = static_cast<aclDataType>(a.cast_dtype);
        const auto csize = static_cast<int64_t>(ElementSize(cast));
        alignas(8) uint8_t tmp[kReduceTile * 8];
        StoreRow<CT>(r.value, w, a.cast_dtype, tmp, csize);
        LoadRow<CT>(tmp, csize, a.cast_dtype, w, r.value);
      }
      StoreRow<CT>(r.value, w, a.out_dtype, p, step);
      break;
    case ReduceOp::kArgMax:
      StoreRow<int64_t>(r.index, w, a.out_dtype, p, step);
      break;
  }
}

// Hands the results of outputs m0 .. m0 + w - 1 (kept index kidx of m0)
// on: stored when the launch has one part, else left in the workspace.
template <typename CT>
void Emit(const ReduceArgs& a, Results<CT>& r, int64_t m0, int64_t w,
          const int64_t* kidx, int64_t part) {
  if (a.parts == 1) {
    const auto osize = static_cast<int64_t>(
        ElementSize(static_cast<aclDataType>(a.out_dtype)));
    uint8_t* out = reinterpret_cast<uint8_t*>(a.out_addr) +
                   KeptOffset(kidx, a.kout, a.nk) * osize;
    Store<CT>(a, r, w, out, a.kout[a.nk - 1] * osize);
    return;
  }
  auto* ws = reinterpret_cast<ReducePartial*>(a.ws_addr);
  for (int64_t j = 0; j < w; ++j) {
    ReducePartial& p = ws[(m0 + j) * a.parts + part];
    p = ReducePartial{0, 0, r.index[j]};
    if constexpr (kIsFloat<CT>) {
      p.f = static_cast<double>(r.value[j]);
    } else {
      p.i = static_cast<int64_t>(r.value[j]);
    }
  }
}

// One output (kept index kidx) over reduced positions [r0, r1): rows
// along the last reduced axis.
template <typename CT>
void RunInner(const ReduceArgs& a, const int64_t* kidx, int64_t r0, int64_t r1,
              Results<CT>& res) {
  alignas(64) CT buf[kChunk];
  const auto isize =
      static_cast<int64_t>(ElementSize(static_cast<aclDataType>(a.in_dtype)));
  const auto* in = reinterpret_cast<const uint8_t*>(a.in_addr);
  const int64_t kbase = KeptOffset(kidx, a.kin, a.nk);
  const int last = a.nr - 1;
  const auto op = static_cast<ReduceOp>(a.op);
  const bool summing = op == ReduceOp::kSum || op == ReduceOp::kMean;
  int64_t ridx[kArgDims] = {};
  for (int64_t rest = r0, d = last; r0 < r1 && d >= 0; --d) {
    ridx[d] = rest % a.rshape[d];
    rest /= a.rshape[d];
  }
  CT total = CT(0), group = CT(0), best = CT(0);
  int64_t best_at = -1;
  int rows = 0;
  for (int64_t r = r0; r < r1;) {
    const int64_t n =
        std::min<int64_t>({a.rshape[last] - ridx[last], r1 - r, kChunk});
    int64_t e = kbase;
    for (int d = 0; d <= last; ++d) e += ridx[d] * a.rin[d];
    LoadInput<CT>(a, in + e * isize, a.rin[last] * isize, n, buf);
    if (summing) {
      group = Add(group, SumRow(buf, n));
      if (++rows == kGroup) {
        total = Add(total, group);
        group = CT(0);
        rows = 0;
      }
    } else {
      CT b = buf[0];
      int64_t at = 0;
      for (int64_t j = 1; j < n; ++j) {
        if (Beats(buf[j], b)) {
          b = buf[j];
          at = j;
        }
      }
      if (best_at < 0 || Beats(b, best)) {
        best = b;
        best_at = r + at;
      }
    }
    r += n;
    ridx[last] += n;
    for (int d = last; d > 0 && ridx[d] >= a.rshape[d]; --d) {
      ridx[d] = 0;
      ++ridx[d - 1];
    }
  }
  res.value[0] = summing ? Add(total, group) : best;
  res.index[0] = best_at < 0 ? 0 : best_at;
}

// `w` outputs along the last kept axis (the first at kept index kidx)
// over reduced positions [r0, r1): each position loads a row of them.
template <typename CT>
void RunOuter(const ReduceArgs& a, const int64_t* kidx, int64_t w, int64_t r0,
              int64_t r1, Results<CT>& res) {
  alignas(64) CT buf[kReduceTile];
  alignas(64) CT group[kReduceTile] = {};
  const auto isize =
      static_cast<int64_t>(ElementSize(static_cast<aclDataType>(a.in_dtype)));
  const auto* in = reinterpret_cast<const uint8_t*>(a.in_addr);
  const int64_t kbase = KeptOffset(kidx, a.kin, a.nk);
  const int64_t step = a.kin[a.nk - 1] * isize;
  const auto op = static_cast<ReduceOp>(a.op);
  const bool summing = op == ReduceOp::kSum || op == ReduceOp::kMean;
  for (int64_t j = 0; j < w; ++j) {
    res.value[j] = CT(0);
    res.index[j] = 0;
  }
  int64_t ridx[kArgDims] = {};
  for (int64_t rest = r0, d = a.nr - 1; r0 < r1 && d >= 0; --d) {
    ridx[d] = rest % a.rshape[d];
    rest /= a.rshape[d];
  }
  int rows = 0;
  for (int64_t r = r0; r < r1; ++r) {
    int64_t e = kbase;
    for (int d = 0; d < a.nr; ++d) e += ridx[d] * a.rin[d];
    LoadInput<CT>(a, in + e * isize, step, w, buf);
    if (summing) {
      for (int64_t j = 0; j < w; ++j) group[j] = Add(group[j], buf[j]);
      if (++rows == kGroup) {
        for (int64_t j = 0; j < w; ++j) {
          res.value[j] = Add(res.value[j], group[j]);
          group[j] = CT(0);
        }
        rows = 0;
      }
    } else if (r == r0) {
      for (int64_t j = 0; j < w; ++j) {
        res.value[j] = buf[j];
        res.index[j] = r;
      }
    } else {
      for (int64_t j = 0; j < w; ++j) {
        if (Beats(buf[j], res.value[j])) {
          res.value[j] = buf[j];
          res.index[j] = r;
        }
      }
    }
    for (int d = a.nr - 1; d >= 0; --d) {
      if (++ridx[d] < a.rshape[d]) break;
      ridx[d] = 0;
    }
  }
  if (summing) {
    for (int64_t j = 0; j < w; ++j) res.value[j] = Add(res.value[j], group[j]);
  }
}

template <typename CT>
void RunUnits(const ReduceArgs& a, int64_t lo, int64_t hi) {
  Results<CT> res;
  int64_t kidx[kArgDims] = {};
  const int64_t line = a.kshape[a.nk - 1];
  const int64_t per_line = (line + a.width - 1) / a.width;
  for (int64_t u = lo; u < hi; ++u) {
    const int64_t tile = u / a.parts;
    const int64_t part = u % a.parts;
    const int64_t r0 = a.count * part / a.parts;
    const int64_t r1 = a.count * (part + 1) / a.parts;
    const int64_t first = (tile % per_line) * a.width;
    const int64_t m0 = (tile / per_line) * line + first;
    const int64_t w = std::min(a.width, line - first);
    DecodeKept(a, m0, kidx);
    if (a.outer != 0) {
      RunOuter<CT>(a, kidx, w, r0, r1, res);
    } else {
      RunInner<CT>(a, kidx, r0, r1, res);
    }
    Emit<CT>(a, res, m0, w, kidx, part);
  }
}

template <typename CT>
void CombineOutputs(const ReduceArgs& a, int64_t lo, int64_t hi) {
  const auto* ws = reinterpret_cast<const ReducePartial*>(a.ws_addr);
  const auto osize =
      static_cast<int64_t>(ElementSize(static_cast<aclDataType>(a.out_dtype)));
  const auto op = static_cast<ReduceOp>(a.op);
  const bool summing = op == ReduceOp::kSum || op == ReduceOp::kMean;
  int64_t kidx[kArgDims] = {};
  Results<CT> res;
  for (int64_t m = lo; m < hi; ++m) {
    const ReducePartial* p = ws + m * a.parts;
    auto value = [](const ReducePartial& q) {
      if constexpr (kIsFloat<CT>) {
        return static_cast<CT>(q.f);
      } else {
        return static_cast<CT>(q.i);
      }
    };
    CT v = value(p[0]);
    int64_t at = p[0].index;
    for (int64_t k = 1; k < a.parts; ++k) {  // in order: deterministic
      const CT x = value(p[k]);
      if (summing) {
        v = Add(v, x);
      } else if (Beats(x, v)) {
        v = x;
        at = p[k].index;
      }
    }
    res.value[0] = v;
    res.index[0] = at;
    DecodeKept(a, m, kidx);
    uint8_t* out = reinterpret_cast<uint8_t*>(a.out_addr) +
                   KeptOffset(kidx, a.kout, a.nk) * osize;
    Store<CT>(a, res, 1, out, 0);
  }
}

// Block b's share [lo, hi) of n units.
void Share(const aclsimKernelContext* ctx, int64_t n, int64_t* lo,
           int64_t* hi) {
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  *lo = n * b / blocks;
  *hi = n * (b + 1) / blocks;
}

}  // namespace

void ReduceKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const ReduceArgs*>(args);
  int64_t lo = 0, hi = 0;
  Share(ctx, a.tiles * a.parts, &lo, &hi);
  if (lo >= hi) return;
  switch (a.compute) {
    case ACL_FLOAT:
      RunUnits<float>(a, lo, hi);
      break;
    case ACL_DOUBLE:
      RunUnits<double>(a, lo, hi);
      break;
    case ACL_INT64:
      RunUnits<int64_t>(a, lo, hi);
      break;
    default:
      ctx->raiseException(ctx, 0);
      break;
  }
}

void ReduceCombineKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const ReduceArgs*>(args);
  int64_t lo = 0, hi = 0;
  Share(ctx, a.outputs, &lo, &hi);
  if (lo >= hi) return;
  switch (a.compute) {
    case ACL_FLOAT:
      CombineOutputs<float>(a, lo, hi);
      break;
    case ACL_DOUBLE:
      CombineOutputs<double>(a, lo, hi);
      break;
    case ACL_INT64:
      CombineOutputs<int64_t>(a, lo, hi);
      break;
    default:
      ctx->raiseException(ctx, 0);
      break;
  }
}

}  // namespace ascend::nn
