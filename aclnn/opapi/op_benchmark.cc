// The operators' speed against plain C++ over the same buffers, measured in
// the same run (DESIGN.md §5.26, §7.1). Each iteration is one pair: the
// baseline, then the operator (or the other way round, alternating); a
// target is judged on the median ratio of the pairs.
//
//   aclnnMatmul of n x n FLOAT (default 2048) against a cache-blocked,
//     multi-threaded triple loop with as many threads as the operator's
//     launch has blocks (the simulated cores it uses): the operator's speed
//     at least 0.5x the reference's.
//   aclnnAdd of two FLOAT tensors of N elements (default 64 Mi) against a
//     plain loop split over as many threads as the launch has blocks: at
//     least 0.7x. (Equal thread counts keep the ratio fair on a loaded
//     machine, where more threads get more of the CPUs.)
//   The fixed cost of an operator: aclnnAddGetWorkspaceSize + aclnnAdd of
//     one element + aclrtSynchronizeStream, against the launch of an empty
//     registered kernel + aclrtSynchronizeStream: at most 5x the time.
//
//   bazel run --config=bench //aclnn:op_benchmark
//   ... -- --matmul_n=N --add_elements=N --fixed_batch=N --pairs=N
//
// Prints one RATIO line per figure; exits non-zero when a measurement
// failed (not when a target is missed).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclsim/aclsim_kernel.h"
#include "benchmark/benchmark.h"

namespace {

using Clock = std::chrono::steady_clock;

int64_t g_matmul_n = 2048;
int64_t g_add_elements = int64_t{64} << 20;
int g_fixed_batch = 2000;
int g_pairs = 3;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Pairs {
  std::vector<double> baseline_s, op_s, ratio;  // ratio: baseline / op
  int threads = 0;
  bool measured() const { return !ratio.empty(); }
  double MeanMs(const std::vector<double>& v) const {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : 1e3 * sum / static_cast<double>(v.size());
  }
};
Pairs g_matmul, g_add, g_fixed;

// Runs `first` and `second` in turns, alternating which goes first, and
// answers (baseline seconds, operator seconds); negative on failure.
template <typename Baseline, typename Op>
std::pair<double, double> Pair(int64_t iteration, Baseline baseline, Op op) {
  double b = 0, o = 0;
  if (iteration % 2 == 0) {
    b = baseline();
    o = op();
  } else {
    o = op();
    b = baseline();
  }
  return {b, o};
}

// Device 0, a stream, an empty registered kernel.
struct Setup {
  aclrtStream stream = nullptr;
  aclrtFuncHandle empty = nullptr;
  bool ok = false;
};

void EmptyKernel(const aclsimKernelContext*, void*) {}

const Setup& GetSetup() {
  static const Setup* setup = [] {
    auto* s = new Setup;
    s->ok = aclrtSetDevice(0) == ACL_SUCCESS &&
            aclrtCreateStream(&s->stream) == ACL_SUCCESS &&
            aclsimRegisterKernel(reinterpret_cast<const void*>(&EmptyKernel),
                                 "op_benchmark_empty", &EmptyKernel, nullptr,
                                 &s->empty) == ACL_SUCCESS;
    return s;
  }();
  return *setup;
}

// A device buffer of n floats with deterministic contents.
float* DeviceFloats(int64_t n, uint32_t seed) {
  void* p = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return nullptr;
  }
  std::vector<float> host(static_cast<size_t>(n));
  uint32_t x = seed;
  for (float& v : host) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>(x >> 8) / float(1 << 24) - 0.5f;
  }
  if (aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) !=
      ACL_SUCCESS) {
    return nullptr;
  }
  return static_cast<float*>(p);
}

aclTensor* Tensor(const std::vector<int64_t>& shape, void* data) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) {
    strides[d - 1] = strides[d] * shape[d];
  }
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(),
                         0, ACL_FORMAT_ND, &n, 1, data);
}

// Runs body(thread) on `threads` threads and waits.
template <typename Body>
void OnThreads(int threads, Body body) {
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (std::thread& t : pool) t.join();
}

