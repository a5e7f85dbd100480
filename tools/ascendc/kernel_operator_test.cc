// kernel_operator.h without the runtime: half conversions, tensors and queues,
// the typed entry's argument layout, printf and traps, with block contexts
// made by hand.
#include "kernel_operator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

// --- A hand-made block context -----------------------------------------------
struct FakeBlock {
  aclsimKernelContext ctx{};
  std::vector<uint32_t> raised;
  std::string printed;
};

void RecordRaise(const aclsimKernelContext *ctx, uint32_t code) {
  reinterpret_cast<FakeBlock *>(ctx->runtime)->raised.push_back(code);
}
void RecordPrint(const aclsimKernelContext *ctx, const char *text,
                 size_t length) {
  reinterpret_cast<FakeBlock *>(ctx->runtime)->printed.append(text, length);
}

void InitBlock(FakeBlock *block, uint32_t idx, uint32_t num) {
  block->ctx.abiVersion = ACLSIM_KERNEL_ABI_VERSION;
  block->ctx.blockIdx = idx;
  block->ctx.blockNum = num;
  block->ctx.deviceId = 0;
  block->ctx.raiseException = &RecordRaise;
  block->ctx.print = &RecordPrint;
  block->ctx.runtime = block;
}

// Runs entry for blocks 0 .. num - 1 one after the other.
std::vector<FakeBlock> RunBlocks(aclsimKernelEntry entry, uint32_t num,
                                 void *args) {
  std::vector<FakeBlock> blocks(num);
  for (uint32_t i = 0; i < num; ++i) {
    InitBlock(&blocks[i], i, num);
    entry(&blocks[i].ctx, args);
  }
  return blocks;
}

// --- half
// ------------------------------------------------------------------------
uint16_t Bits(half h) { return h.bits; }
float Pow2(int e) { return std::ldexp(1.0f, e); }

TEST(HalfTest, KnownValues) {
  EXPECT_EQ(Bits(half(0.0f)), 0x0000);
  EXPECT_EQ(Bits(half(-0.0f)), 0x8000);
  EXPECT_EQ(Bits(half(1.0f)), 0x3c00);
  EXPECT_EQ(Bits(half(-2.0f)), 0xc000);
  EXPECT_EQ(Bits(half(0.5f)), 0x3800);
  EXPECT_EQ(Bits(half(65504.0f)), 0x7bff);   // the largest half
  EXPECT_EQ(Bits(half(Pow2(-14))), 0x0400);  // the smallest normal
  EXPECT_EQ(Bits(half(Pow2(-24))), 0x0001);  // the smallest subnormal
  EXPECT_EQ(Bits(half(std::numeric_limits<float>::infinity())), 0x7c00);
  EXPECT_EQ(Bits(half(-std::numeric_limits<float>::infinity())), 0xfc00);
  EXPECT_TRUE(std::isnan(float(half(std::nanf("")))));
  EXPECT_EQ(float(half::FromBits(0x3555)), 0.333251953125f);
  EXPECT_EQ(float(half::FromBits(0x0001)), Pow2(-24));
  EXPECT_EQ(float(half::FromBits(0x03ff)), Pow2(-14) - Pow2(-24));
}

