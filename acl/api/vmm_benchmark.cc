// Virtual memory management calls on 2 MiB, each against the kernel work
// they stand for done directly, measured in the same iterations
// (alternating, so both see the same machine state):
//
//   bazel run -c opt //acl/api:vmm_benchmark
//
// The baseline pair maps 2 MiB of a memfd with mmap(MAP_SHARED | MAP_FIXED)
// over a PROT_NONE reservation and replaces it with a PROT_NONE anonymous
// mapping again (what the simulator's map and unmap do to the host).
//
//   BM_MapUnmap             aclrtMapMem + aclrtUnmapMem of one pre-made
//                           physical allocation at one pre-made reservation
//                           (target: under 20 us per pair, DESIGN.md §6)
//   BM_ReserveRelease       aclrtReserveMemAddress + aclrtReleaseMemAddress
//   BM_MallocFreePhysical   aclrtMallocPhysical + aclrtFreePhysical
//
// Counters: us_per_pair (the ACL pair), mmap_pair_us (the baseline pair) and
// ratio_vs_mmap = baseline time / ACL time (1 means as cheap as the two
// system calls). Exits non-zero when a benchmark reports an error.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr size_t kTwoMiB = size_t{2} << 20;

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

aclrtPhysicalMemProp DeviceProp() {
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  return prop;
}

// The device, one physical allocation and one reservation for the map
// benchmark, and the baseline's memfd and PROT_NONE window; made on first
// use, never released (the process ends).
struct Setup {
  aclrtDrvMemHandle handle = nullptr;
  void* va = nullptr;
  int fd = -1;
  void* window = nullptr;
  std::string error;
};

Setup* MakeSetup() {
  auto* s = new Setup;
  aclError ret = aclrtSetDevice(0);
  aclrtPhysicalMemProp prop = DeviceProp();
  if (ret == ACL_SUCCESS)
    ret = aclrtMallocPhysical(&s->handle, kTwoMiB, &prop, 0);
  if (ret == ACL_SUCCESS) {
    ret = aclrtReserveMemAddress(&s->va, kTwoMiB, 0, nullptr, 0);
  }
  if (ret != ACL_SUCCESS) {
    s->error = "device setup failed with ACL error " + std::to_string(ret);
    return s;
  }
  s->fd = memfd_create("vmm-benchmark", MFD_CLOEXEC);
  if (s->fd < 0 || ftruncate(s->fd, kTwoMiB) != 0) {
    s->error = "memfd_create failed";
    return s;
  }
  s->window = mmap(nullptr, kTwoMiB, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (s->window == MAP_FAILED) s->error = "mmap of the window failed";
  return s;
}

Setup& GetSetup() {
  static Setup* const setup = MakeSetup();
  return *setup;
}

// The baseline pair, timed; false when the kernel refused.
bool MmapPair(const Setup& s, double& seconds) {
  const Clock::time_point start = Clock::now();
  void* mapped = mmap(s.window, kTwoMiB, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED, s.fd, 0);
  void* unmapped =
      mmap(s.window, kTwoMiB, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  seconds += Seconds(Clock::now() - start);
  return mapped != MAP_FAILED && unmapped != MAP_FAILED;
}

// Each iteration: `pair` (timed, manual time), then the baseline pair.
template <typename Pair>
void RunAgainstMmap(benchmark::State& state, Pair pair) {
  Setup& s = GetSetup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  double op_seconds = 0;
  double mmap_seconds = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const aclError ret = pair(s);
    const double op = Seconds(Clock::now() - start);
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(
          ("ACL call failed with error " + std::to_string(ret)).c_str());
      break;
    }
    if (!MmapPair(s, mmap_seconds)) {
      state.SkipWithError("baseline mmap failed");
      break;
    }
    op_seconds += op;
    state.SetIterationTime(op);
  }
  if (op_seconds > 0 && state.iterations() > 0) {
    const double n = static_cast<double>(state.iterations());
    state.counters["us_per_pair"] = op_seconds / n * 1e6;
    state.counters["mmap_pair_us"] = mmap_seconds / n * 1e6;
    state.counters["ratio_vs_mmap"] = mmap_seconds / op_seconds;
  }
}

void BM_MapUnmap(benchmark::State& state) {
  RunAgainstMmap(state, [](Setup& s) {
    aclError ret = aclrtMapMem(s.va, kTwoMiB, 0, s.handle, 0);
    if (ret == ACL_SUCCESS) ret = aclrtUnmapMem(s.va);
    return ret;
  });
}

void BM_ReserveRelease(benchmark::State& state) {
  RunAgainstMmap(state, [](Setup&) {
    void* va = nullptr;
    aclError ret = aclrtReserveMemAddress(&va, kTwoMiB, 0, nullptr, 0);
    if (ret == ACL_SUCCESS) ret = aclrtReleaseMemAddress(va);
    return ret;
  });
}

void BM_MallocFreePhysical(benchmark::State& state) {
  RunAgainstMmap(state, [](Setup&) {
    aclrtPhysicalMemProp prop = DeviceProp();
    aclrtDrvMemHandle handle = nullptr;
    aclError ret = aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0);
    if (ret == ACL_SUCCESS) ret = aclrtFreePhysical(handle);
    return ret;
  });
}

BENCHMARK(BM_MapUnmap)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReserveRelease)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MallocFreePhysical)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
