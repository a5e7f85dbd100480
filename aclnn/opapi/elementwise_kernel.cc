// The element-wise kernel (elementwise.h): runs on the simulated cores, one
// call per block, each block a contiguous run of the output's elements.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "aclnn/opapi/convert.h"
#include "aclnn/opapi/elementwise.h"
#include "aclnn/opapi/elementwise_args.h"

namespace ascend::nn {
namespace {

constexpr int64_t kChunk = 1024;

template <typename CT>
CT Nan() {
  if constexpr (std::is_floating_point_v<CT>) {
    return std::numeric_limits<CT>::quiet_NaN();
  } else {
    return CT(0);
  }
}

template <typename CT>
bool IsNan(CT v) {
  if constexpr (std::is_floating_point_v<CT>) {
    return v != v;
  } else {
    return false;
  }
}

// Integer arithmetic wraps (two's complement), as the hardware's does;
// floating arithmetic is plain.
template <typename CT>
inline CT WAdd(CT x, CT y) {
  if constexpr (std::is_integral_v<CT>) {
    using U = std::make_unsigned_t<CT>;
    return static_cast<CT>(static_cast<U>(x) + static_cast<U>(y));
  } else {
    return x + y;
  }
}
template <typename CT>
inline CT WSub(CT x, CT y) {
  if constexpr (std::is_integral_v<CT>) {
    using U = std::make_unsigned_t<CT>;
    return static_cast<CT>(static_cast<U>(x) - static_cast<U>(y));
  } else {
    return x - y;
  }
}
template <typename CT>
inline CT WMul(CT x, CT y) {
  if constexpr (std::is_integral_v<CT>) {
    using U = std::make_unsigned_t<CT>;
    return static_cast<CT>(static_cast<U>(x) * static_cast<U>(y));
  } else {
    return x * y;
  }
}

template <typename CT>
inline CT WNeg(CT x) {
  if constexpr (std::is_integral_v<CT>) {
    return WSub(CT(0), x);
  } else {
    return -x;
  }
}

// base ^ e for integers, wrapping; a negative power of an integer: 1 and
// -1 stay, others go to 0.
template <typename CT>
inline CT IPow(CT base, CT e) {
  if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  CT r = 1;
  for (; e > 0; e >>= 1) {
    if (e & 1) r = WMul(r, base);
    base = WMul(base, base);
  }
  return r;
}

// out[i] = op(a[i], b[i]) for the n elements of one row.
template <typename CT>
void Apply(ElementOp op, int64_t n, const CT* const* in, CT* out, CT s) {
  const CT* a = in[0];
  const CT* b = in[1];
  switch (op) {
    case ElementOp::kAdd:
      if (s == CT(1)) {
        for (int64_t i = 0; i < n; ++i) out[i] = WAdd(a[i], b[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = WAdd(a[i], WMul(s, b[i]));
      }
      break;
    case ElementOp::kSub:
      if (s == CT(1)) {
        for (int64_t i = 0; i < n; ++i) out[i] = WSub(a[i], b[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = WSub(a[i], WMul(s, b[i]));
      }
      break;
    case ElementOp::kMul:
      for (int64_t i = 0; i < n; ++i) out[i] = WMul(a[i], b[i]);
      break;
    case ElementOp::kDiv:
      if constexpr (std::is_floating_point_v<CT>) {
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] / b[i];
      } else {
        for (int64_t i = 0; i < n; ++i) {  // no trap on 0 or MIN / -1
          out[i] = b[i] == 0 ? 0 : (b[i] == -1 ? WNeg(a[i]) : a[i] / b[i]);
        }
      }
      break;
    case ElementOp::kMaximum:
      for (int64_t i = 0; i < n; ++i) {
        out[i] = IsNan(a[i]) || IsNan(b[i]) ? Nan<CT>()
                                            : (a[i] > b[i] ? a[i] : b[i]);
      }
      break;
    case ElementOp::kMinimum:
      for (int64_t i = 0; i < n; ++i) {
        out[i] = IsNan(a[i]) || IsNan(b[i]) ? Nan<CT>()
                                            : (a[i] < b[i] ? a[i] : b[i]);
      }
      break;
    case ElementOp::kPowScalar:
      if constexpr (std::is_floating_point_v<CT>) {
        if (s == CT(2)) {
          for (int64_t i = 0; i < n; ++i) out[i] = a[i] * a[i];
        } else {
          for (int64_t i = 0; i < n; ++i) out[i] = std::pow(a[i], s);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = IPow(a[i], s);
      }
      break;
    case ElementOp::kPowBase:
      if constexpr (std::is_floating_point_v<CT>) {
        for (int64_t i = 0; i < n; ++i) out[i] = std::pow(s, a[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = IPow(s, a[i]);
      }
      break;
    case ElementOp::kNeg:
      for (int64_t i = 0; i < n; ++i) out[i] = WNeg(a[i]);
      break;
    case ElementOp::kAbs:
      for (int64_t i = 0; i < n; ++i) out[i] = a[i] < 0 ? WNeg(a[i]) : a[i];
      break;
    case ElementOp::kRelu:
      for (int64_t i = 0; i < n; ++i)
        out[i] = a[i] > 0 ? a[i] : (IsNan(a[i]) ? a[i] : CT(0));
      break;
    case ElementOp::kCopy:
      if (out != a) std::memcpy(out, a, static_cast<size_t>(n) * sizeof(CT));
      break;
    case ElementOp::kFill:
      for (int64_t i = 0; i < n; ++i) out[i] = s;
      break;
    default:
      if constexpr (std::is_floating_point_v<CT>) {
        switch (op) {
          case ElementOp::kExp:
            for (int64_t i = 0; i < n; ++i) out[i] = std::exp(a[i]);
            break;
          case ElementOp::kLog:
            for (int64_t i = 0; i < n; ++i) out[i] = std::log(a[i]);
            break;
          case ElementOp::kSqrt:
            for (int64_t i = 0; i < n; ++i) out[i] = std::sqrt(a[i]);
            break;
          case ElementOp::kRsqrt:
            for (int64_t i = 0; i < n; ++i) out[i] = CT(1) / std::sqrt(a[i]);
            break;
          case ElementOp::kSigmoid:
            for (int64_t i = 0; i < n; ++i)
              out[i] = CT(1) / (CT(1) + std::exp(-a[i]));
            break;
          case ElementOp::kTanh:
            for (int64_t i = 0; i < n; ++i) out[i] = std::tanh(a[i]);
            break;
          case ElementOp::kSilu:
            for (int64_t i = 0; i < n; ++i)
              out[i] = a[i] / (CT(1) + std::exp(-a[i]));
            break;
          case ElementOp::kGelu: {
            const CT k = static_cast<CT>(0.7978845608028654);  // sqrt(2/pi)
            for (int64_t i = 0; i < n; ++i) {
              const CT x = a[i];
              out[i] = CT(0.5) * x *
                       (CT(1) + std::tanh(k * (x + CT(0.044715) * x * x * x)));
            }
            break;
          }
          case ElementOp::kGeluErf: {
            const CT r = static_cast<CT>(0.7071067811865476);  // 1/sqrt(2)
            for (int64_t i = 0; i < n; ++i) {
              out[i] = CT(0.5) * a[i] * (CT(1) + std::erf(a[i] * r));
            }
            break;
          }
          default:
            break;
        }
      }
      break;
  }
}

const uint8_t* At(const ElementOperand& o, const int64_t* idx, int ndim,
                  size_t esize) {
  int64_t e = 0;
  for (int d = 0; d < ndim; ++d) e += idx[d] * o.strides[d];
  return reinterpret_cast<const uint8_t*>(o.addr) +
         e * static_cast<int64_t>(esize);
}

template <typename CT>
void RunRange(const ElementwiseArgs& a, int64_t lo, int64_t hi) {
  alignas(64) CT buf[kMaxElementInputs][kChunk];
  alignas(64) CT res[kChunk];
  const int nd = a.ndim;
  const int last = nd - 1;
  int64_t idx[kArgDims] = {};
  for (int64_t rest = lo, d = last; d >= 0; --d) {
    idx[d] = rest % a.shape[d];
    rest /= a.shape[d];
  }
  const CT s = std::is_floating_point_v<CT> ? static_cast<CT>(a.s0)
                                            : static_cast<CT>(a.i0);
  const size_t out_size = ElementSize(static_cast<aclDataType>(a.out.dtype));
  const bool out_direct = a.out.dtype == a.compute && a.out.strides[last] == 1;
  for (uint32_t k = 0; k < a.inputs; ++k) {  // scalars: one constant row
    if (a.in[k].is_scalar == 0) continue;
    const CT v = std::is_floating_point_v<CT> ? static_cast<CT>(a.in[k].fvalue)
                                              : static_cast<CT>(a.in[k].ivalue);
    for (int64_t i = 0; i < kChunk; ++i) buf[k][i] = v;
  }
  for (int64_t pos = lo; pos < hi;) {
    const int64_t n =
        std::min<int64_t>({a.shape[last] - idx[last], hi - pos, kChunk});
    const CT* src[kMaxElementInputs] = {};
    for (uint32_t k = 0; k < a.inputs; ++k) {
      const ElementOperand& o = a.in[k];
      if (o.is_scalar != 0) {
        src[k] = buf[k];
        continue;
      }
      const size_t esize = ElementSize(static_cast<aclDataType>(o.dtype));
      const uint8_t* p = At(o, idx, nd, esize);
      if (o.dtype == a.compute && o.strides[last] == 1) {
        src[k] = reinterpret_cast<const CT*>(p);
      } else {
        LoadRow<CT>(p, o.strides[last] * static_cast<int64_t>(esize), o.dtype,
                    n, buf[k]);
        src[k] = buf[k];
      }
    }
    uint8_t* dst = const_cast<uint8_t*>(At(a.out, idx, nd, out_size));
    CT* target = out_direct ? reinterpret_cast<CT*>(dst) : res;
    Apply<CT>(static_cast<ElementOp>(a.op), n, src, target, s);
    if (!out_direct) {
      StoreRow<CT>(res, n, a.out.dtype, dst,
                   a.out.strides[last] * static_cast<int64_t>(out_size));
    }
    pos += n;
    idx[last] += n;
    for (int d = last; d > 0 && idx[d] >= a.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace

void ElementwiseKernel(const aclsimKernelContext* ctx, void* args) {
  const auto& a = *static_cast<const ElementwiseArgs*>(args);
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t b = ctx->blockIdx % blocks;
  // Blocks split the elements evenly, on 64-element boundaries so that no
  // two blocks write the same cache line of a contiguous output.
  const int64_t units = (a.numel + 63) / 64;
  const int64_t lo = std::min(a.numel, units * b / blocks * 64);
  const int64_t hi = std::min(a.numel, units * (b + 1) / blocks * 64);
  if (lo >= hi) return;
  // The block's output through the device's write target (kernel_args.h).
  ElementwiseArgs block = a;
  block.out.addr =
      WriteAddress(ctx, a.out.addr, a.shape, a.out.strides, a.ndim,
                   ElementSize(static_cast<aclDataType>(a.out.dtype)), lo, hi);
  switch (a.compute) {
    case ACL_FLOAT:
      RunRange<float>(block, lo, hi);
      break;
    case ACL_DOUBLE:
      RunRange<double>(block, lo, hi);
      break;
    case ACL_INT32:
      RunRange<int32_t>(block, lo, hi);
      break;
    case ACL_INT64:
      RunRange<int64_t>(block, lo, hi);
      break;
    default:
      ctx->raiseException(ctx, 0);
      break;
  }
}

}  // namespace ascend::nn