TEST(HalfTest, RoundsToNearestEven) {
  // Halfway between two halves the even one wins; beyond it the nearer.
  EXPECT_EQ(Bits(half(1.0f + Pow2(-11))), 0x3c00);
  EXPECT_EQ(Bits(half(1.0f + 3 * Pow2(-11))), 0x3c02);
  EXPECT_EQ(Bits(half(1.0f + Pow2(-11) + Pow2(-20))), 0x3c01);
  EXPECT_EQ(Bits(half(65519.0f)), 0x7bff);
  EXPECT_EQ(Bits(half(65520.0f)), 0x7c00);  // halfway to 2^16: infinity
  EXPECT_EQ(Bits(half(1e10f)), 0x7c00);
  // Subnormals and underflow.
  EXPECT_EQ(Bits(half(Pow2(-25))), 0x0000);  // halfway to 2^-24: zero
  EXPECT_EQ(Bits(half(Pow2(-25) * 1.0001f)), 0x0001);
  EXPECT_EQ(Bits(half(3 * Pow2(-25))), 0x0002);  // 1.5 steps: even 2
  EXPECT_EQ(Bits(half(5 * Pow2(-25))), 0x0002);  // 2.5 steps: even 2
  EXPECT_EQ(Bits(half(Pow2(-30))), 0x0000);
  EXPECT_EQ(Bits(half(-Pow2(-30))), 0x8000);
  // The largest subnormal plus half a step rounds up to the smallest normal.
  EXPECT_EQ(Bits(half(Pow2(-14) - Pow2(-25))), 0x0400);
}

TEST(HalfTest, EveryHalfSurvivesFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const half h = half::FromBits(static_cast<uint16_t>(bits));
    const float f = h;
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(float(half(f)))) << bits;
      continue;
    }
    ASSERT_EQ(Bits(half(f)), bits) << "bits " << bits << " value " << f;
  }
}

#if defined(__FLT16_MANT_DIG__)
// The compiler's own binary16 conversion rounds to nearest even too.
TEST(HalfTest, AgreesWithTheCompilersFloat16) {
  uint32_t state = 12345;
  for (int i = 0; i < 2000000; ++i) {
    state = state * 1664525U + 1013904223U;
    float f;
    std::memcpy(&f, &state, sizeof f);
    if (std::isnan(f)) continue;
    const _Float16 reference = static_cast<_Float16>(f);
    uint16_t expected;
    std::memcpy(&expected, &reference, sizeof expected);
    ASSERT_EQ(Bits(half(f)), expected) << "float bits " << state;
    ASSERT_EQ(float(half::FromBits(expected)), static_cast<float>(reference));
  }
}
#endif

TEST(HalfTest, ArithmeticGoesThroughFloat) {
  half a = 1.5f;
  half b = 2.25f;
  half c = a + b;  // float arithmetic, rounded back
  EXPECT_EQ(float(c), 3.75f);
  c += 0.25f;
  EXPECT_EQ(float(c), 4.0f);
  EXPECT_EQ(float(-c), -4.0f);
  EXPECT_TRUE(a < b);
  EXPECT_EQ(float(half(3)), 3.0f);
}

// --- Tensors and queues
// --------------------------------------------------------------- CANN's
// vector-add pattern: each block copies tiles into local memory through input
// queues, adds them, and copies the sums out through an output queue.
constexpr int32_t kBlocks = 4;
constexpr int32_t kBlockLength = 256;
constexpr int32_t kTiles = 4;
constexpr int32_t kBufferNum = 2;
constexpr int32_t kTileLength = kBlockLength / kTiles / kBufferNum;

