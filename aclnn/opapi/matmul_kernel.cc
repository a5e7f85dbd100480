// The matrix-multiply kernel (matmul_args.h): runs on the simulated cores,
// one call per block, each block a contiguous run of output tiles.
//
// The micro-kernels are written once over GCC/Clang vector types (plain
// loops left GCC 12 shuffling across rows instead of keeping the register
// block in registers) and compiled three times: for any CPU (4-wide), and
// with the x86 target attributes for AVX2+FMA and AVX-512F; the best one the
// host CPU runs is chosen at run time.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opapi/convert.h"
#include "aclnn/opapi/kernel_args.h"
#include "aclnn/opapi/matmul_args.h"

namespace ascend::nn {
namespace {

#define ACLNN_INLINE inline __attribute__((always_inline))

// ---------------------------------------------------------------------------
// Micro-kernels: C[MR x NR] (+)= A panel (kc x MR) * B panel (kc x NR).

template <int W>
struct Vec {
  typedef float type __attribute__((vector_size(W * 4), aligned(4), may_alias));
};

template <int W, int MR, int NV>
ACLNN_INLINE void MicroKernel(int64_t kc, const float* a, const float* b,
                              float* c, int64_t ldc, bool first) {
  using V = typename Vec<W>::type;
  constexpr int NR = W * NV;
  V acc[MR][NV];
  for (int i = 0; i < MR; ++i) {
    for (int v = 0; v < NV; ++v) acc[i][v] = V{};
  }
  for (int64_t p = 0; p < kc; ++p) {
    V bv[NV];
    for (int v = 0; v < NV; ++v) {
      bv[v] = *reinterpret_cast<const V*>(b + p * NR + v * W);
    }
    for (int i = 0; i < MR; ++i) {
      const V av = V{} + a[p * MR + i];
      for (int v = 0; v < NV; ++v) acc[i][v] += av * bv[v];
    }
  }
  for (int i = 0; i < MR; ++i) {
    for (int v = 0; v < NV; ++v) {
      V* dst = reinterpret_cast<V*>(c + i * ldc + v * W);
      *dst = first ? acc[i][v] : *dst + acc[i][v];
    }
  }
}

// The packed panels of one step times each other into the accumulator
// tile: rows and cols are multiples of MR and NR.
struct PanelJob {
  int64_t rows, cols, kc;
  const float* a;  // rows / MR micro-panels of kc x MR
  const float* b;  // cols / NR micro-panels of kc x NR
  float* c;        // the tile, row-major with ldc
  int64_t ldc;
  bool first;  // the first step: write instead of add
};

template <int W, int MR, int NV>
ACLNN_INLINE void MacroKernel(const PanelJob& j) {
  constexpr int NR = W * NV;
  for (int64_t col = 0; col < j.cols; col += NR) {
    const float* b = j.b + col * j.kc;
    for (int64_t row = 0; row < j.rows; row += MR) {
      MicroKernel<W, MR, NV>(j.kc, j.a + row * j.kc, b, j.c + row * j.ldc + col,
                             j.ldc, j.first);
    }
  }
}

__attribute__((noinline)) void MacroGeneric(const PanelJob& j) {
  MacroKernel<4, 6, 2>(j);
}

#if defined(__x86_64__)
#define ACLNN_HAS_X86_ENGINES 1
__attribute__((noinline, target("avx2,fma"))) void MacroAvx2(
    const PanelJob& j) {
  MacroKernel<8, 6, 2>(j);
}
__attribute__((noinline, target("avx512f"))) void MacroAvx512(
    const PanelJob& j) {
  MacroKernel<16, 8, 2>(j);
}
#endif

struct Engine {
  int mr;
  int nr;
  void (*macro)(const PanelJob&);
};

bool CpuHas(MatmulEngine e) {
  switch (e) {
    case MatmulEngine::kAuto:
    case MatmulEngine::kGeneric:
      return true;
#ifdef ACLNN_HAS_X86_ENGINES
    case MatmulEngine::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case MatmulEngine::kAvx512:
      return __builtin_cpu_supports("avx512f");
#endif
    default:
      return false;
  }
}

Engine EngineFor(MatmulEngine e) {
  switch (e) {
#ifdef ACLNN_HAS_X86_ENGINES
    case MatmulEngine::kAvx2:
      return Engine{6, 16, &MacroAvx2};
    case MatmulEngine::kAvx512:
      return Engine{8, 32, &MacroAvx512};
#endif
    default:
      return Engine{6, 8, &MacroGeneric};
  }
}

Engine SelectEngine(int32_t wanted) {
  static const MatmulEngine best = [] {
#ifdef ACLNN_HAS_X86_ENGINES
    __builtin_cpu_init();
#endif
    for (MatmulEngine e : {MatmulEngine::kAvx512, MatmulEngine::kAvx2}) {
      if (CpuHas(e)) return e;
    }
    return MatmulEngine::kGeneric;
  }();
  const auto e = static_cast<MatmulEngine>(wanted);
  if (e != MatmulEngine::kAuto && e != best && CpuHas(e)) return EngineFor(e);
  return EngineFor(best);
}

// ---------------------------------------------------------------------------
// Loading elements: the type's value as a float, then the rounding.

template <int32_t kDtype>
ACLNN_INLINE float LoadAs(const uint8_t* p) {
  uint16_t h;
  if constexpr (kDtype == ACL_FLOAT) {
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
  } else if constexpr (kDtype == ACL_FLOAT16) {
    std::memcpy(&h, p, sizeof h);
    return HalfToFloat(h);
  } else {
    std::memcpy(&h, p, sizeof h);
    return Bf16ToFloat(h);
  }
}

ACLNN_INLINE float RoundToHf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;  // Inf and NaN stay
  u += 0xfffu + ((u >> 13) & 1u);                  // nearest even
  u &= ~0x1fffu;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

template <int32_t kDtype, MatmulRounding kRound>
ACLNN_INLINE float Load(const uint8_t* p) {
  const float v = LoadAs<kDtype>(p);
  if constexpr (kRound == MatmulRounding::kHf32) {
    return RoundToHf32(v);
  } else if constexpr (kRound == MatmulRounding::kFp16) {
    return HalfToFloat(FloatToHalf(v));
  } else {
    return v;
  }
}

// Where one batch's operand starts, and how to reach element (r, c).
struct View {
  const uint8_t* base;
  int64_t rs, cs;  // bytes
  int64_t esize;
  // FRACTAL_NZ (B only).
  bool nz;
  bool nz_transposed;
  int64_t nz_row_blocks, nz_c0;

