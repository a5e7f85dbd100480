// DESIGN.md §4.14: incremental Backup and Restore against full ones of the
// same memory, and what write tracking costs the application, measured in
// the same run through the C API.
//
//   bazel run -c opt //snapshot:incremental_benchmark
//
// Device memory: 1 GiB (--snapshot_bytes=N) in 64 allocations. "1 %
// rewritten": 64 KiB pieces at scattered places, over all 64 allocations,
// half written by aclrtMemcpy and half by code writing the simulated
// device memory directly, as a kernel on a simulated core does. Printed:
//   RATIO incremental Backup / full Backup        (target <= 0.10x)
//   RATIO Lock + Backup after a pre-copy / Lock + full Backup
//                                                 (target <= 0.10x)
//   RATIO incremental Restore / full Restore      (target <= 0.10x)
//   RATIO untracked / tracked write time, aclrtMemcpy of 256 MiB
//                                                  (target >= 0.9x)
//   RATIO the same for raw stores by host code (no target: they keep the
//         fault path, DESIGN.md §4.14; AscendC and operator writes are
//         measured by //testing/kernel_writers:kernel_writers_benchmark)
// Each figure is the median of its iterations. Full Backups run with
// ASCENDCL_SNAPSHOT_INCREMENTAL=0, which also leaves memory untracked.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "benchmark/benchmark.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kAllocations = 64;
constexpr uint64_t kPiece = 64 << 10;

uint64_t g_bytes = uint64_t{1} << 30;
// The tracking-cost write: 256 MiB, or the device memory size if smaller.
uint64_t g_write_bytes = uint64_t{256} << 20;
std::vector<void*> g_device;
uint64_t g_per = 0;
void* g_write_target = nullptr;  // g_write_bytes, for the tracking cost
std::vector<uint8_t> g_host;     // a source for copies
bool g_ok = false;
std::map<std::string, std::vector<double>> g_times;
std::string g_last_incremental_report;  // ascendclSnapshotGetReport's JSON
std::mt19937_64 g_random(42);
// Incremental Backups that started afresh with a full one (DESIGN.md §4.14).
int g_compactions = 0;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}
int Pid() { return static_cast<int>(getpid()); }
void Incremental(bool on) {
  setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", on ? "1" : "0", 1);
}
bool Ok(aclError e) { return e == ACL_SUCCESS; }

bool Cycle() {
  return Ok(aclrtSnapShotProcessLock(Pid(), nullptr)) &&
         Ok(aclrtSnapShotProcessBackup(Pid(), nullptr)) &&
         Ok(aclrtSnapShotProcessUnlock(Pid(), nullptr));
}

// Rewrites 1 % of the device memory in 64 KiB pieces spread over every
// allocation; `copies`: half of them with aclrtMemcpy (not possible while
// the process is locked), else all written directly.
bool RewriteOnePercent(bool copies) {
  const uint64_t pieces = std::max<uint64_t>(g_bytes / 100 / kPiece, 2);
  for (uint64_t k = 0; k < pieces; ++k) {
    auto* base = static_cast<uint8_t*>(g_device[k % kAllocations]);
    auto* at = base + (g_random() % (g_per / kPiece)) * kPiece;
    if (copies && k % 2 == 0) {
      if (!Ok(aclrtMemcpy(at, kPiece, g_host.data(), kPiece,
                          ACL_MEMCPY_HOST_TO_DEVICE))) {
        return false;
      }
    } else {
      std::memset(at, static_cast<int>(k), kPiece);
    }
  }
  return true;
}

bool Setup() {
  if (!Ok(aclrtSetDevice(0))) return false;
  g_per = g_bytes / kAllocations / kPiece * kPiece;
  g_host.assign(std::max(g_per, g_write_bytes), 0x5A);
  for (size_t i = 0; i < g_host.size(); ++i) {
    g_host[i] = static_cast<uint8_t>(i * 131 >> 7);
  }
  for (int a = 0; a < kAllocations; ++a) {
    void* p = nullptr;
    if (!Ok(aclrtMalloc(&p, g_per, ACL_MEM_MALLOC_HUGE_FIRST)) ||
        !Ok(aclrtMemcpy(p, g_per, g_host.data(), g_per,
                        ACL_MEMCPY_HOST_TO_DEVICE))) {
      return false;
    }
    g_device.push_back(p);
  }
  return Ok(aclrtMalloc(&g_write_target, g_write_bytes,
                        ACL_MEM_MALLOC_HUGE_FIRST)) &&
         Ok(aclrtMemset(g_write_target, g_write_bytes, 1, g_write_bytes));
}

// The report's mode, to check that a measurement is what it claims.
std::string Mode() {
  char json[4096];
  size_t needed = 0;
  if (!Ok(ascendclSnapshotGetReport(json, sizeof json, &needed))) return "";
  if (std::strstr(json, "\"mode\":\"incremental\"") &&
      std::strstr(json, "\"operation\":\"backup\"")) {
    g_last_incremental_report = json;
  }
  return std::strstr(json, "\"mode\":\"incremental\"") ? "incremental" : "full";
}