template <typename T>
class VectorAdd {
 public:
  void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const int64_t start = kBlockLength * AscendC::GetBlockIdx();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start, kBlockLength);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start, kBlockLength);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z) + start, kBlockLength);
    pipe_.InitBuffer(inX_, kBufferNum, kTileLength * sizeof(T));
    pipe_.InitBuffer(inY_, kBufferNum, kTileLength * sizeof(T));
    pipe_.InitBuffer(outZ_, kBufferNum, kTileLength * sizeof(T));
  }
  void Process() {
    for (int32_t i = 0; i < kTiles * kBufferNum; ++i) {
      AscendC::LocalTensor<T> x = inX_.template AllocTensor<T>();
      AscendC::LocalTensor<T> y = inY_.template AllocTensor<T>();
      AscendC::DataCopy(x, xGm_[i * kTileLength], kTileLength);
      AscendC::DataCopy(y, yGm_[i * kTileLength], kTileLength);
      inX_.EnQue(x);
      inY_.EnQue(y);

      AscendC::LocalTensor<T> xin = inX_.template DeQue<T>();
      AscendC::LocalTensor<T> yin = inY_.template DeQue<T>();
      AscendC::LocalTensor<T> z = outZ_.template AllocTensor<T>();
      AscendC::Add(z, xin, yin, kTileLength);
      outZ_.template EnQue<T>(z);
      inX_.FreeTensor(xin);
      inY_.FreeTensor(yin);

      AscendC::LocalTensor<T> zout = outZ_.template DeQue<T>();
      AscendC::DataCopy(zGm_[i * kTileLength], zout, kTileLength);
      outZ_.FreeTensor(zout);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inX_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outZ_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<T> yGm_;
  AscendC::GlobalTensor<T> zGm_;
};

extern "C" __global__ __aicore__ void add_half(GM_ADDR x, GM_ADDR y,
                                               GM_ADDR z) {
  VectorAdd<half> op;
  op.Init(x, y, z);
  op.Process();
}
extern "C" __global__ __aicore__ void add_float(GM_ADDR x, GM_ADDR y,
                                                GM_ADDR z) {
  VectorAdd<float> op;
  op.Init(x, y, z);
  op.Process();
}

struct ThreePointers {
  uint8_t *x, *y, *z;
};

TEST(PipelineTest, HalfVectorAddOverBlocks) {
  const int n = kBlocks * kBlockLength;
  std::vector<half> x(n), y(n), z(n, half(-1.0f));
  for (int i = 0; i < n; ++i) {
    x[i] = half(0.5f * i);
    y[i] = half(1000.0f - 0.25f * i);
  }
  ThreePointers args{reinterpret_cast<uint8_t *>(x.data()),
                     reinterpret_cast<uint8_t *>(y.data()),
                     reinterpret_cast<uint8_t *>(z.data())};
  const auto blocks =
      RunBlocks(&AscendC::Sim::Entry<&add_half>, kBlocks, &args);
  for (const FakeBlock &b : blocks) EXPECT_TRUE(b.raised.empty());
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(Bits(z[i]), Bits(half(float(x[i]) + float(y[i])))) << i;
  }
}

