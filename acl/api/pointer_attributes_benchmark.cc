// aclrtPointerGetAttributes on a device pointer, a pinned host pointer and a
// pointer the runtime does not know, each against aclrtGetDevice (an entry
// point that only reads the thread's current context) measured in the same
// iterations (alternating batches, so both see the same machine state),
// in thread CPU time.
//
//   bazel run -c opt //acl/api:pointer_attributes_benchmark
//
// The process holds 4096 device and 1024 pinned host allocations, so the
// lookups search real tables (O(log n), DESIGN.md §5.15). Counters:
// ns_per_call (aclrtPointerGetAttributes), baseline_ns_per_call
// (aclrtGetDevice), ratio_vs_baseline = ns_per_call / baseline_ns_per_call.
// Exits non-zero when a benchmark reports an error.
#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr int kDeviceAllocations = 4096;
constexpr int kHostAllocations = 1024;
constexpr int kBatch = 1000;

struct Pointers {
  std::vector<void*> device;
  std::vector<void*> host;
  void* unknown = nullptr;
  std::string error;
};

Pointers* MakePointers() {
  auto* p = new Pointers;
  aclError ret = aclrtSetDevice(0);
  for (int i = 0; ret == ACL_SUCCESS && i < kDeviceAllocations; ++i) {
    void* ptr = nullptr;
    ret = aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    p->device.push_back(ptr);
  }
  for (int i = 0; ret == ACL_SUCCESS && i < kHostAllocations; ++i) {
    void* ptr = nullptr;
    ret = aclrtMallocHost(&ptr, 4096);
    p->host.push_back(ptr);
  }
  if (ret != ACL_SUCCESS) {
    p->error = "setup failed with ACL error " + std::to_string(ret);
  }
  p->unknown = std::malloc(64);
  return p;
}

Pointers& GetPointers() {
  static Pointers* const pointers = MakePointers();
  return *pointers;
}

// The calling thread's CPU time: the machines these run on are shared, and
// a batch descheduled half-way would otherwise count the wait.
double ThreadSeconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9;
}

void RunAgainstBaseline(benchmark::State& state, const void* ptr,
                        aclrtMemLocationType want) {
  Pointers& p = GetPointers();
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  double op_seconds = 0;
  double baseline_seconds = 0;
  aclrtPtrAttributes attributes;
  int32_t device = -1;
  for (auto _ : state) {
    const double start = ThreadSeconds();
    aclError ret = ACL_SUCCESS;
    for (int i = 0; i < kBatch; ++i) {
      ret |= aclrtPointerGetAttributes(ptr, &attributes);
      benchmark::DoNotOptimize(attributes);
    }
    const double done = ThreadSeconds();
    for (int i = 0; i < kBatch; ++i) {
      ret |= aclrtGetDevice(&device);
      benchmark::DoNotOptimize(device);
    }
    const double baseline_done = ThreadSeconds();
    if (ret != ACL_SUCCESS || attributes.location.type != want) {
      state.SkipWithError("aclrtPointerGetAttributes or aclrtGetDevice failed");
      break;
    }
    op_seconds += done - start;
    baseline_seconds += baseline_done - done;
    state.SetIterationTime(done - start);
  }
  const double calls = static_cast<double>(state.iterations()) * kBatch;
  if (op_seconds > 0 && baseline_seconds > 0) {
    state.counters["ns_per_call"] = op_seconds / calls * 1e9;
    state.counters["baseline_ns_per_call"] = baseline_seconds / calls * 1e9;
    state.counters["ratio_vs_baseline"] = op_seconds / baseline_seconds;
  }
}

void BM_PointerAttributesDevice(benchmark::State& state) {
  Pointers& p = GetPointers();
  const void* ptr = p.device.empty()
                        ? nullptr
                        : static_cast<char*>(p.device[p.device.size() / 2]) + 7;
  RunAgainstBaseline(state, ptr, ACL_MEM_LOCATION_TYPE_DEVICE);
}

void BM_PointerAttributesHost(benchmark::State& state) {
  Pointers& p = GetPointers();
  const void* ptr = p.host.empty()
                        ? nullptr
                        : static_cast<char*>(p.host[p.host.size() / 2]) + 7;
  RunAgainstBaseline(state, ptr, ACL_MEM_LOCATION_TYPE_HOST);
}

void BM_PointerAttributesUnknown(benchmark::State& state) {
  RunAgainstBaseline(state, GetPointers().unknown,
                     ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

BENCHMARK(BM_PointerAttributesDevice)->UseManualTime();
BENCHMARK(BM_PointerAttributesHost)->UseManualTime();
BENCHMARK(BM_PointerAttributesUnknown)->UseManualTime();

}  // namespace