// The reference: C = A @ B (n x n, row-major), rows split over threads,
// each thread's rows in blocks of 64 rows x 256 k x 512 columns, the inner
// loop over columns (which the compiler vectorises).
void ReferenceMatmul(const float* a, const float* b, float* c, int64_t n,
                     int threads) {
  OnThreads(threads, [=](int t) {
    const int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
    for (int64_t i = lo; i < hi; ++i) {
      std::memset(c + i * n, 0, static_cast<size_t>(n) * sizeof(float));
    }
    for (int64_t j0 = 0; j0 < n; j0 += 512) {
      const int64_t j1 = std::min(n, j0 + 512);
      for (int64_t k0 = 0; k0 < n; k0 += 256) {
        const int64_t k1 = std::min(n, k0 + 256);
        for (int64_t i0 = lo; i0 < hi; i0 += 64) {
          const int64_t i1 = std::min(hi, i0 + 64);
          for (int64_t i = i0; i < i1; ++i) {
            float* ci = c + i * n;
            for (int64_t k = k0; k < k1; ++k) {
              const float aik = a[i * n + k];
              const float* bk = b + k * n;
              for (int64_t j = j0; j < j1; ++j) ci[j] += aik * bk[j];
            }
          }
        }
      }
    }
  });
}

void BM_MatmulVsBlockedReference(benchmark::State& state) {
  const Setup& s = GetSetup();
  const int64_t n = g_matmul_n;
  float* a = DeviceFloats(n * n, 1);
  float* b = DeviceFloats(n * n, 2);
  float* c = DeviceFloats(n * n, 3);
  aclTensor* ta = Tensor({n, n}, a);
  aclTensor* tb = Tensor({n, n}, b);
  aclTensor* tc = Tensor({n, n}, c);
  void* ws = nullptr;
  uint64_t ws_size = 0;
  aclOpExecutor* e = nullptr;
  bool ok = s.ok && a != nullptr && b != nullptr && c != nullptr &&
            aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &ws_size, &e) == 0 &&
            aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
  // The reference gets as many threads as the launch has blocks.
  const int threads = ok ? static_cast<int>(e->launches.at(0).blocks) : 1;
  if (e != nullptr) aclDestroyAclOpExecutor(e);
  auto op = [&]() -> double {
    const auto start = Clock::now();
    aclOpExecutor* ex = nullptr;
    uint64_t size = 0;
    if (aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &size, &ex) != 0 ||
        aclnnMatmul(ws, size, ex, s.stream) != 0 ||
        aclrtSynchronizeStream(s.stream) != ACL_SUCCESS) {
      return -1;
    }
    return Seconds(start, Clock::now());
  };
  auto reference = [&]() -> double {
    const auto start = Clock::now();
    ReferenceMatmul(a, b, c, n, threads);
    return Seconds(start, Clock::now());
  };
  ok = ok && op() > 0;  // warm-up: first touches, registration
  int64_t iteration = 0;
  for (auto _ : state) {
    if (!ok) break;
    const auto [base, mine] = Pair(iteration++, reference, op);
    if (base < 0 || mine < 0) {
      ok = false;
      break;
    }
    g_matmul.baseline_s.push_back(base);
    g_matmul.op_s.push_back(mine);
    g_matmul.ratio.push_back(base / mine);
    state.SetIterationTime(mine);
  }
  g_matmul.threads = threads;
  if (!ok) state.SkipWithError("the matmul or its setup failed");
  if (g_matmul.measured()) {
    state.counters["x_reference_speed"] = Median(g_matmul.ratio);
    state.counters["gflops"] =
        2.0 * static_cast<double>(n) * n * n / Median(g_matmul.op_s) / 1e9;
  }
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tc);
  for (void* p : {static_cast<void*>(a), static_cast<void*>(b),
                  static_cast<void*>(c), ws}) {
    if (p != nullptr) aclrtFree(p);
  }
}