TEST(PipelineTest, FloatVectorAddOverBlocks) {
  const int n = kBlocks * kBlockLength;
  std::vector<float> x(n), y(n), z(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.1f * i;
    y[i] = 3.0f * i;
  }
  ThreePointers args{reinterpret_cast<uint8_t *>(x.data()),
                     reinterpret_cast<uint8_t *>(y.data()),
                     reinterpret_cast<uint8_t *>(z.data())};
  RunBlocks(&AscendC::Sim::Entry<&add_float>, kBlocks, &args);
  for (int i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

extern "C" __global__ __aicore__ void vector_ops(GM_ADDR io) {
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(io), 64);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  pipe.InitBuffer(tmp, 3 * 8 * sizeof(float));
  AscendC::LocalTensor<float> all = tmp.Get<float>();
  AscendC::LocalTensor<float> a = all;
  AscendC::LocalTensor<float> b = all[8];
  AscendC::LocalTensor<float> c = all[16];
  AscendC::DataCopy(a, gm, 8);
  AscendC::Duplicate(b, 2.0f, 8);
  AscendC::Mul(c, a, b, 8);   // 2a
  AscendC::Adds(c, c, 1, 8);  // 2a + 1
  AscendC::DataCopy(gm[8], c, 8);
  AscendC::Sub(c, a, b, 8);
  AscendC::DataCopy(gm[16], c, 8);
  AscendC::Div(c, a, b, 8);
  AscendC::DataCopy(gm[24], c, 8);
  AscendC::Max(c, a, b, 8);
  AscendC::DataCopy(gm[32], c, 8);
  AscendC::Muls(c, a, -1.0f, 8);
  AscendC::Abs(c, c, 8);
  AscendC::DataCopy(gm[40], c, 8);
  AscendC::Exp(c, a, 8);
  AscendC::DataCopy(gm[48], c, 8);
  AscendC::Min(c, a, b, 8);
  AscendC::Relu(c, c, 8);
  AscendC::DataCopy(gm[56], c, 8);
}

TEST(PipelineTest, VectorOperations) {
  std::vector<float> io(64, 0.0f);
  for (int i = 0; i < 8; ++i) io[i] = static_cast<float>(i) - 2.0f;
  uint8_t *arg = reinterpret_cast<uint8_t *>(io.data());
  const auto blocks = RunBlocks(&AscendC::Sim::Entry<&vector_ops>, 1, &arg);
  EXPECT_TRUE(blocks[0].raised.empty());
  for (int i = 0; i < 8; ++i) {
    const float a = io[i];
    EXPECT_EQ(io[8 + i], 2 * a + 1);
    EXPECT_EQ(io[16 + i], a - 2);
    EXPECT_EQ(io[24 + i], a / 2);
    EXPECT_EQ(io[32 + i], a > 2 ? a : 2);
    EXPECT_EQ(io[40 + i], std::fabs(a));
    EXPECT_FLOAT_EQ(io[48 + i], std::exp(a));
    EXPECT_EQ(io[56 + i], (a < 2 ? a : 2) > 0 ? (a < 2 ? a : 2) : 0);
  }
}

// --- Stores to global memory through the block's write target (ABI 2) ------
constexpr uint32_t kTargetElements = 64 * 1024;  // 256 KiB of float

// The write target of these tests: every range asked for is recorded, and
// the bytes are shown in a shadow copy, so a store that bypassed the target
// lands in the real buffer instead.
struct TargetLog {
  uintptr_t real = 0;
  std::vector<float> shadow = std::vector<float>(kTargetElements, 0.0f);
  std::vector<std::pair<uintptr_t, size_t>> asked;
};
TargetLog *g_target_log = nullptr;

void *ShadowTarget(const aclsimKernelContext *, void *dst, size_t size) {
  g_target_log->asked.emplace_back(reinterpret_cast<uintptr_t>(dst), size);
  const uintptr_t offset =
      reinterpret_cast<uintptr_t>(dst) - g_target_log->real;
  return reinterpret_cast<uint8_t *>(g_target_log->shadow.data()) + offset;
}

extern "C" __global__ __aicore__ void target_stores(GM_ADDR out) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), kTargetElements);
  g.SetValue(0, 1.0f);
  g.SetValue(1, 2.0f);  // the same granule: no second request
  g(20000) = 3.0f;
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 1024 * sizeof(float));
  AscendC::LocalTensor<float> t = q.AllocTensor<float>();
  AscendC::Duplicate(t, 4.0f, 1024);
  AscendC::DataCopy(g[40000], t, 1024);
  q.FreeTensor(t);
}

TEST(WriteTargetTest, GlobalStoresGoThroughTheTarget) {
  std::vector<float> real(kTargetElements, 0.0f);
  TargetLog log;
  log.real = reinterpret_cast<uintptr_t>(real.data());
  g_target_log = &log;
  FakeBlock block;
  InitBlock(&block, 0, 1);
  block.ctx.writeTarget = &ShadowTarget;
  uint8_t *arg = reinterpret_cast<uint8_t *>(real.data());
  AscendC::Sim::Entry<&target_stores>(&block.ctx, &arg);
  g_target_log = nullptr;
  EXPECT_TRUE(block.raised.empty());
  EXPECT_EQ(real, std::vector<float>(kTargetElements, 0.0f));
  EXPECT_EQ(log.shadow[0], 1.0f);
  EXPECT_EQ(log.shadow[1], 2.0f);
  EXPECT_EQ(log.shadow[20000], 3.0f);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(log.shadow[40000 + i], 4.0f) << i;
  // One request per single-store granule (inside the tensor, at most
  // 64 KiB), one per copy of exactly its bytes.
  ASSERT_EQ(log.asked.size(), 3u);
  const uintptr_t begin = log.real, end = log.real + kTargetElements * 4;
  for (int k = 0; k < 2; ++k) {
    EXPECT_GE(log.asked[k].first, begin);
    EXPECT_LE(log.asked[k].first + log.asked[k].second, end);
    EXPECT_LE(log.asked[k].second, 64u * 1024u);
  }
  EXPECT_LE(log.asked[1].first, log.real + 20000 * 4);
  EXPECT_GE(log.asked[1].first + log.asked[1].second, log.real + 20001 * 4);
  EXPECT_EQ(log.asked[2].first, log.real + 40000 * 4);
  EXPECT_EQ(log.asked[2].second, 1024u * 4u);
}

