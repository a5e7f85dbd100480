// Kernels right after a checkpoint (DESIGN.md §4.14), through the C API:
//
//   bazel run -c opt //testing/kernel_writers:kernel_writers_benchmark
//
// Operator loop: a step is aclnnTanh, aclnnAdd and aclnnMuls over three
// tensors of --tensor_mib MiB (128) and a 256 x 256 aclnnMatmul. Each pair
// times a steady step (the step before a checkpoint) and the step right
// after Lock + Backup + Unlock, in the default (incremental) mode.
// AscendC kernel: DataCopy of 256 MiB to global memory, the run before a
// checkpoint against the run right after it. Printed, medians of the pairs:
//   RATIO operator step after a checkpoint / steady step   (target <= 1.2x)
//   RATIO AscendC write untracked / after a checkpoint     (target >= 0.9x)
//   RATIO operator loop: incremental Backup / full Backup  (target <= 1.1x)
// The last pairs a full Backup (ASCENDCL_SNAPSHOT_INCREMENTAL=0) with the
// second of two incremental ones, each after a step that rewrote nearly
// all device memory.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_tanh.h"
#include "benchmark/benchmark.h"
#include "kernel_operator.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t kBlocks = 8;
constexpr uint32_t kTile = 16384;  // floats per DataCopy
constexpr int64_t kMatmul = 256;

uint64_t g_tensor_bytes = uint64_t{128} << 20;
uint64_t g_write_bytes = uint64_t{256} << 20;
aclrtStream g_stream = nullptr;
bool g_ok = true;
std::vector<double> g_step_ratios;        // after / steady
std::vector<double> g_write_ratios;       // untracked / after
std::vector<double> g_checkpoint_ratios;  // incremental / full Backup
std::vector<double> g_window_ratios;      // the same, Lock to Unlock

extern "C" __global__ __aicore__ void bench_copy_out(GM_ADDR src, GM_ADDR dst,
                                                     uint32_t per_block) {
  const uint64_t start = uint64_t{per_block} * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> in, out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src) + start, per_block);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(dst) + start, per_block);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, kTile * sizeof(float));
  for (uint32_t t = 0; t < per_block / kTile; ++t) {
    AscendC::LocalTensor<float> a = q.AllocTensor<float>();
    AscendC::DataCopy(a, in[t * kTile], kTile);
    q.EnQue(a);
    a = q.DeQue<float>();
    AscendC::DataCopy(out[t * kTile], a, kTile);
    q.FreeTensor(a);
  }
}

bool Ok(aclError e, const char *what) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(e));
    g_ok = false;
  }
  return e == ACL_SUCCESS;
}

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void *DeviceFilled(uint64_t bytes, float value) {
  void *p = nullptr;
  if (!Ok(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) {
    return nullptr;
  }
  std::vector<float> host(bytes / sizeof(float), value);
  Ok(aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
     "aclrtMemcpy");
  return p;
}

aclTensor *Tensor(void *data, std::vector<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size() - 1; d > 0; --d) {
    strides[d - 1] = strides[d] * shape[d];
  }
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(),
                         0, ACL_FORMAT_ND, shape.data(), shape.size(), data);
}

bool Checkpoint() {
  const int pid = static_cast<int>(getpid());
  return Ok(aclrtSnapShotProcessLock(pid, nullptr), "Lock") &&
         Ok(aclrtSnapShotProcessBackup(pid, nullptr), "Backup") &&
         Ok(aclrtSnapShotProcessUnlock(pid, nullptr), "Unlock");
}

// Runs one aclnn operator: workspace query, workspace, launch.
template <typename Query, typename Run>
bool RunOp(const char *what, Query query, Run run) {
  uint64_t size = 0;
  aclOpExecutor *executor = nullptr;
  if (query(&size, &executor) != 0) {
    std::fprintf(stderr, "%s: workspace query failed\n", what);
    g_ok = false;
    return false;
  }
  void *workspace = nullptr;
  if (size > 0 &&
      !Ok(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST), what)) {
    return false;
  }
  const bool ok = run(workspace, size, executor) == 0;
  if (!ok) {
    std::fprintf(stderr, "%s failed\n", what);
    g_ok = false;
  }
  Ok(aclrtSynchronizeStream(g_stream), what);
  if (workspace != nullptr) (void)aclrtFree(workspace);
  return ok;
}

struct Loop {
  std::vector<void *> device;
  aclTensor *x = nullptr, *y = nullptr, *t = nullptr, *out = nullptr;
  aclTensor *ma = nullptr, *mb = nullptr, *mc = nullptr;
  aclScalar *one = nullptr, *half = nullptr;

