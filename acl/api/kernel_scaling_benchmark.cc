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
// after (less when other work holds the CPUs). The baseline, timed
// alternately with the launch in every iteration, is the same 64 spins done
// by k plain std::threads taking blocks from an atomic counter: what the
// host offers at that moment. Counters: ms_per_launch, speedup (the 1-core
// time, measured first in the same run, over this one), efficiency
// (speedup / k), threads_ms and threads_speedup (the baseline's), and
// x_threads (ms_per_launch over threads_ms: 1 means the simulated cores
// cost nothing over bare threads). The kernel
// binary is found at testing/kernels/test_kernels.so under the working
// directory (the runfiles) or at $ACLSIM_TEST_KERNELS; the step count is
// $RT_KERNEL_SCALING_BENCHMARK_ITERATIONS (default 1000000). Exits non-zero
// when a benchmark reports an error (also when k exceeds the device's
// cores).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr uint32_t kBlocks = 64;

using Clock = std::chrono::steady_clock;

double g_one_core_ms = 0;
double g_one_thread_ms = 0;

// The spin kernel's work for one block (testing/kernels/test_kernels.c).
double Spin(uint32_t block, uint64_t iterations) {
  double x = block + 1.0;
  for (uint64_t i = 0; i < iterations; ++i) x = x * 0.999999 + 1e-7;
  return x;
}

// The baseline: kBlocks spins on `threads` std::threads.
void SpinOnThreads(uint32_t threads, uint64_t iterations, double* out) {
  std::atomic<uint32_t> next{0};
  auto work = [&] {
    for (uint32_t b = next++; b < kBlocks; b = next++) {
      out[b] = Spin(b, iterations);
    }
  };
  std::vector<std::thread> helpers;
  for (uint32_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
}

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
  std::vector<double> host_out(kBlocks);
  Clock::duration kernel_time{};
  Clock::duration threads_time{};
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    if (ret == ACL_SUCCESS) {
      ret = aclrtLaunchKernelWithHostArgs(s.spin, kBlocks, stream, nullptr,
                                          &args, sizeof args, nullptr, 0);
    }
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(stream);
    const Clock::time_point launched = Clock::now();
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(("ACL error " + std::to_string(ret)).c_str());
      break;
    }
    SpinOnThreads(cores, args.iterations, host_out.data());
    benchmark::DoNotOptimize(host_out.data());
    threads_time += Clock::now() - launched;
    kernel_time += launched - start;
  }
  if (ret == ACL_SUCCESS && state.iterations() > 0) {
    const auto iterations = static_cast<double>(state.iterations());
    const double ms =
        std::chrono::duration<double, std::milli>(kernel_time).count() /
        iterations;
    const double threads_ms =
        std::chrono::duration<double, std::milli>(threads_time).count() /
        iterations;
    if (cores == 1) {
      g_one_core_ms = ms;
      g_one_thread_ms = threads_ms;
    }
    state.counters["ms_per_launch"] = ms;
    state.counters["threads_ms"] = threads_ms;
    state.counters["x_threads"] = ms / threads_ms;
    if (g_one_core_ms > 0) {
      state.counters["speedup"] = g_one_core_ms / ms;
      state.counters["efficiency"] = g_one_core_ms / ms / cores;
      state.counters["threads_speedup"] = g_one_thread_ms / threads_ms;
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
