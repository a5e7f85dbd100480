#include "hccl/core/reduce.h"

#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ascend::hccl {
namespace {

// A 16-bit float as stored; Load/Store convert through fp32.
struct Half {
  uint16_t bits;
};
struct Bf16 {
  uint16_t bits;
};

template <typename T>
struct Elem {
  using Acc = T;
  static Acc Load(T v) { return v; }
  static T Store(Acc a) { return a; }
};
template <>
struct Elem<Half> {
  using Acc = float;
  static float Load(Half v) { return HalfToFloat(v.bits); }
  static Half Store(float a) { return Half{FloatToHalf(a)}; }
};
template <>
struct Elem<Bf16> {
  using Acc = float;
  static float Load(Bf16 v) { return Bf16ToFloat(v.bits); }
  static Bf16 Store(float a) { return Bf16{FloatToBf16(a)}; }
};

// Integer arithmetic wraps (computed unsigned: signed overflow is undefined).
template <typename A>
A Add(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<A>;
    return static_cast<A>(
        static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <typename A>
A Mul(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}
template <typename A>
A Max(A a, A b) {
  return a < b ? b : a;
}
template <typename A>
A Min(A a, A b) {
  return b < a ? b : a;
}

struct SumOp {
  template <typename A>
  static A Apply(A a, A b) {
    return Add(a, b);
  }
};
struct ProdOp {
  template <typename A>
  static A Apply(A a, A b) {
    return Mul(a, b);
  }
};
struct MaxOp {
  template <typename A>
  static A Apply(A a, A b) {
    return Max(a, b);
  }
};
struct MinOp {
  template <typename A>
  static A Apply(A a, A b) {
    return Min(a, b);
  }
};

template <typename T, typename Op>
void PairwiseT(void* dst, const void* a, const void* b, size_t n) {
  using E = Elem<T>;
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  for (size_t i = 0; i < n; ++i) {
    d[i] = E::Store(Op::Apply(E::Load(x[i]), E::Load(y[i])));
  }
}

template <typename T, typename Op>
void TileT(void* dst, const void* const* srcs, int nsrc, size_t n) {
  using E = Elem<T>;
  using Acc = typename E::Acc;
  T* d = static_cast<T*>(dst);
  if constexpr (std::is_same_v<Acc, T>) {
    // Accumulate in dst itself (cache-resident: at most one tile).
    const T* s0 = static_cast<const T*>(srcs[0]);
    if (nsrc == 1) {
      std::memcpy(d, s0, n * sizeof(T));
      return;
    }
    const T* s1 = static_cast<const T*>(srcs[1]);
    for (size_t i = 0; i < n; ++i) d[i] = Op::Apply(s0[i], s1[i]);
    for (int k = 2; k < nsrc; ++k) {
      const T* s = static_cast<const T*>(srcs[k]);
      for (size_t i = 0; i < n; ++i) d[i] = Op::Apply(d[i], s[i]);
    }
  } else {
    Acc acc[kTileBytes / sizeof(T)];
    const T* s0 = static_cast<const T*>(srcs[0]);
    for (size_t i = 0; i < n; ++i) acc[i] = E::Load(s0[i]);
    for (int k = 1; k < nsrc; ++k) {
      const T* s = static_cast<const T*>(srcs[k]);
      for (size_t i = 0; i < n; ++i) acc[i] = Op::Apply(acc[i], E::Load(s[i]));
    }
    for (size_t i = 0; i < n; ++i) d[i] = E::Store(acc[i]);
  }
}

template <typename Op>
struct Table {
  PairwiseFn pair;
  void (*tile)(void*, const void* const*, int, size_t);
};

template <typename T, typename Op>
Table<Op> Entry() {
  return {&PairwiseT<T, Op>, &TileT<T, Op>};
}

template <typename Op>
bool Lookup(HcclDataType type, Table<Op>* t) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      *t = Entry<int8_t, Op>();
      return true;
    case HCCL_DATA_TYPE_INT16:
      *t = Entry<int16_t, Op>();
      return true;
    case HCCL_DATA_TYPE_INT32:
      *t = Entry<int32_t, Op>();
      return true;
    case HCCL_DATA_TYPE_INT64:
      *t = Entry<int64_t, Op>();
      return true;
    case HCCL_DATA_TYPE_UINT8:
      *t = Entry<uint8_t, Op>();
      return true;
    case HCCL_DATA_TYPE_UINT16:
      *t = Entry<uint16_t, Op>();
      return true;
    case HCCL_DATA_TYPE_UINT32:
      *t = Entry<uint32_t, Op>();
      return true;
    case HCCL_DATA_TYPE_UINT64:
      *t = Entry<uint64_t, Op>();
      return true;
    case HCCL_DATA_TYPE_FP16:
      *t = Entry<Half, Op>();
      return true;
    case HCCL_DATA_TYPE_BFP16:
      *t = Entry<Bf16, Op>();
      return true;
    case HCCL_DATA_TYPE_FP32:
      *t = Entry<float, Op>();
      return true;
    case HCCL_DATA_TYPE_FP64:
      *t = Entry<double, Op>();
      return true;
    default:
      return false;
  }
}

template <typename F>
bool Dispatch(HcclDataType type, HcclReduceOp op, F&& use) {
  switch (op) {
    case HCCL_REDUCE_SUM: {
      Table<SumOp> t;
      if (!Lookup(type, &t)) return false;
      use(t.pair, t.tile);
      return true;
    }
    case HCCL_REDUCE_PROD: {
      Table<ProdOp> t;
      if (!Lookup(type, &t)) return false;
      use(t.pair, t.tile);
      return true;
    }
    case HCCL_REDUCE_MAX: {
      Table<MaxOp> t;
      if (!Lookup(type, &t)) return false;
      use(t.pair, t.tile);
      return true;
    }
    case HCCL_REDUCE_MIN: {
      Table<MinOp> t;
      if (!Lookup(type, &t)) return false;
      use(t.pair, t.tile);
      return true;
    }
    default:
      return false;
  }
}

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

}  // namespace

