// aclrtMemcpy throughput on 256 MiB (host to device, device to host, device
// to device), each against a plain memcpy of the same bytes measured in the
// same iterations (alternating, so both see the same machine state).
//
//   bazel run -c opt //acl/api:memcpy_benchmark
//
// Counters: ratio_vs_memcpy = memcpy time / aclrtMemcpy time (target >= 0.8;
// >= 1 means as fast as memcpy); memcpy_GBps is the baseline's throughput.
// RT_MEMCPY_BENCHMARK_MIB overrides the size (the smoke test uses a small
// one). Host buffers are 2 MiB aligned like device buffers, so 4K aliasing of
// a misaligned pair does not distort either side. Exits non-zero when a
// benchmark reports an error.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

size_t CopyBytes() {
  const char* mib = std::getenv("RT_MEMCPY_BENCHMARK_MIB");
  const long value = mib != nullptr ? std::strtol(mib, nullptr, 10) : 0;
  return static_cast<size_t>(value > 0 ? value : 256) << 20;
}

// Two device and two host buffers, touched once so no benchmark measures page
// faults; made on first use, never released (the process ends).
struct Buffers {
  size_t bytes = 0;
  void* device_a = nullptr;
  void* device_b = nullptr;
  unsigned char* host_src = nullptr;
  unsigned char* host_dst = nullptr;
  std::string error;
};

Buffers* MakeBuffers() {
  auto* b = new Buffers;
  b->bytes = CopyBytes();
  aclError ret = aclrtSetDevice(0);
  if (ret == ACL_SUCCESS) {
    ret = aclrtMalloc(&b->device_a, b->bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (ret == ACL_SUCCESS) {
    ret = aclrtMalloc(&b->device_b, b->bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (ret == ACL_SUCCESS) ret = aclrtMemset(b->device_a, b->bytes, 1, b->bytes);
  if (ret == ACL_SUCCESS) ret = aclrtMemset(b->device_b, b->bytes, 2, b->bytes);
  if (ret != ACL_SUCCESS) {
    b->error = "device setup failed with ACL error " + std::to_string(ret);
    return b;
  }
  b->host_src =
      static_cast<unsigned char*>(std::aligned_alloc(2 << 20, b->bytes));
  b->host_dst =
      static_cast<unsigned char*>(std::aligned_alloc(2 << 20, b->bytes));
  if (b->host_src == nullptr || b->host_dst == nullptr) {
    b->error = "out of host memory";
    return b;
  }
  for (size_t i = 0; i < b->bytes; ++i) {
    b->host_src[i] = static_cast<unsigned char>(i * 131 + (i >> 12));
  }
  std::memset(b->host_dst, 0, b->bytes);
  return b;
}

Buffers& GetBuffers() {
  static Buffers* const buffers = MakeBuffers();
  return *buffers;
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Each iteration: the aclrtMemcpy (timed, manual time), then a memcpy of the
// same size between the host buffers (timed separately).
void RunAgainstMemcpy(benchmark::State& state, void* dst, const void* src,
                      aclrtMemcpyKind kind) {
  Buffers& b = GetBuffers();
  if (!b.error.empty()) {
    state.SkipWithError(b.error.c_str());
    return;
  }
  double op_seconds = 0;
  double memcpy_seconds = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const aclError ret = aclrtMemcpy(dst, b.bytes, src, b.bytes, kind);
    const Clock::time_point done = Clock::now();
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(
          ("aclrtMemcpy failed with ACL error " + std::to_string(ret)).c_str());
      break;
    }
    std::memcpy(b.host_dst, b.host_src, b.bytes);
    benchmark::ClobberMemory();
    const Clock::time_point copied = Clock::now();
    op_seconds += Seconds(done - start);
    memcpy_seconds += Seconds(copied - done);
    state.SetIterationTime(Seconds(done - start));
  }
  if (op_seconds > 0) {
    state.counters["ratio_vs_memcpy"] = memcpy_seconds / op_seconds;
    state.counters["memcpy_GBps"] = static_cast<double>(state.iterations()) *
                                    b.bytes / memcpy_seconds / 1e9;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * b.bytes);
}

void BM_MemcpyHostToDevice(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, b.device_a, b.host_src, ACL_MEMCPY_HOST_TO_DEVICE);
}

void BM_MemcpyDeviceToHost(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, b.host_dst, b.device_a, ACL_MEMCPY_DEVICE_TO_HOST);
}

void BM_MemcpyDeviceToDevice(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, b.device_b, b.device_a, ACL_MEMCPY_DEVICE_TO_DEVICE);
}

BENCHMARK(BM_MemcpyHostToDevice)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemcpyDeviceToHost)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemcpyDeviceToDevice)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