  const uint8_t* At(int64_t r, int64_t c) const {
    if (!nz) return base + r * rs + c * cs;
    const int64_t xr = nz_transposed ? c : r;
    const int64_t xc = nz_transposed ? r : c;
    const int64_t e = ((xc / nz_c0) * nz_row_blocks + xr / 16) * 16 * nz_c0 +
                      (xr % 16) * nz_c0 + xc % nz_c0;
    return base + e * esize;
  }
};

// A's rows [r0, r0 + rows) and columns [p0, p0 + kc) into micro-panels of
// MR rows (kc x MR each), rows past `rows` zero up to `rows_padded`.
template <int32_t kDtype, MatmulRounding kRound>
void PackA(const View& a, int64_t r0, int64_t rows, int64_t rows_padded,
           int64_t p0, int64_t kc, int mr, float* dst) {
  for (int64_t ib = 0; ib * mr < rows_padded; ++ib) {
    float* d = dst + ib * mr * kc;
    const int64_t valid =
        std::min<int64_t>(mr, std::max<int64_t>(0, rows - ib * mr));
    if (a.cs == a.esize || valid == 1) {  // along k in memory: row by row
      for (int64_t ii = 0; ii < valid; ++ii) {
        const uint8_t* src = a.At(r0 + ib * mr + ii, p0);
        for (int64_t p = 0; p < kc; ++p) {
          d[p * mr + ii] = Load<kDtype, kRound>(src + p * a.cs);
        }
      }
    } else {
      for (int64_t p = 0; p < kc; ++p) {
        const uint8_t* src = a.At(r0 + ib * mr, p0 + p);
        for (int64_t ii = 0; ii < valid; ++ii) {
          d[p * mr + ii] = Load<kDtype, kRound>(src + ii * a.rs);
        }
      }
    }
    if (valid < mr) {
      for (int64_t p = 0; p < kc; ++p) {
        for (int64_t ii = valid; ii < mr; ++ii) d[p * mr + ii] = 0;
      }
    }
  }
}

// B's rows [p0, p0 + kc) and columns [c0, c0 + cols) into micro-panels of
// NR columns (kc x NR each), columns past `cols` zero up to `cols_padded`.
template <int32_t kDtype, MatmulRounding kRound>
void PackB(const View& b, int64_t p0, int64_t kc, int64_t c0, int64_t cols,
           int64_t cols_padded, int nr, float* dst) {
  for (int64_t jb = 0; jb * nr < cols_padded; ++jb) {
    float* d = dst + jb * nr * kc;
    const int64_t valid =
        std::min<int64_t>(nr, std::max<int64_t>(0, cols - jb * nr));
    if (b.nz) {
      for (int64_t p = 0; p < kc; ++p) {
        for (int64_t jj = 0; jj < valid; ++jj) {
          d[p * nr + jj] =
              Load<kDtype, kRound>(b.At(p0 + p, c0 + jb * nr + jj));
        }
      }
    } else if (b.cs == b.esize || valid == 1) {  // along n in memory
      for (int64_t p = 0; p < kc; ++p) {
        const uint8_t* src = b.At(p0 + p, c0 + jb * nr);
        for (int64_t jj = 0; jj < valid; ++jj) {
          d[p * nr + jj] = Load<kDtype, kRound>(src + jj * b.cs);
        }
      }
    } else {
      for (int64_t jj = 0; jj < valid; ++jj) {
        const uint8_t* src = b.At(p0, c0 + jb * nr + jj);
        for (int64_t p = 0; p < kc; ++p) {
          d[p * nr + jj] = Load<kDtype, kRound>(src + p * b.rs);
        }
      }
    }
    if (valid < nr) {
      for (int64_t p = 0; p < kc; ++p) {
        for (int64_t jj = valid; jj < nr; ++jj) d[p * nr + jj] = 0;
      }
    }
  }
}

using PackAFn = void (*)(const View&, int64_t, int64_t, int64_t, int64_t,
                         int64_t, int, float*);
using PackBFn = void (*)(const View&, int64_t, int64_t, int64_t, int64_t,
                         int64_t, int, float*);

template <MatmulRounding kRound>
PackAFn PackAFor(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return &PackA<ACL_FLOAT, kRound>;
    case ACL_FLOAT16:
      return &PackA<ACL_FLOAT16, kRound>;
    case ACL_BF16:
      return &PackA<ACL_BF16, kRound>;
    default:
      return nullptr;
  }
}

template <MatmulRounding kRound>
PackBFn PackBFor(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return &PackB<ACL_FLOAT, kRound>;
    case ACL_FLOAT16:
      return &PackB<ACL_FLOAT16, kRound>;
    case ACL_BF16:
      return &PackB<ACL_BF16, kRound>;
    default:
      return nullptr;
  }
}