PairwiseFn Pairwise(HcclDataType type, HcclReduceOp op) {
  PairwiseFn fn = nullptr;
  Dispatch(type, op, [&](PairwiseFn p, auto) { fn = p; });
  return fn;
}

void ReduceTile(HcclDataType type, HcclReduceOp op, void* dst,
                const void* const* srcs, int nsrc, size_t n) {
  Dispatch(type, op, [&](PairwiseFn, auto tile) { tile(dst, srcs, nsrc, n); });
}

void CopyOut(void* dst, const void* src, size_t bytes, bool stream) {
#if defined(__SSE2__)
  if (stream && bytes >= 4096 && reinterpret_cast<uintptr_t>(dst) % 16 == 0) {
    auto* d = static_cast<__m128i*>(dst);
    const auto* s = static_cast<const __m128i*>(src);
    const size_t blocks = bytes / 64;
    for (size_t i = 0; i < blocks; ++i) {
      const __m128i a = _mm_loadu_si128(s + 4 * i);
      const __m128i b = _mm_loadu_si128(s + 4 * i + 1);
      const __m128i c = _mm_loadu_si128(s + 4 * i + 2);
      const __m128i e = _mm_loadu_si128(s + 4 * i + 3);
      _mm_stream_si128(d + 4 * i, a);
      _mm_stream_si128(d + 4 * i + 1, b);
      _mm_stream_si128(d + 4 * i + 2, c);
      _mm_stream_si128(d + 4 * i + 3, e);
    }
    const size_t done = blocks * 64;
    if (done < bytes) {
      std::memcpy(static_cast<char*>(dst) + done,
                  static_cast<const char*>(src) + done, bytes - done);
    }
    return;
  }
#endif
  (void)stream;
  std::memcpy(dst, src, bytes);
}

void FenceCopies() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return FromBits(sign | 0x7f800000u | (mant << 13));
  if (exp != 0) return FromBits(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0) return FromBits(sign);
  // Subnormal: normalise.
  int e = -1;
  do {
    ++e;
    mant <<= 1;
  } while ((mant & 0x400u) == 0);
  return FromBits(sign | static_cast<uint32_t>(112 - e) << 23 |
                  ((mant & 0x3ffu) << 13));
}

uint16_t FloatToHalf(float f) {
  const uint32_t u = Bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN (keep NaN quiet and non-zero)
    return static_cast<uint16_t>(sign | 0x7c00u |
                                 (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or 0
    // abs as a float times 2^24 rounds to the subnormal's integer mantissa.
    const float scaled = FromBits(abs) * 16777216.0f;
    const uint32_t m = static_cast<uint32_t>(scaled);
    const float frac = scaled - static_cast<float>(m);
    uint32_t r = m;
    if (frac > 0.5f || (frac == 0.5f && (m & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  // Normal: rebias the exponent and round the 13 dropped bits to even.
  uint32_t v = abs - 0x38000000u;
  const uint32_t rest = v & 0x1fffu;
  v >>= 13;
  if (rest > 0x1000u || (rest == 0x1000u && (v & 1u))) ++v;
  return static_cast<uint16_t>(sign | v);
}

float Bf16ToFloat(uint16_t b) {
  return FromBits(static_cast<uint32_t>(b) << 16);
}

uint16_t FloatToBf16(float f) {
  const uint32_t u = Bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  }
  const uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

}  // namespace ascend::hccl
