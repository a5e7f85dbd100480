// Throughput of the sim backend's copies and checksum on 256 MiB, each
// compared with a plain memcpy of the same number of bytes measured in the
// same iterations (alternating, so both see the same machine state).
//
//   bazel run --config=bench //device/sim:sim_copy_benchmark
//
// Counters: ratio_vs_memcpy = memcpy time / operation time (>= 1 means as
// fast as memcpy or faster); bytes_per_second for the operation.
//
// Host buffers are 2 MiB aligned like device buffers: with malloc's 16-byte
// offset a destination 16 bytes ahead of its source (mod 4 KiB) makes every
// memcpy 3x slower on x86 (4K aliasing), which would measure the buffers,
// not the device.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "device/device.h"
#include "device/sim/sim_backend.h"

namespace ascend::device::sim {
namespace {

constexpr uint64_t kBytes = uint64_t{256} << 20;

struct HostFree {
  void operator()(unsigned char* p) const { std::free(p); }
};

unsigned char* HostAlloc() {
  return static_cast<unsigned char*>(std::aligned_alloc(2 << 20, kBytes));
}

// Two device buffers and two host buffers, all touched, shared by every
// benchmark (made once, never destroyed).
struct Buffers {
  std::unique_ptr<Backend> backend;
  std::unique_ptr<Device> device;
  DeviceAddr device_a = 0;
  DeviceAddr device_b = 0;
  std::unique_ptr<unsigned char, HostFree> host_src;
  std::unique_ptr<unsigned char, HostFree> host_dst;
  absl::Status status;
};

Buffers* MakeBuffers() {
  auto* buffers = new Buffers;
  SimConfig config;
  config.device_count = 1;
  config.device_memory_bytes = 1ull << 30;
  absl::StatusOr<std::unique_ptr<Backend>> backend = CreateSimBackend(config);
  if (!backend.ok()) {
    buffers->status = backend.status();
    return buffers;
  }
  buffers->backend = std::move(backend).value();
  absl::StatusOr<std::unique_ptr<Device>> device = buffers->backend->Open(0);
  if (!device.ok()) {
    buffers->status = device.status();
    return buffers;
  }
  buffers->device = std::move(device).value();
  absl::StatusOr<DeviceAddr> a = buffers->device->Allocate(kBytes, 4096);
  absl::StatusOr<DeviceAddr> b = buffers->device->Allocate(kBytes, 4096);
  if (!a.ok() || !b.ok()) {
    buffers->status = a.ok() ? b.status() : a.status();
    return buffers;
  }
  buffers->device_a = *a;
  buffers->device_b = *b;
  buffers->host_src.reset(HostAlloc());
  buffers->host_dst.reset(HostAlloc());
  if (buffers->host_src == nullptr || buffers->host_dst == nullptr) {
    buffers->status = absl::ResourceExhaustedError("out of host memory");
    return buffers;
  }
  for (uint64_t i = 0; i < kBytes; ++i) {
    buffers->host_src.get()[i] =
        static_cast<unsigned char>(i * 131 + (i >> 12));
  }
  std::memset(buffers->host_dst.get(), 0, kBytes);
  // Touch every device page once so no benchmark measures page faults.
  buffers->status = buffers->device->Fill(*a, 1, kBytes);
  if (buffers->status.ok()) {
    buffers->status = buffers->device->Fill(*b, 2, kBytes);
  }
  return buffers;
}

Buffers& GetBuffers() {
  static Buffers* const buffers = MakeBuffers();
  return *buffers;
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Runs `op` once per iteration, timed (manual time), and a memcpy of kBytes
// right after it, timed separately.
void RunAgainstMemcpy(benchmark::State& state,
                      const std::function<absl::Status()>& op) {
  Buffers& buffers = GetBuffers();
  if (!buffers.status.ok()) {
    state.SkipWithError(buffers.status.ToString().c_str());
    return;
  }
  double op_seconds = 0;
  double memcpy_seconds = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const absl::Status status = op();
    const Clock::time_point done = Clock::now();
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
    std::memcpy(buffers.host_dst.get(), buffers.host_src.get(), kBytes);
    benchmark::ClobberMemory();
    const Clock::time_point copied = Clock::now();
    op_seconds += Seconds(done - start);
    memcpy_seconds += Seconds(copied - done);
    state.SetIterationTime(Seconds(done - start));
  }
  if (op_seconds > 0) {
    state.counters["ratio_vs_memcpy"] = memcpy_seconds / op_seconds;
    state.counters["memcpy_GBps"] =
        static_cast<double>(state.iterations()) * kBytes / memcpy_seconds / 1e9;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kBytes);
}

void BM_CopyToDevice(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, [&b] {
    return b.device->CopyToDevice(b.device_a, b.host_src.get(), kBytes);
  });
}

void BM_CopyFromDevice(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, [&b] {
    return b.device->CopyFromDevice(b.host_dst.get(), b.device_a, kBytes);
  });
}

void BM_CopyWithinDevice(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, [&b] {
    return b.device->CopyWithinDevice(b.device_b, b.device_a, kBytes);
  });
}

void BM_Checksum(benchmark::State& state) {
  Buffers& b = GetBuffers();
  RunAgainstMemcpy(state, [&b]() -> absl::Status {
    absl::StatusOr<uint64_t> sum = b.device->Checksum(b.device_a, kBytes);
    if (!sum.ok()) return sum.status();
    benchmark::DoNotOptimize(*sum);
    return absl::OkStatus();
  });
}

BENCHMARK(BM_CopyToDevice)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyFromDevice)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CopyWithinDevice)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Checksum)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ascend::device::sim