  bool Make() {
    const int64_t n = static_cast<int64_t>(g_tensor_bytes / sizeof(float));
    for (int i = 0; i < 4; ++i) {
      device.push_back(DeviceFilled(g_tensor_bytes, 0.25f * (i + 1)));
    }
    for (int i = 0; i < 3; ++i) {
      device.push_back(
          DeviceFilled(kMatmul * kMatmul * sizeof(float), 0.5f * (i + 1)));
    }
    if (!g_ok) return false;
    x = Tensor(device[0], {n});
    y = Tensor(device[1], {n});
    t = Tensor(device[2], {n});
    out = Tensor(device[3], {n});
    ma = Tensor(device[4], {kMatmul, kMatmul});
    mb = Tensor(device[5], {kMatmul, kMatmul});
    mc = Tensor(device[6], {kMatmul, kMatmul});
    static const float kOne = 1.0f, kHalf = 0.5f;
    one = aclCreateScalar(const_cast<float *>(&kOne), ACL_FLOAT);
    half = aclCreateScalar(const_cast<float *>(&kHalf), ACL_FLOAT);
    return true;
  }
  bool Step() {
    return RunOp(
               "aclnnTanh",
               [&](uint64_t *s, aclOpExecutor **e) {
                 return aclnnTanhGetWorkspaceSize(x, t, s, e);
               },
               [](void *w, uint64_t s, aclOpExecutor *e) {
                 return aclnnTanh(w, s, e, g_stream);
               }) &&
           RunOp(
               "aclnnAdd",
               [&](uint64_t *s, aclOpExecutor **e) {
                 return aclnnAddGetWorkspaceSize(t, y, one, out, s, e);
               },
               [](void *w, uint64_t s, aclOpExecutor *e) {
                 return aclnnAdd(w, s, e, g_stream);
               }) &&
           RunOp(
               "aclnnMuls",
               [&](uint64_t *s, aclOpExecutor **e) {
                 return aclnnMulsGetWorkspaceSize(out, half, x, s, e);
               },
               [](void *w, uint64_t s, aclOpExecutor *e) {
                 return aclnnMuls(w, s, e, g_stream);
               }) &&
           RunOp(
               "aclnnMatmul",
               [&](uint64_t *s, aclOpExecutor **e) {
                 return aclnnMatmulGetWorkspaceSize(ma, mb, mc, 0, s, e);
               },
               [](void *w, uint64_t s, aclOpExecutor *e) {
                 return aclnnMatmul(w, s, e, g_stream);
               });
  }
  ~Loop() {
    for (aclTensor *p : {x, y, t, out, ma, mb, mc}) {
      if (p != nullptr) aclDestroyTensor(p);
    }
    if (one != nullptr) aclDestroyScalar(one);
    if (half != nullptr) aclDestroyScalar(half);
    for (void *p : device) {
      if (p != nullptr) (void)aclrtFree(p);
    }
  }
};

void BM_OperatorStepAfterCheckpoint(benchmark::State &state) {
  Loop loop;
  if (!loop.Make() || !loop.Step() || !Checkpoint()) {
    state.SkipWithError("setup failed");
    return;
  }
  for (auto _ : state) {
    const auto a = Clock::now();
    if (!loop.Step()) break;
    const auto b = Clock::now();
    if (!Checkpoint()) break;
    const auto c = Clock::now();
    if (!loop.Step()) break;
    const auto d = Clock::now();
    state.SetIterationTime(Seconds(c, d));
    g_step_ratios.push_back(Seconds(c, d) / Seconds(a, b));
  }
  if (!g_ok) state.SkipWithError("a call failed");
}

// The Backup of a checkpoint of the operator loop, where each step rewrites
// nearly all device memory: incremental (the second in a row, its base the
// first) against full (ASCENDCL_SNAPSHOT_INCREMENTAL=0), pair by pair. The
// Backup's time, and the whole checkpoint's (Lock to Unlock) in `window`.
double TimedBackup(double *window) {
  const int pid = static_cast<int>(getpid());
  const auto start = Clock::now();
  if (!Ok(aclrtSnapShotProcessLock(pid, nullptr), "Lock")) return -1;
  const auto a = Clock::now();
  const bool ok = Ok(aclrtSnapShotProcessBackup(pid, nullptr), "Backup");
  const auto b = Clock::now();
  if (!Ok(aclrtSnapShotProcessUnlock(pid, nullptr), "Unlock") || !ok) {
    return -1;
  }
  *window = Seconds(start, Clock::now());
  return Seconds(a, b);
}

