// What write tracking costs the writer (DESIGN.md §4.14): a memcpy of 256 MiB
// into shared device-like memory (memfd, populated) with the range armed,
// and the same memcpy through an untracked alias mapping of the same file
// (how the runtime's own writers avoid the faults), each against a memcpy
// into untracked memory in the same iteration; and the cost of one scan
// that collects and re-arms the range.
//
//   bazel run --config=bench //device/sim/internal:write_tracker_benchmark
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "device/sim/internal/write_tracker.h"

namespace ascend::device::sim::internal {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void BM_TrackedMemcpy(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0)) << 20;
  absl::StatusOr<std::unique_ptr<WriteTracker>> tracker =
      WriteTracker::Create();
  if (!tracker.ok()) {
    // Nothing to measure: the runtime makes full copies here.
    std::printf("write tracking unavailable: %s\n",
                tracker.status().ToString().c_str());
    for (auto _ : state) {
    }
    return;
  }
  const int fd = memfd_create("write_tracker_benchmark", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    state.SkipWithError("no memfd");
    return;
  }
  void* dst = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (dst == MAP_FAILED) {
    close(fd);
    state.SkipWithError("no mapping");
    return;
  }
  // The untracked baseline: another mapping of the same kind, never
  // registered.
  const int plain_fd = memfd_create("write_tracker_benchmark", MFD_CLOEXEC);
  void* untracked =
      plain_fd < 0 || ftruncate(plain_fd, static_cast<off_t>(bytes)) != 0
          ? MAP_FAILED
          : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, plain_fd,
                 0);
  if (untracked == MAP_FAILED) {
    state.SkipWithError("no second mapping");
    munmap(dst, bytes);
    close(fd);
    if (plain_fd >= 0) close(plain_fd);
    return;
  }
  // The runtime's alias of the tracked memory: the same file, never
  // registered.
  void* alias = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (alias == MAP_FAILED) {
    state.SkipWithError("no alias mapping");
    munmap(dst, bytes);
    munmap(untracked, bytes);
    close(fd);
    close(plain_fd);
    return;
  }
  std::vector<char> src(bytes, 3);
  std::memset(dst, 1, bytes);  // populated, as device memory in use is
  std::memset(untracked, 1, bytes);
  std::memset(alias, 1, bytes);
  const uint64_t addr = reinterpret_cast<uint64_t>(dst);
  if (!(*tracker)->Register(addr, bytes).ok()) {
    state.SkipWithError("register failed");
    munmap(dst, bytes);
    close(fd);
    return;
  }
  double plain = 0, armed = 0, through_alias = 0, scan = 0;
  for (auto _ : state) {
    // Untracked.
    auto start = Clock::now();
    std::memcpy(untracked, src.data(), bytes);
    plain += Since(start);
    // Armed: every first write to a page takes a fault.
    (void)(*tracker)->Arm(addr, bytes);
    start = Clock::now();
    std::memcpy(dst, src.data(), bytes);
    armed += Since(start);
    // Armed, written through the alias: no fault, and not seen by the scan
    // (the runtime records these writes itself).
    (void)(*tracker)->Arm(addr, bytes);
    start = Clock::now();
    std::memcpy(alias, src.data(), bytes);
    through_alias += Since(start);
    std::memset(dst, 2, 4096);  // one page the scan must find
    // One scan that collects and re-arms every page.
    start = Clock::now();
    auto written = (*tracker)->Collect(addr, bytes, /*rearm=*/true);
    scan += Since(start);
    if (!written.ok() || written->empty()) {
      state.SkipWithError("the scan found no written page");
      break;
    }
  }
  const double n = static_cast<double>(state.iterations());
  if (n > 0 && armed > 0 && through_alias > 0) {
    state.counters["armed_vs_plain"] = plain / armed;
    state.counters["alias_vs_plain"] = plain / through_alias;
    state.counters["scan_ms"] = scan / n * 1e3;
    std::printf(
        "RATIO memcpy of %zu MiB into armed memory vs untracked: %.3fx; "
        "through an untracked alias of it: %.3fx (target >= 0.9x); one "
        "scan: %.2f ms\n",
        bytes >> 20, plain / armed, plain / through_alias, scan / n * 1e3);
  }
  (void)(*tracker)->Unregister(addr, bytes);
  munmap(dst, bytes);
  munmap(untracked, bytes);
  munmap(alias, bytes);
  close(fd);
  close(plain_fd);
}
BENCHMARK(BM_TrackedMemcpy)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ascend::device::sim::internal
