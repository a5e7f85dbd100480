// How a compute-bound kernel scales with the device's simulated cores: one
// launch of the `spin` kernel of //testing/kernels:test_kernels.so over 64
// blocks (each a dependent floating-point chain of `iterations` steps) and
// its synchronize, on a stream limited to k cube cores
// (aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, k)), for k = 1,
// 2, 4, ... up to the device's core count.
//
//   bazel run -c opt //acl/api:kernel_scaling_benchmark
//
// The simulated cores are host threads, so the speed-up is bounded by the
// host's CPUs: on a 2-core machine expect about 2x at 2 cores and no more
// after. Counters: ms_per_launch, speedup (the 1-core time, measured first
// in the same run, over this one) and efficiency (speedup / k). The kernel
// binary is found at testing/kernels/test_kernels.so under the working
// directory (the runfiles) or at $ACLSIM_TEST_KERNELS; the step count is
// $RT_KERNEL_SCALING_BENCHMARK_ITERATIONS (default 1000000). Exits non-zero
// when a benchmark reports an error (also when k exceeds the device's
// cores).
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr uint32_t kBlocks = 64;

using Clock = std::chrono::steady_clock;

double g_one_core_ms = 0;

const char* KernelsPath() {
  const char* path = std::getenv("ACLSIM_TEST_KERNELS");
  return path != nullptr ? path : "testing/kernels/test_kernels.so";
}

uint64_t Iterations() {
  const char* env = std::getenv("RT_KERNEL_SCALING_BENCHMARK_ITERATIONS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 1'000'000;
}

struct SpinArgs {
  uint64_t iterations;
  double* out;
};

// Device 0, the spin kernel and its output; made on first use, never
// released (the process ends).
struct Setup {
  aclrtFuncHandle spin = nullptr;
  double* out = nullptr;
  int64_t cores = 0;
  std::string error;
};

const Setup& GetSetup() {
  static const Setup* setup = [] {
    auto* s = new Setup;
    aclrtBinHandle binary = nullptr;
    void* out = nullptr;
    aclError ret = aclrtSetDevice(0);
    if (ret == ACL_SUCCESS) {
      ret = aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &s->cores);
    }
    if (ret == ACL_SUCCESS) {
      ret = aclrtBinaryLoadFromFile(KernelsPath(), nullptr, &binary);
    }
    if (ret == ACL_SUCCESS) {
      ret = aclrtBinaryGetFunction(binary, "spin", &s->spin);
    }
    if (ret == ACL_SUCCESS) {
      ret = aclrtMalloc(&out, kBlocks * sizeof(double),
                        ACL_MEM_MALLOC_HUGE_FIRST);
    }
    s->out = static_cast<double*>(out);
    if (ret != ACL_SUCCESS) {
      s->error = "setup (device 0, " + std::string(KernelsPath()) +
                 ") failed with ACL error " + std::to_string(ret);
    }
    return s;
  }();
  return *setup;
}

void BM_SpinOnCores(benchmark::State& state) {
  const Setup& s = GetSetup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  const auto cores = static_cast<uint32_t>(state.range(0));
  if (cores > s.cores) {
    state.SkipWithError(
        ("the device has only " + std::to_string(s.cores) + " cube cores")
            .c_str());
    return;
  }
  aclrtStream stream = nullptr;
  aclError ret = aclrtCreateStream(&stream);
  if (ret == ACL_SUCCESS) {
    ret = aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, cores);
  }
  SpinArgs args{Iterations(), s.out};
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    if (ret == ACL_SUCCESS) {
      ret = aclrtLaunchKernelWithHostArgs(s.spin, kBlocks, stream, nullptr,
                                          &args, sizeof args, nullptr, 0);
    }
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(("ACL error " + std::to_string(ret)).c_str());
      break;
    }
  }
  if (ret == ACL_SUCCESS && state.iterations() > 0) {
    const double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - start)
            .count() /
        static_cast<double>(state.iterations());
    if (cores == 1) g_one_core_ms = ms;
    state.counters["ms_per_launch"] = ms;
    if (g_one_core_ms > 0) {
      state.counters["speedup"] = g_one_core_ms / ms;
      state.counters["efficiency"] = g_one_core_ms / ms / cores;
    }
  }
  if (stream != nullptr) (void)aclrtDestroyStream(stream);
}

// 1 core first: its figure is the speed-ups' denominator. 24 is the
// simulated chip's cube core count (aclrtGetDeviceInfo).
BENCHMARK(BM_SpinOnCores)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Arg(16)
    ->Arg(24)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
