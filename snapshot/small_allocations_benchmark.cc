// Many small allocations against few large ones holding the same bytes
// (CONTRACT: at most 2x the time), through the C API:
//
//   bazel run -c opt //snapshot:small_allocations_benchmark
//
// 1 GiB (--snapshot_bytes=N) held in allocations of 10,737 bytes (about
// 100,000) or in 16. Inside one Lock, three rounds of Backup, device memory
// loss, Restore; the third round is measured: its Backup has nothing
// written since the last Restore, its Restore puts back everything. The two
// layouts alternate, each pair measured back to back. Printed, medians:
//   RATIO Backup (nothing written), small / large allocations   (<= 2x)
//   RATIO Restore after a loss, small / large allocations       (<= 2x)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "benchmark/benchmark.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kSmall = 10737;
constexpr int kLarge = 16;

uint64_t g_bytes = uint64_t{1} << 30;
bool g_ok = true;
std::vector<double> g_backup[2];  // [small?] seconds
std::vector<double> g_restore[2];

bool Ok(aclError e, const char* what) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(e));
    g_ok = false;
  }
  return e == ACL_SUCCESS;
}
double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// One measurement of `small` or large allocations: allocate and fill,
// three rounds inside one Lock, free. Returns false on a failed call.
bool Measure(bool small) {
  const int pid = static_cast<int>(getpid());
  const uint64_t size = small ? kSmall : g_bytes / kLarge;
  const uint64_t count = small ? g_bytes / kSmall : kLarge;
  std::vector<uint8_t> host(size);
  for (uint64_t i = 0; i < size; ++i) host[i] = static_cast<uint8_t>(i * 7);
  std::vector<void*> device;
  device.reserve(count);
  bool ok = true;
  for (uint64_t i = 0; i < count && ok; ++i) {
    void* p = nullptr;
    ok = Ok(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    if (ok) {
      device.push_back(p);
      host[0] = static_cast<uint8_t>(i);
      ok =
          Ok(aclrtMemcpy(p, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE),
             "aclrtMemcpy");
    }
  }
  ok = ok && Ok(aclrtSnapShotProcessLock(pid, nullptr), "Lock");
  for (int round = 0; round < 3 && ok; ++round) {
    const auto a = Clock::now();
    ok = Ok(aclrtSnapShotProcessBackup(pid, nullptr), "Backup");
    const auto b = Clock::now();
    ok = ok && Ok(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS),
                  "aclsimInjectFault");
    const auto c = Clock::now();
    ok = ok && Ok(aclrtSnapShotProcessRestore(pid, nullptr), "Restore");
    const auto d = Clock::now();
    if (ok && round == 2) {
      g_backup[small].push_back(Seconds(a, b));
      g_restore[small].push_back(Seconds(c, d));
    }
  }
  ok = Ok(aclrtSnapShotProcessUnlock(pid, nullptr), "Unlock") && ok;
  // Spot check: the last allocation holds what was written.
  if (ok && !device.empty()) {
    std::vector<uint8_t> back(size);
    ok = Ok(aclrtMemcpy(back.data(), size, device.back(), size,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            "aclrtMemcpy back");
    if (ok && back != host) {
      std::fprintf(stderr, "restored bytes differ\n");
      g_ok = ok = false;
    }
  }
  for (void* p : device) (void)aclrtFree(p);
  return ok;
}

void BM_SmallAgainstLargeAllocations(benchmark::State& state) {
  for (auto _ : state) {
    const bool small_first = g_backup[0].size() % 2 == 0;
    if (!Measure(small_first) || !Measure(!small_first)) {
      state.SkipWithError("a call failed");
      return;
    }
    state.SetIterationTime(g_restore[1].back());
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void PrintRatio(const char* what, const std::vector<double>& small,
                const std::vector<double>& large) {
  std::vector<double> ratios;
  for (size_t i = 0; i < small.size() && i < large.size(); ++i) {
    ratios.push_back(small[i] / std::max(large[i], 1e-9));
  }
  if (ratios.empty()) return;
  std::sort(ratios.begin(), ratios.end());
  std::printf(
      "RATIO %-44s %.2fx (%.2f-%.2f over %zu pairs; %.1f ms against %.1f "
      "ms; target <= 2x)\n",
      what, Median(ratios), ratios.front(), ratios.back(), ratios.size(),
      Median(small) * 1e3, Median(large) * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flags: --snapshot_bytes=N, and --quick (one pair: the smoke
  // test).
  bool quick = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const char* kFlag = "--snapshot_bytes=";
    if (std::strncmp(argv[i], kFlag, std::strlen(kFlag)) == 0) {
      g_bytes = std::strtoull(argv[i] + std::strlen(kFlag), nullptr, 10);
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (g_bytes < kLarge * kSmall) {
    std::fprintf(stderr, "--snapshot_bytes must be at least %llu\n",
                 static_cast<unsigned long long>(kLarge * kSmall));
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (!Ok(aclInit(nullptr), "aclInit") || !Ok(aclrtSetDevice(0), "SetDevice")) {
    return 1;
  }
  benchmark::RegisterBenchmark("BM_SmallAgainstLargeAllocations",
                               BM_SmallAgainstLargeAllocations)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(quick ? 1 : 5);
  benchmark::RunSpecifiedBenchmarks();
  PrintRatio("Backup (nothing written), small / large", g_backup[1],
             g_backup[0]);
  PrintRatio("Restore after a loss, small / large", g_restore[1], g_restore[0]);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return g_ok ? 0 : 1;
}