void BM_AddVsLoop(benchmark::State& state) {
  const Setup& s = GetSetup();
  const int64_t n = g_add_elements;
  float* x = DeviceFloats(n, 4);
  float* y = DeviceFloats(n, 5);
  float* z = DeviceFloats(n, 6);
  aclTensor* tx = Tensor({n}, x);
  aclTensor* ty = Tensor({n}, y);
  aclTensor* tz = Tensor({n}, z);
  const float one = 1;
  aclScalar* alpha = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
  bool ok = s.ok && x != nullptr && y != nullptr && z != nullptr;
  int threads = 1;
  {
    aclOpExecutor* e = nullptr;
    uint64_t size = 0;
    ok = ok && aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &size, &e) == 0;
    if (ok) threads = static_cast<int>(e->launches.at(0).blocks);
    if (e != nullptr) aclDestroyAclOpExecutor(e);
  }
  auto op = [&]() -> double {
    const auto start = Clock::now();
    aclOpExecutor* e = nullptr;
    uint64_t size = 0;
    if (aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &size, &e) != 0 ||
        aclnnAdd(nullptr, 0, e, s.stream) != 0 ||
        aclrtSynchronizeStream(s.stream) != ACL_SUCCESS) {
      return -1;
    }
    return Seconds(start, Clock::now());
  };
  auto loop = [&]() -> double {
    const auto start = Clock::now();
    OnThreads(threads, [=](int t) {
      const int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
      for (int64_t i = lo; i < hi; ++i) z[i] = x[i] + y[i];
    });
    return Seconds(start, Clock::now());
  };
  ok = ok && op() > 0 && loop() > 0;  // warm-up
  int64_t iteration = 0;
  for (auto _ : state) {
    if (!ok) break;
    const auto [base, mine] = Pair(iteration++, loop, op);
    if (base < 0 || mine < 0) {
      ok = false;
      break;
    }
    g_add.baseline_s.push_back(base);
    g_add.op_s.push_back(mine);
    g_add.ratio.push_back(base / mine);
    state.SetIterationTime(mine);
  }
  g_add.threads = threads;
  if (!ok) state.SkipWithError("the add or its setup failed");
  if (g_add.measured()) {
    state.counters["x_loop_speed"] = Median(g_add.ratio);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 3 * n *
                            static_cast<int64_t>(sizeof(float)));
  }
  aclDestroyScalar(alpha);
  for (aclTensor* t : {tx, ty, tz}) aclDestroyTensor(t);
  for (float* p : {x, y, z}) {
    if (p != nullptr) aclrtFree(p);
  }
}

void BM_FixedCostVsEmptyKernel(benchmark::State& state) {
  const Setup& s = GetSetup();
  float* x = DeviceFloats(1, 7);
  float* y = DeviceFloats(1, 8);
  float* z = DeviceFloats(1, 9);
  aclTensor* tx = Tensor({1}, x);
  aclTensor* ty = Tensor({1}, y);
  aclTensor* tz = Tensor({1}, z);
  const float one = 1;
  aclScalar* alpha = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
  const int batch = g_fixed_batch;
  auto op = [&]() -> double {
    const auto start = Clock::now();
    for (int i = 0; i < batch; ++i) {
      aclOpExecutor* e = nullptr;
      uint64_t size = 0;
      if (aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &size, &e) != 0 ||
          aclnnAdd(nullptr, 0, e, s.stream) != 0 ||
          aclrtSynchronizeStream(s.stream) != ACL_SUCCESS) {
        return -1;
      }
    }
    return Seconds(start, Clock::now()) / batch;
  };
  auto empty = [&]() -> double {
    const auto start = Clock::now();
    for (int i = 0; i < batch; ++i) {
      if (aclrtLaunchKernelWithHostArgs(s.empty, 1, s.stream, nullptr, nullptr,
                                        0, nullptr, 0) != ACL_SUCCESS ||
          aclrtSynchronizeStream(s.stream) != ACL_SUCCESS) {
        return -1;
      }
    }
    return Seconds(start, Clock::now()) / batch;
  };
  bool ok = s.ok && x != nullptr && y != nullptr && z != nullptr && op() > 0 &&
            empty() > 0;  // warm-up
  int64_t iteration = 0;
  for (auto _ : state) {
    if (!ok) break;
    const auto [base, mine] = Pair(iteration++, empty, op);
    if (base < 0 || mine < 0) {
      ok = false;
      break;
    }
    g_fixed.baseline_s.push_back(base);
    g_fixed.op_s.push_back(mine);
    g_fixed.ratio.push_back(base / mine);
    state.SetIterationTime(mine);
  }
  if (!ok) state.SkipWithError("the operator or the empty kernel failed");
  if (g_fixed.measured()) {
    state.counters["us_per_op"] = 1e6 * Median(g_fixed.op_s);
    state.counters["x_empty_kernel_time"] = 1 / Median(g_fixed.ratio);
  }
  aclDestroyScalar(alpha);
  for (aclTensor* t : {tx, ty, tz}) aclDestroyTensor(t);
  for (float* p : {x, y, z}) {
    if (p != nullptr) aclrtFree(p);
  }
}