TEST(WriteTargetTest, AVersionOneContextWritesInPlace) {
  std::vector<float> real(kTargetElements, 0.0f);
  FakeBlock block;
  InitBlock(&block, 0, 1);
  block.ctx.abiVersion = 1;  // writeTarget is not there to read
  block.ctx.writeTarget = &ShadowTarget;
  uint8_t *arg = reinterpret_cast<uint8_t *>(real.data());
  AscendC::Sim::Entry<&target_stores>(&block.ctx, &arg);
  EXPECT_EQ(real[0], 1.0f);
  EXPECT_EQ(real[20000], 3.0f);
  EXPECT_EQ(real[40000], 4.0f);
}

// Local memory is the pipe's, per block, and a queue hands out its buffers
// round robin.
extern "C" __global__ __aicore__ void queue_buffers(GM_ADDR out) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> que;
  pipe.InitBuffer(que, 2, 40);  // rounded up to 64 bytes each
  AscendC::LocalTensor<int32_t> t0 = que.AllocTensor<int32_t>();
  AscendC::LocalTensor<int32_t> t1 = que.AllocTensor<int32_t>();
  auto *result = reinterpret_cast<uintptr_t *>(out);
  result[0] = reinterpret_cast<uintptr_t>(t0.GetPhyAddr());
  result[1] = reinterpret_cast<uintptr_t>(t1.GetPhyAddr());
  result[2] = t0.GetSize();
  que.EnQue(t1);
  que.EnQue(t0);
  AscendC::LocalTensor<int32_t> first = que.DeQue<int32_t>();
  result[3] = reinterpret_cast<uintptr_t>(first.GetPhyAddr());
  que.FreeTensor(first);
  AscendC::LocalTensor<int32_t> again = que.AllocTensor<int32_t>();
  result[4] = reinterpret_cast<uintptr_t>(again.GetPhyAddr());
}

TEST(PipelineTest, QueueBuffers) {
  uintptr_t result[5] = {};
  uint8_t *arg = reinterpret_cast<uint8_t *>(result);
  const auto blocks = RunBlocks(&AscendC::Sim::Entry<&queue_buffers>, 1, &arg);
  EXPECT_TRUE(blocks[0].raised.empty());
  EXPECT_EQ(result[0] % 32, 0u);
  EXPECT_EQ(result[1] - result[0], 64u);
  EXPECT_EQ(result[2], 64u / sizeof(int32_t));
  EXPECT_EQ(result[3], result[1]);  // first in, first out
  EXPECT_EQ(result[4], result[1]);  // the freed buffer is the free one
}

// --- Misuse and traps end the block with a device exception
// --------------------------
extern "C" __global__ __aicore__ void over_allocate(GM_ADDR out) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 1, 32);
  que.AllocTensor<float>();
  *out = 1;
  que.AllocTensor<float>();  // no free buffer
  *out = 2;
}

extern "C" __global__ __aicore__ void past_the_end(GM_ADDR out) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 32);
  AscendC::LocalTensor<float> t = que.AllocTensor<float>();
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 4);
  AscendC::DataCopy(t, gm, 8);  // only 4 elements in global memory
  *out = 2;
}