// The accumulator tile's rows x cols into C at (r0, c0), rounded once.
void StoreTile(const float* tile, int64_t ldt, const View& c, int64_t r0,
               int64_t rows, int64_t c0, int64_t cols, int32_t dtype) {
  for (int64_t i = 0; i < rows; ++i) {
    uint8_t* dst = const_cast<uint8_t*>(c.At(r0 + i, c0));
    const float* src = tile + i * ldt;
    if (dtype == ACL_FLOAT && c.cs == c.esize) {
      std::memcpy(dst, src, static_cast<size_t>(cols) * sizeof(float));
    } else {
      StoreRow<float>(src, cols, dtype, dst, c.cs);
    }
  }
}

int64_t Align64(int64_t bytes) { return (bytes + 63) / 64 * 64; }

View ViewOf(const MatmulOperand& o, int64_t batch_offset) {
  View v{};
  v.esize =
      static_cast<int64_t>(ElementSize(static_cast<aclDataType>(o.dtype)));
  v.base = reinterpret_cast<const uint8_t*>(o.addr) + batch_offset * v.esize;
  v.rs = o.row_stride * v.esize;
  v.cs = o.col_stride * v.esize;
  v.nz = o.nz != 0;
  v.nz_transposed = o.nz_transposed != 0;
  v.nz_row_blocks = o.nz_row_blocks;
  v.nz_c0 = o.nz_c0 > 0 ? o.nz_c0 : 1;
  return v;
}

