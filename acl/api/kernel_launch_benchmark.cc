// Cost of an empty kernel on a stream: enqueue (aclrtLaunchKernelWithHostArgs
// of the `empty` kernel of //testing/kernels:test_kernels.so, one block)
// plus its completion on the device's simulated core, measured in batches of
// 1000 followed by one aclrtSynchronizeStream, and one at a time (launch +
// synchronize: the round trip).
//
//   bazel run -c opt //acl/api:kernel_launch_benchmark
//
// The baseline, measured first in the same run and the same way, is the
// empty host function (aclrtLaunchHostFunc): the cheapest stream task.
// Counters: us_per_launch, x_host_func (kernel cost over the host
// function's) and, for batches, x_target (cost over the 5 us/launch target
// of CONTRACT §6: must stay below 1). items_per_second is launches per
// second. The kernel binary is found at testing/kernels/test_kernels.so
// under the working directory (the runfiles) or at $ACLSIM_TEST_KERNELS.
// Exits non-zero when a benchmark reports an error.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr double kTargetUsPerLaunch = 5;

using Clock = std::chrono::steady_clock;

// The host function's per-launch cost, for batch 1 and the batch.
double g_host_func_us[2] = {0, 0};

const char* KernelsPath() {
  const char* path = std::getenv("ACLSIM_TEST_KERNELS");
  return path != nullptr ? path : "testing/kernels/test_kernels.so";
}

// Device 0, a stream and the empty kernel; made on first use, never
// released (the process ends).
struct Setup {
  aclrtStream stream = nullptr;
  aclrtFuncHandle empty = nullptr;
  std::string error;
};

const Setup& GetSetup() {
  static const Setup* setup = [] {
    auto* s = new Setup;
    aclrtBinHandle binary = nullptr;
    aclError ret = aclrtSetDevice(0);
    if (ret == ACL_SUCCESS) ret = aclrtCreateStream(&s->stream);
    if (ret == ACL_SUCCESS) {
      ret = aclrtBinaryLoadFromFile(KernelsPath(), nullptr, &binary);
    }
    if (ret == ACL_SUCCESS) {
      ret = aclrtBinaryGetFunction(binary, "empty", &s->empty);
    }
    if (ret != ACL_SUCCESS) {
      s->error = "setup (device 0, a stream, " + std::string(KernelsPath()) +
                 ") failed with ACL error " + std::to_string(ret);
    }
    return s;
  }();
  return *setup;
}

void EmptyHostFunc(void*) {}

aclError LaunchEmptyKernel(const Setup& s) {
  return aclrtLaunchKernelWithHostArgs(s.empty, 1, s.stream, nullptr, nullptr,
                                       0, nullptr, 0);
}

aclError LaunchEmptyHostFunc(const Setup& s) {
  return aclrtLaunchHostFunc(s.stream, EmptyHostFunc, nullptr);
}

double UsPerLaunch(const benchmark::State& state, Clock::time_point start,
                   int64_t batch) {
  const double us =
      std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  const double launches = static_cast<double>(state.iterations()) * batch;
  return launches > 0 ? us / launches : 0;
}

// `batch` launches then one synchronize, per iteration.
template <aclError (*kLaunch)(const Setup&)>
double Measure(benchmark::State& state) {
  const Setup& s = GetSetup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return 0;
  }
  const int64_t batch = state.range(0);
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    aclError ret = ACL_SUCCESS;
    for (int64_t i = 0; i < batch && ret == ACL_SUCCESS; ++i) ret = kLaunch(s);
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.stream);
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(("ACL error " + std::to_string(ret)).c_str());
      return 0;
    }
  }
  const double us = UsPerLaunch(state, start, batch);
  state.counters["us_per_launch"] = us;
  state.SetItemsProcessed(state.iterations() * batch);
  return us;
}

void BM_EmptyHostFunc(benchmark::State& state) {
  g_host_func_us[state.range(0) == 1 ? 0 : 1] =
      Measure<LaunchEmptyHostFunc>(state);
}

void BM_EmptyKernel(benchmark::State& state) {
  const double us = Measure<LaunchEmptyKernel>(state);
  if (us == 0) return;
  const int64_t batch = state.range(0);
  const double baseline = g_host_func_us[batch == 1 ? 0 : 1];
  if (baseline > 0) state.counters["x_host_func"] = us / baseline;
  if (batch > 1) state.counters["x_target"] = us / kTargetUsPerLaunch;
}

// Baselines first: their figures are the ratios' denominators.
BENCHMARK(BM_EmptyHostFunc)->Arg(1000)->UseRealTime();
BENCHMARK(BM_EmptyHostFunc)->Arg(1)->UseRealTime();
BENCHMARK(BM_EmptyKernel)->Arg(1000)->UseRealTime();
BENCHMARK(BM_EmptyKernel)->Arg(1)->UseRealTime();

}  // namespace