void Record(benchmark::State& state, const char* name, double seconds) {
  g_times[name].push_back(seconds);
  state.SetIterationTime(seconds);
}

// Writes g_write_bytes into memory the last Backup saved: "kernel" writes it
// directly, "memcpy" with aclrtMemcpy. Tracked or not, by the mode of the
// untimed Backup before each write.
void Write(benchmark::State& state, bool tracked, bool kernel) {
  const std::string name = std::string(tracked ? "tracked " : "untracked ") +
                           (kernel ? "kernel" : "memcpy");
  for (auto _ : state) {
    Incremental(tracked);
    if (!Cycle()) {
      state.SkipWithError("snapshot cycle failed");
      return;
    }
    const auto start = Clock::now();
    if (kernel) {
      std::memset(g_write_target, 7, g_write_bytes);
    } else if (!Ok(aclrtMemcpy(g_write_target, g_write_bytes, g_host.data(),
                               g_write_bytes, ACL_MEMCPY_HOST_TO_DEVICE))) {
      state.SkipWithError("memcpy failed");
      return;
    }
    Record(state, name.c_str(), Seconds(start, Clock::now()));
  }
}

void BM_UntrackedKernelWrite(benchmark::State& s) { Write(s, false, true); }
void BM_UntrackedMemcpy(benchmark::State& s) { Write(s, false, false); }
void BM_TrackedKernelWrite(benchmark::State& s) { Write(s, true, true); }
void BM_TrackedMemcpy(benchmark::State& s) { Write(s, true, false); }

// A Backup after 1 % was rewritten; `incremental` or full.
void Backup(benchmark::State& state, bool incremental) {
  const char* name = incremental ? "incremental backup" : "full backup";
  Incremental(incremental);
  if (!Cycle()) state.SkipWithError("first backup failed");
  for (auto _ : state) {
    if (!RewriteOnePercent(/*copies=*/true) ||
        !Ok(aclrtSnapShotProcessLock(Pid(), nullptr))) {
      state.SkipWithError("rewrite or lock failed");
      return;
    }
    const auto start = Clock::now();
    const aclError backup = aclrtSnapShotProcessBackup(Pid(), nullptr);
    const double seconds = Seconds(start, Clock::now());
    const std::string mode = Mode();
    if (!Ok(backup) || (!incremental && mode != "full") ||
        !Ok(aclrtSnapShotProcessUnlock(Pid(), nullptr))) {
      state.SkipWithError("backup failed or was not of its mode");
      return;
    }
    if (incremental && mode != "incremental") ++g_compactions;
    Record(state, name, seconds);
  }
}
void BM_FullBackup(benchmark::State& s) { Backup(s, false); }
void BM_IncrementalBackup(benchmark::State& s) { Backup(s, true); }