extern "C" __global__ __aicore__ void trap_in_odd_blocks(GM_ADDR out) {
  out[AscendC::GetBlockIdx()] = 1;
  if (block_idx % 2 == 1) {
    ::AscendC::Sim::Trap();  // what asm("trap") becomes
  }
  out[AscendC::GetBlockIdx()] = 2;
}

TEST(ExceptionTest, MisuseRaisesAicoreException) {
  uint8_t out = 0;
  uint8_t *arg = &out;
  auto blocks = RunBlocks(&AscendC::Sim::Entry<&over_allocate>, 1, &arg);
  EXPECT_EQ(blocks[0].raised, std::vector<uint32_t>{507015});
  EXPECT_EQ(out, 1);

  float gm[4] = {};
  arg = reinterpret_cast<uint8_t *>(gm);
  blocks = RunBlocks(&AscendC::Sim::Entry<&past_the_end>, 1, &arg);
  EXPECT_EQ(blocks[0].raised, std::vector<uint32_t>{507015});
  EXPECT_EQ(gm[0], 0.0f);
}

TEST(ExceptionTest, TrapRaisesTrapExceptionAndEndsTheBlock) {
  uint8_t out[4] = {};
  uint8_t *arg = out;
  const auto blocks =
      RunBlocks(&AscendC::Sim::Entry<&trap_in_odd_blocks>, 4, &arg);
  for (int i = 0; i < 4; ++i) {
    if (i % 2 == 1) {
      EXPECT_EQ(blocks[i].raised, std::vector<uint32_t>{507016}) << i;
      EXPECT_EQ(out[i], 1) << i;  // nothing after the trap ran
    } else {
      EXPECT_TRUE(blocks[i].raised.empty()) << i;
      EXPECT_EQ(out[i], 2) << i;
    }
  }
  // The thread is no block's any more.
  EXPECT_EQ(AscendC::Sim::Context(), nullptr);
  EXPECT_EQ(block_idx, 0);
}

// --- Block variables and printf
// ---------------------------------------------------------
extern "C" __global__ __aicore__ void print_block(int32_t value, half h) {
  AscendC::printf("block %d of %d: value %d, half %.2f\n",
                  static_cast<int>(block_idx),
                  static_cast<int>(AscendC::GetBlockNum()), value, h);
}

TEST(PrintTest, FormatsOnTheHostIntoTheBlocksBuffer) {
  struct {
    int32_t value;
    half h;
  } args = {42, half(1.25f)};
  const auto blocks = RunBlocks(&AscendC::Sim::Entry<&print_block>, 3, &args);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(blocks[i].printed,
              "block " + std::to_string(i) + " of 3: value 42, half 1.25\n");
  }
}

TEST(PrintTest, LongTextIsWhole) {
  FakeBlock block;
  InitBlock(&block, 0, 1);
  const std::string long_text(3000, 'x');
  {
    AscendC::Sim::ContextScope scope(&block.ctx);
    AscendC::printf("%s|%d", long_text.c_str(), 7);
  }
  EXPECT_EQ(block.printed, long_text + "|7");
}

// --- The entry's argument layout
// -------------------------------------------------------
struct Mixed {
  uint8_t a;
  double b;
  uint16_t c;
  int32_t *d;
  half e;
  uint64_t f;
  float g;
  bool h;
};

Mixed seen;
int calls = 0;

extern "C" __global__ __aicore__ void mixed_params(uint8_t a, double b,
                                                   uint16_t c, int32_t *d,
                                                   half e, uint64_t f, float g,
                                                   bool h) {
  seen = Mixed{a, b, c, d, e, f, g, h};
  ++calls;
}
extern "C" __global__ __aicore__ void no_params() { ++calls; }