// Removes this benchmark's flags from argv.
bool ParseFlags(int* argc, char** argv) {
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name, int64_t* v) {
      const std::string prefix = std::string("--") + name + "=";
      if (arg.rfind(prefix, 0) != 0) return false;
      *v = std::strtoll(arg.c_str() + prefix.size(), nullptr, 10);
      return true;
    };
    int64_t batch = g_fixed_batch, pairs = g_pairs;
    if (value("matmul_n", &g_matmul_n) ||
        value("add_elements", &g_add_elements)) {
      continue;
    }
    if (value("fixed_batch", &batch)) {
      g_fixed_batch = static_cast<int>(batch);
      continue;
    }
    if (value("pairs", &pairs)) {
      g_pairs = static_cast<int>(pairs);
      continue;
    }
    argv[out++] = argv[i];
  }
  *argc = out;
  return g_matmul_n > 0 && g_add_elements > 0 && g_fixed_batch > 0 &&
         g_pairs > 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!ParseFlags(&argc, argv)) {
    std::fprintf(stderr,
                 "bad --matmul_n, --add_elements, --fixed_batch or "
                 "--pairs\n");
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (aclInit(nullptr) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclInit failed\n");
    return 1;
  }
  benchmark::RegisterBenchmark("BM_MatmulVsBlockedReference",
                               BM_MatmulVsBlockedReference)
      ->Arg(g_matmul_n)
      ->UseManualTime()
      ->Iterations(g_pairs)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AddVsLoop", BM_AddVsLoop)
      ->Arg(g_add_elements)
      ->UseManualTime()
      ->Iterations(g_pairs)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_FixedCostVsEmptyKernel",
                               BM_FixedCostVsEmptyKernel)
      ->UseManualTime()
      ->Iterations(g_pairs)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  (void)aclrtResetDevice(0);
  (void)aclFinalize();

  bool all = true;
  if (g_matmul.measured()) {
    const double r = Median(g_matmul.ratio);
    std::printf(
        "RATIO aclnnMatmul %lldx%lld FLOAT vs blocked C++ (%d threads): %.1f "
        "ms vs %.1f ms, median of %zu pairs = %.2fx the reference's speed "
        "(target >= 0.5x) %s\n",
        static_cast<long long>(g_matmul_n), static_cast<long long>(g_matmul_n),
        g_matmul.threads, g_matmul.MeanMs(g_matmul.op_s),
        g_matmul.MeanMs(g_matmul.baseline_s), g_matmul.ratio.size(), r,
        r >= 0.5 ? "MET" : "MISSED");
  } else {
    std::printf("RATIO aclnnMatmul: not measured\n");
    all = false;
  }
  if (g_add.measured()) {
    const double r = Median(g_add.ratio);
    std::printf(
        "RATIO aclnnAdd %lld FLOAT vs a loop (%d threads): %.1f ms vs %.1f "
        "ms, median of %zu pairs = %.2fx the loop's speed (target >= 0.7x) "
        "%s\n",
        static_cast<long long>(g_add_elements), g_add.threads,
        g_add.MeanMs(g_add.op_s), g_add.MeanMs(g_add.baseline_s),
        g_add.ratio.size(), r, r >= 0.7 ? "MET" : "MISSED");
  } else {
    std::printf("RATIO aclnnAdd: not measured\n");
    all = false;
  }
  if (g_fixed.measured()) {
    const double r = 1 / Median(g_fixed.ratio);
    std::printf(
        "RATIO fixed cost (aclnnAddGetWorkspaceSize + aclnnAdd of 1 element + "
        "synchronize) vs an empty kernel launch + synchronize: %.1f us vs "
        "%.1f us, median of %zu pairs = %.2fx the time (target <= 5x) %s\n",
        1e3 * g_fixed.MeanMs(g_fixed.op_s),
        1e3 * g_fixed.MeanMs(g_fixed.baseline_s), g_fixed.ratio.size(), r,
        r <= 5 ? "MET" : "MISSED");
  } else {
    std::printf("RATIO fixed cost: not measured\n");
    all = false;
  }
  return all ? 0 : 1;
}