// A Restore: full after a memory loss, incremental after 1 % was written
// while the device kept its memory.
void Restore(benchmark::State& state, bool incremental, bool tracked = true) {
  const char* name = incremental ? "incremental restore"
                     : tracked   ? "full restore"
                                 : "untracked full restore";
  Incremental(tracked);
  for (auto _ : state) {
    if (!Ok(aclrtSnapShotProcessLock(Pid(), nullptr)) ||
        !Ok(aclrtSnapShotProcessBackup(Pid(), nullptr))) {
      state.SkipWithError("backup failed");
      return;
    }
    const bool damaged =
        incremental ? RewriteOnePercent(/*copies=*/false)
                    : Ok(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    const auto start = Clock::now();
    const aclError restore = aclrtSnapShotProcessRestore(Pid(), nullptr);
    const double seconds = Seconds(start, Clock::now());
    if (!damaged || !Ok(restore) ||
        Mode() != (incremental ? "incremental" : "full") ||
        !Ok(aclrtSnapShotProcessUnlock(Pid(), nullptr))) {
      state.SkipWithError("restore failed or was not of its mode");
      return;
    }
    Record(state, name, seconds);
  }
}
void BM_FullRestore(benchmark::State& s) { Restore(s, false); }
void BM_UntrackedFullRestore(benchmark::State& s) { Restore(s, false, false); }
void BM_IncrementalRestore(benchmark::State& s) { Restore(s, true); }

// The locked window (Lock + Backup, what the application waits for) after
// 1 % was rewritten: with a pre-copy before the writes, or a full Backup.
void LockedWindow(benchmark::State& state, bool precopy) {
  const char* name =
      precopy ? "locked window after precopy" : "locked window full";
  Incremental(precopy);
  for (auto _ : state) {
    if (precopy && !Ok(ascendclSnapshotPrecopy())) {
      state.SkipWithError("pre-copy failed");
      return;
    }
    if (!RewriteOnePercent(/*copies=*/true)) {
      state.SkipWithError("rewrite failed");
      return;
    }
    const auto start = Clock::now();
    const bool locked = Ok(aclrtSnapShotProcessLock(Pid(), nullptr)) &&
                        Ok(aclrtSnapShotProcessBackup(Pid(), nullptr));
    const double seconds = Seconds(start, Clock::now());
    const std::string mode = Mode();
    if (!locked || (!precopy && mode != "full") ||
        !Ok(aclrtSnapShotProcessUnlock(Pid(), nullptr))) {
      state.SkipWithError("lock and backup failed or was not of its mode");
      return;
    }
    // Now and then an incremental Backup starts afresh with a full one
    // (its image's pieces lay scattered over too much host memory): that
    // cost is part of what the application sees, and counted.
    if (precopy && mode != "incremental") ++g_compactions;
    Record(state, name, seconds);
  }
}
void BM_LockedWindowFull(benchmark::State& s) { LockedWindow(s, false); }
void BM_LockedWindowAfterPrecopy(benchmark::State& s) { LockedWindow(s, true); }

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Prints a / b of the medians; `at_most`: the target is an upper bound.
bool PrintRatio(const char* label, const char* a, const char* b, double target,
                bool at_most) {
  const double ma = Median(g_times[a]);
  const double mb = Median(g_times[b]);
  if (ma <= 0 || mb <= 0) {
    std::printf("RATIO %s: not measured\n", label);
    return false;
  }
  const double ratio = ma / mb;
  if (target <= 0) {
    std::printf("RATIO %s: %.3f ms / %.3f ms = %.3fx (no target)\n", label,
                ma * 1e3, mb * 1e3, ratio);
    return true;
  }
  const bool met = at_most ? ratio <= target : ratio >= target;
  std::printf("RATIO %s: %.3f ms / %.3f ms = %.3fx (target %s %.2fx) %s\n",
              label, ma * 1e3, mb * 1e3, ratio, at_most ? "<=" : ">=", target,
              met ? "MET" : "MISSED");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flags: --snapshot_bytes=N, and --quick (one iteration each,
  // for the smoke test).
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
  if (g_bytes < kAllocations * kPiece * 2) {
    std::fprintf(stderr, "--snapshot_bytes must be at least %llu\n",
                 static_cast<unsigned long long>(kAllocations * kPiece * 2));
    return 2;
  }
  g_write_bytes = std::min(g_write_bytes, g_bytes);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  // Untracked first: memory tracked once keeps a fault per page until
  // written. At least 2 s each (medians of several iterations): the first
  // write of the runtime through the memory file's alias maps each page
  // there once.
  const std::pair<const char*, void (*)(benchmark::State&)> benchmarks[] = {
      {"BM_UntrackedKernelWrite", BM_UntrackedKernelWrite},
      {"BM_UntrackedMemcpy", BM_UntrackedMemcpy},
      {"BM_UntrackedFullRestore", BM_UntrackedFullRestore},
      {"BM_FullBackup", BM_FullBackup},
      {"BM_IncrementalBackup", BM_IncrementalBackup},
      {"BM_LockedWindowFull", BM_LockedWindowFull},
      {"BM_LockedWindowAfterPrecopy", BM_LockedWindowAfterPrecopy},
      {"BM_FullRestore", BM_FullRestore},
      {"BM_IncrementalRestore", BM_IncrementalRestore},
      {"BM_TrackedKernelWrite", BM_TrackedKernelWrite},
      {"BM_TrackedMemcpy", BM_TrackedMemcpy},
  };
  for (const auto& [name, fn] : benchmarks) {
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark(name, fn)->UseManualTime()->Unit(
            benchmark::kMillisecond);
    if (quick) {
      b->Iterations(1);
    } else {
      b->MinTime(2);
    }
  }
  Incremental(false);
  g_ok = Ok(aclInit(nullptr)) && Setup();
  if (!g_ok) {
    std::fprintf(stderr, "setup failed\n");
    return 1;
  }
  std::printf("incremental benchmark: %llu bytes in %d allocations\n",
              static_cast<unsigned long long>(g_per * kAllocations),
              kAllocations);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::printf("\n");
  std::printf("report of the last incremental Backup: %s\n",
              g_last_incremental_report.c_str());
  std::printf(
      "incremental Backups that started afresh with a full one (image "
      "compaction), counted in the figures: %d\n",
      g_compactions);
  bool ok = PrintRatio("incremental Backup after 1 % rewritten / full Backup",
                       "incremental backup", "full backup", 0.10, true);
  ok = PrintRatio(
           "Lock + Backup after a pre-copy and 1 % rewritten / Lock + full "
           "Backup",
           "locked window after precopy", "locked window full", 0.10, true) &&
       ok;
  ok = PrintRatio("incremental Restore after 1 % rewritten / full Restore",
                  "incremental restore", "full restore", 0.10, true) &&
       ok;
  ok = PrintRatio("full Restore after a memory loss, tracked / untracked",
                  "full restore", "untracked full restore", 1.25, true) &&
       ok;
  ok =
      PrintRatio("raw host stores of 256 MiB (fault path), untracked / tracked",
                 "untracked kernel", "tracked kernel", 0, false) &&
      ok;
  ok = PrintRatio("aclrtMemcpy of 256 MiB, untracked / tracked",
                  "untracked memcpy", "tracked memcpy", 0.9, false) &&
       ok;
  for (void* p : g_device) (void)aclrtFree(p);
  (void)aclrtFree(g_write_target);
  (void)aclrtResetDeviceForce(0);
  (void)aclFinalize();
  return ok ? 0 : 1;
}