// The element offsets of batch `index` in a, b and c.
void BatchOffsets(const MatmulArgs& args, int64_t index, int64_t* a, int64_t* b,
                  int64_t* c) {
  *a = *b = *c = 0;
  for (int d = args.batch_dims - 1; d >= 0; --d) {
    const int64_t size = args.batch_shape[d];
    const int64_t i = index % size;
    index /= size;
    *a += i * args.a.batch_strides[d];
    *b += i * args.b.batch_strides[d];
    *c += i * args.c.batch_strides[d];
  }
}

int64_t RoundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

}  // namespace

int64_t MatmulScratchBytes(int64_t mc, int64_t nc, int64_t kc) {
  const int64_t f = static_cast<int64_t>(sizeof(float));
  return Align64(mc * kc * f) + Align64(kc * nc * f) + Align64(mc * nc * f);
}

bool MatmulEngineAvailable(MatmulEngine engine) {
#ifdef ACLNN_HAS_X86_ENGINES
  __builtin_cpu_init();
#endif
  return CpuHas(engine);
}

void MatmulKernel(const aclsimKernelContext* ctx, void* raw) {
  MatmulArgs args = *static_cast<const MatmulArgs*>(raw);
  const int64_t blocks = ctx->blockNum == 0 ? 1 : ctx->blockNum;
  const int64_t block = ctx->blockIdx % blocks;
  const int64_t tiles = args.batches * args.m_tiles * args.n_tiles;
  const int64_t lo = tiles * block / blocks;
  const int64_t hi = tiles * (block + 1) / blocks;
  if (lo >= hi) return;
  // C and this block's workspace through the device's write target
  // (kernel_args.h): every byte of C the view reaches, the whole workspace.
  {
    int64_t shape[kArgDims] = {};
    int64_t strides[kArgDims] = {};
    int dims = 0;
    for (int d = 0; d < args.batch_dims && dims < kArgDims - 2; ++d) {
      shape[dims] = args.batch_shape[d];
      strides[dims++] = args.c.batch_strides[d];
    }
    shape[dims] = args.m;
    strides[dims++] = args.c.row_stride;
    shape[dims] = args.n;
    strides[dims++] = args.c.col_stride;
    const size_t esize = args.c.dtype == ACL_FLOAT ? 4 : 2;
    int64_t count = 1;
    for (int d = 0; d < dims; ++d) count *= shape[d];
    args.c.addr =
        WriteAddress(ctx, args.c.addr, shape, strides, dims, esize, 0, count);
    const int64_t per = args.scratch_per_block;
    const uint64_t mine = args.scratch + static_cast<uint64_t>(block * per);
    if (args.scratch != 0 && per > 0) {
      const int64_t one = 1;
      args.scratch = WriteAddress(ctx, mine, &per, &one, 1, 1, 0, per) -
                     static_cast<uint64_t>(block * per);
    }
  }

  PackAFn pack_a = nullptr;
  PackBFn pack_b = nullptr;
  switch (static_cast<MatmulRounding>(args.rounding)) {
    case MatmulRounding::kNone:
      pack_a = PackAFor<MatmulRounding::kNone>(args.a.dtype);
      pack_b = PackBFor<MatmulRounding::kNone>(args.b.dtype);
      break;
    case MatmulRounding::kHf32:
      pack_a = PackAFor<MatmulRounding::kHf32>(args.a.dtype);
      pack_b = PackBFor<MatmulRounding::kHf32>(args.b.dtype);
      break;
    case MatmulRounding::kFp16:
      pack_a = PackAFor<MatmulRounding::kFp16>(args.a.dtype);
      pack_b = PackBFor<MatmulRounding::kFp16>(args.b.dtype);
      break;
  }
  const bool sizes_ok =
      args.mc > 0 && args.nc > 0 && args.kc >= 0 &&
      args.mc % kMatmulRowAlign == 0 && args.nc % kMatmulColAlign == 0 &&
      args.scratch_per_block >= MatmulScratchBytes(args.mc, args.nc, args.kc) &&
      (args.k == 0 || args.kc > 0);
  if (pack_a == nullptr || pack_b == nullptr || !sizes_ok ||
      args.scratch == 0) {
    ctx->raiseException(ctx, 0);
    return;
  }
  const Engine engine = SelectEngine(args.engine);
  uint8_t* scratch =
      reinterpret_cast<uint8_t*>(args.scratch) + block * args.scratch_per_block;
  float* a_panel = reinterpret_cast<float*>(scratch);
  float* b_panel = reinterpret_cast<float*>(
      scratch +
      Align64(args.mc * args.kc * static_cast<int64_t>(sizeof(float))));
  float* c_tile = reinterpret_cast<float*>(
      reinterpret_cast<uint8_t*>(b_panel) +
      Align64(args.kc * args.nc * static_cast<int64_t>(sizeof(float))));
  const int64_t steps = args.kc > 0 ? (args.k + args.kc - 1) / args.kc : 0;

  int64_t packed_b_for = -1;  // (batch, n-tile) whose B panel is packed
  for (int64_t t = lo; t < hi; ++t) {
    const int64_t mt = t % args.m_tiles;
    const int64_t nt = t / args.m_tiles % args.n_tiles;
    const int64_t batch = t / args.m_tiles / args.n_tiles;
    int64_t ao, bo, co;
    BatchOffsets(args, batch, &ao, &bo, &co);
    const View a = ViewOf(args.a, ao);
    const View b = ViewOf(args.b, bo);
    const View c = ViewOf(args.c, co);
    const int64_t r0 = mt * args.mc;
    const int64_t rows = std::min(args.mc, args.m - r0);
    const int64_t c0 = nt * args.nc;
    const int64_t cols = std::min(args.nc, args.n - c0);
    const int64_t rows_padded = RoundUp(rows, engine.mr);
    const int64_t cols_padded = RoundUp(cols, engine.nr);
    if (steps == 0) {  // k = 0: the sums are empty
      for (int64_t i = 0; i < rows; ++i) {
        std::fill(c_tile + i * args.nc, c_tile + i * args.nc + cols, 0.0f);
      }
    }
    for (int64_t s = 0; s < steps; ++s) {
      const int64_t p0 = s * args.kc;
      const int64_t kc = std::min(args.kc, args.k - p0);
      // With one step, consecutive tiles of the same columns share B's panel.
      const int64_t b_key = batch * args.n_tiles + nt;
      if (steps > 1 || packed_b_for != b_key) {
        pack_b(b, p0, kc, c0, cols, cols_padded, engine.nr, b_panel);
        packed_b_for = steps > 1 ? -1 : b_key;
      }
      pack_a(a, r0, rows, rows_padded, p0, kc, engine.mr, a_panel);
      const PanelJob job{rows_padded, cols_padded, kc,      a_panel,
                         b_panel,     c_tile,      args.nc, s == 0};
      engine.macro(job);
    }
    StoreTile(c_tile, args.nc, c, r0, rows, c0, cols, args.c.dtype);
  }
}

}  // namespace ascend::nn