TEST(EntryTest, InfoDescribesTheCStructLayout) {
  constexpr const aclsimKernelInfo &info =
      AscendC::Sim::kKernelInfo<&mixed_params>;
  static_assert(info.paramCount == 8, "eight parameters");
  EXPECT_EQ(info.abiVersion, ACLSIM_KERNEL_ABI_VERSION);
  const size_t offsets[] = {offsetof(Mixed, a), offsetof(Mixed, b),
                            offsetof(Mixed, c), offsetof(Mixed, d),
                            offsetof(Mixed, e), offsetof(Mixed, f),
                            offsetof(Mixed, g), offsetof(Mixed, h)};
  const size_t sizes[] = {1, 8, 2, 8, 2, 8, 4, 1};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(info.params[i].offset, offsets[i]) << i;
    EXPECT_EQ(info.params[i].size, sizes[i]) << i;
  }
  EXPECT_EQ((AscendC::Sim::KernelLayout<&mixed_params>::kSize), sizeof(Mixed));

  constexpr const aclsimKernelInfo &none =
      AscendC::Sim::kKernelInfo<&no_params>;
  EXPECT_EQ(none.paramCount, 0u);
  EXPECT_EQ(none.params, nullptr);
  EXPECT_EQ((AscendC::Sim::KernelLayout<&no_params>::kSize), 0u);
}

TEST(EntryTest, UnpacksEachParameterFromItsOffset) {
  int32_t target = 0;
  Mixed args{};
  std::memset(&args, 0xa5, sizeof args);  // padding holds garbage
  args.a = 7;
  args.b = -2.5;
  args.c = 65000;
  args.d = &target;
  args.e = half(0.75f);
  args.f = 0x0123456789abcdefULL;
  args.g = 3.5f;
  args.h = true;
  calls = 0;
  const auto blocks = RunBlocks(&AscendC::Sim::Entry<&mixed_params>, 1, &args);
  EXPECT_TRUE(blocks[0].raised.empty());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen.a, 7);
  EXPECT_EQ(seen.b, -2.5);
  EXPECT_EQ(seen.c, 65000);
  EXPECT_EQ(seen.d, &target);
  EXPECT_EQ(float(seen.e), 0.75f);
  EXPECT_EQ(seen.f, 0x0123456789abcdefULL);
  EXPECT_EQ(seen.g, 3.5f);
  EXPECT_TRUE(seen.h);

  RunBlocks(&AscendC::Sim::Entry<&no_params>, 2, nullptr);
  EXPECT_EQ(calls, 3);
}

TEST(EntryTest, LaunchPackingMatchesTheEntry) {
  // What a <<<>>> launch writes: the arguments converted to the parameter
  // types (int to uint8_t, float to double, ...), at the entry's offsets.
  using Params = AscendC::Sim::KernelSignature<decltype(&mixed_params)>::Params;
  using Layout = AscendC::Sim::KernelLayout<&mixed_params>;
  alignas(Layout::kAlign) unsigned char bytes[Layout::kSize] = {};
  int32_t target = 0;
  AscendC::Sim::PackArgs(bytes, static_cast<Params *>(nullptr),
                         std::make_index_sequence<8>(), 300, 1.5f, 12, &target,
                         2.0f, 99u, 0.25, 1);
  const auto blocks = RunBlocks(&AscendC::Sim::Entry<&mixed_params>, 1, bytes);
  EXPECT_TRUE(blocks[0].raised.empty());
  EXPECT_EQ(seen.a, static_cast<uint8_t>(300));
  EXPECT_EQ(seen.b, 1.5);
  EXPECT_EQ(seen.c, 12);
  EXPECT_EQ(seen.d, &target);
  EXPECT_EQ(float(seen.e), 2.0f);
  EXPECT_EQ(seen.f, 99u);
  EXPECT_EQ(seen.g, 0.25f);
  EXPECT_TRUE(seen.h);
}