void BM_OperatorLoopBackupIncrementalAgainstFull(benchmark::State &state) {
  Loop loop;
  if (!loop.Make()) {
    state.SkipWithError("setup failed");
    return;
  }
  for (auto _ : state) {
    double full_window = 0, incremental_window = 0;
    setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "0", 1);
    if (!loop.Step()) break;
    const double full = TimedBackup(&full_window);
    setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "1", 1);
    if (full < 0 || !loop.Step() || TimedBackup(&incremental_window) < 0 ||
        !loop.Step()) {
      break;
    }
    const double incremental = TimedBackup(&incremental_window);
    if (incremental < 0) break;
    state.SetIterationTime(incremental);
    g_checkpoint_ratios.push_back(incremental / full);
    g_window_ratios.push_back(incremental_window / full_window);
  }
  unsetenv("ASCENDCL_SNAPSHOT_INCREMENTAL");
  if (!g_ok) state.SkipWithError("a call failed");
}

void BM_AscendCWriteAfterCheckpoint(benchmark::State &state) {
  void *src = DeviceFilled(g_write_bytes, 1.5f);
  void *dst = DeviceFilled(g_write_bytes, 0.0f);
  const uint32_t per_block =
      static_cast<uint32_t>(g_write_bytes / sizeof(float) / kBlocks);
  auto run = [&] {
    return Ok(::AscendC::Sim::Launcher<&bench_copy_out>(
                  "bench_copy_out", kBlocks, nullptr, g_stream)(
                  static_cast<uint8_t *>(src), static_cast<uint8_t *>(dst),
                  per_block),
              "launch") &&
           Ok(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream");
  };
  if (src == nullptr || dst == nullptr || !run() || !Checkpoint()) {
    state.SkipWithError("setup failed");
  } else {
    for (auto _ : state) {
      const auto a = Clock::now();
      if (!run()) break;  // steady: the pages were written since the last
      const auto b = Clock::now();
      if (!Checkpoint()) break;
      const auto c = Clock::now();
      if (!run()) break;  // the first write after the checkpoint
      const auto d = Clock::now();
      state.SetIterationTime(Seconds(c, d));
      g_write_ratios.push_back(Seconds(a, b) / Seconds(c, d));
    }
  }
  if (src != nullptr) (void)aclrtFree(src);
  if (dst != nullptr) (void)aclrtFree(dst);
  if (!g_ok) state.SkipWithError("a call failed");
}

void PrintRatio(const char *what, std::vector<double> ratios,
                const char *target) {
  if (ratios.empty()) return;
  std::sort(ratios.begin(), ratios.end());
  std::printf("RATIO %-50s %.2fx (%.2f-%.2f over %zu pairs; target %s)\n", what,
              ratios[ratios.size() / 2], ratios.front(), ratios.back(),
              ratios.size(), target);
}

}  // namespace

int main(int argc, char **argv) {
  // Our own flags: --tensor_mib=N, --write_mib=N, and --quick (small, one
  // iteration each: the smoke test).
  bool quick = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--tensor_mib=", 13) == 0) {
      g_tensor_bytes = std::strtoull(argv[i] + 13, nullptr, 10) << 20;
    } else if (std::strncmp(argv[i], "--write_mib=", 12) == 0) {
      g_write_bytes = std::strtoull(argv[i] + 12, nullptr, 10) << 20;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (quick) {
    g_tensor_bytes = uint64_t{4} << 20;
    g_write_bytes = uint64_t{8} << 20;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!Ok(aclInit(nullptr), "aclInit") || !Ok(aclrtSetDevice(0), "SetDevice") ||
      !Ok(aclrtCreateStream(&g_stream), "aclrtCreateStream")) {
    return 1;
  }
  const std::pair<const char *, void (*)(benchmark::State &)> benchmarks[] = {
      {"BM_OperatorStepAfterCheckpoint", BM_OperatorStepAfterCheckpoint},
      {"BM_OperatorLoopBackupIncrementalAgainstFull",
       BM_OperatorLoopBackupIncrementalAgainstFull},
      {"BM_AscendCWriteAfterCheckpoint", BM_AscendCWriteAfterCheckpoint},
  };
  for (const auto &[name, fn] : benchmarks) {
    benchmark::RegisterBenchmark(name, fn)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(quick ? 1 : 9);
  }
  benchmark::RunSpecifiedBenchmarks();
  PrintRatio("operator step after a checkpoint / steady step", g_step_ratios,
             "<= 1.2x");
  PrintRatio("AscendC write untracked / after a checkpoint", g_write_ratios,
             ">= 0.9x");
  PrintRatio("operator loop: incremental Backup / full Backup",
             g_checkpoint_ratios, "<= 1.1x");
  PrintRatio("operator loop: the same, Lock + Backup + Unlock", g_window_ratios,
             "<= 1.1x");
  (void)aclrtDestroyStream(g_stream);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return g_ok ? 0 : 1;
}