// --- The <<<>>> launcher, against a stand-in runtime
// ---------------------------------- This test links no runtime: the two
// functions a launch calls are defined here. Registration is recorded; a launch
// runs its blocks at once, one after the other, through the registered entry.
struct Registered {
  const void *symbol;
  std::string name;
  aclsimKernelEntry entry;
  const aclsimKernelInfo *info;
};
std::vector<Registered> registrations;
std::vector<std::vector<unsigned char>> launchedArgs;
aclError launchResult = ACL_SUCCESS;

}  // namespace

extern "C" aclError aclsimRegisterKernel(const void *symbol, const char *name,
                                         aclsimKernelEntry entry,
                                         const aclsimKernelInfo *info,
                                         aclrtFuncHandle *funcHandle) {
  registrations.push_back(Registered{symbol, name, entry, info});
  if (std::string(name) == "refused_kernel") return ACL_ERROR_INVALID_PARAM;
  *funcHandle = reinterpret_cast<aclrtFuncHandle>(registrations.size());
  return ACL_SUCCESS;
}

extern "C" aclError aclrtLaunchKernelWithHostArgs(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
    aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum) {
  (void)stream;
  (void)cfg;
  (void)placeHolderArray;
  if (placeHolderNum != 0) return ACL_ERROR_INVALID_PARAM;
  if (launchResult != ACL_SUCCESS) return launchResult;
  const Registered &r =
      registrations.at(reinterpret_cast<uintptr_t>(funcHandle) - 1);
  const auto *bytes = static_cast<const unsigned char *>(hostArgs);
  launchedArgs.emplace_back(bytes, bytes + argsSize);
  RunBlocks(r.entry, numBlocks, launchedArgs.back().data());
  return ACL_SUCCESS;
}

namespace {

extern "C" __global__ __aicore__ void fill_blocks(__gm__ int32_t *out,
                                                  int16_t base) {
  out[block_idx] = base + static_cast<int32_t>(block_idx);
}

TEST(LauncherTest, RegistersOnceAndLaunchesWithPackedArguments) {
  int32_t out[6] = {};
  // What `fill_blocks<<<6, nullptr, stream>>>(out, 100)` is rewritten into.
  aclError ret = ::AscendC::Sim::Launcher<&fill_blocks>(
      "fill_blocks", 6, nullptr, nullptr)(out, 100);
  EXPECT_EQ(ret, ACL_SUCCESS);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], 100 + i);
  ASSERT_EQ(registrations.size(), 1u);
  EXPECT_EQ(registrations[0].symbol,
            reinterpret_cast<const void *>(&fill_blocks));
  EXPECT_EQ(registrations[0].name, "fill_blocks");
  EXPECT_EQ(registrations[0].entry, &::AscendC::Sim::Entry<&fill_blocks>);
  EXPECT_EQ(registrations[0].info->paramCount, 2u);
  ASSERT_EQ(launchedArgs.back().size(), 16u);  // {int32_t *, int16_t}

  ret = ::AscendC::Sim::Launcher<&fill_blocks>("fill_blocks", 2, nullptr,
                                               nullptr)(out, 7);
  EXPECT_EQ(ret, ACL_SUCCESS);
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[1], 8);
  EXPECT_EQ(out[2], 102);
  EXPECT_EQ(registrations.size(), 1u);  // registered once

  launchResult = 507899;  // a failing launch answers its code
  ret = ::AscendC::Sim::Launcher<&fill_blocks>("fill_blocks", 2, nullptr,
                                               nullptr)(out, 7);
  EXPECT_EQ(ret, 507899);
  launchResult = ACL_SUCCESS;
}

extern "C" __global__ __aicore__ void refused_kernel() {}

TEST(LauncherTest, ARefusedRegistrationIsTheLaunchsCode) {
  const size_t before = registrations.size();
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ((::AscendC::Sim::Launcher<&refused_kernel>("refused_kernel", 1,
                                                         nullptr, nullptr)()),
              ACL_ERROR_INVALID_PARAM);
  }
  EXPECT_EQ(registrations.size(), before + 1);  // asked once
}

}  // namespace
