// DESIGN.md §7.2: Restore of many allocations as a program sees it, through
// the C API only (libascendcl): the same bytes held in 100,000 allocations
// against 16, each through aclrtSnapShotProcessLock, Backup, an injected
// device-memory loss, Restore and Unlock. Target: Restore of the many at
// most 2x the time of the few, judged on the median of back-to-back pairs
// measured in the same run (each pair: the few, then the many, or the other
// way round, alternating).
//
// One process has one runtime, so the two sets take turns: each iteration
// allocates a set, runs warm-up rounds (the first Backup of a set fills
// fresh host memory), times one round, frees the set, then does the same
// with the other set.
//
//   bazel run -c opt //snapshot:c_api_restore_benchmark
//   bazel run -c opt //snapshot:c_api_restore_benchmark -- --allocations=N
//     (and --snapshot_bytes=N: default 1 GiB)
//
// Prints a RATIO line; exits non-zero if a benchmark failed or the ratio
// could not be measured (not when the target is missed).
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "benchmark/benchmark.h"
#include "snapshot/benchmark_pairs.h"

namespace {

using Clock = std::chrono::steady_clock;

uint64_t g_bytes = uint64_t{1} << 30;
int g_many = 100000;
constexpr int kFew = 16;
constexpr int kWarmRounds = 2;  // the figure: the third round

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// `count` device allocations holding g_bytes in all, each filled.
class Set {
 public:
  bool Make(int count) {
    const uint64_t per = g_bytes / static_cast<uint64_t>(count);
    blocks_.reserve(count);
    for (int i = 0; i < count; ++i) {
      void* p = nullptr;
      if (aclrtMalloc(&p, per, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return false;
      }
      blocks_.push_back(p);
      if (aclrtMemset(p, per, (i & 0x7F) | 1, per) != ACL_SUCCESS) {
        return false;
      }
    }
    return true;
  }
  ~Set() {
    for (void* p : blocks_) (void)aclrtFree(p);
  }

 private:
  std::vector<void*> blocks_;
};

// One Lock, Backup, memory loss, Restore, Unlock through the C API; the
// Restore's seconds, or a negative value on failure.
double Round() {
  const int pid = static_cast<int>(getpid());
  if (aclrtSnapShotProcessLock(pid, nullptr) != ACL_SUCCESS) return -1;
  bool ok =
      aclrtSnapShotProcessBackup(pid, nullptr) == ACL_SUCCESS &&
      aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS) == ACL_SUCCESS;
  const auto start = Clock::now();
  ok = ok && aclrtSnapShotProcessRestore(pid, nullptr) == ACL_SUCCESS;
  const auto end = Clock::now();
  ok = aclrtSnapShotProcessUnlock(pid, nullptr) == ACL_SUCCESS && ok;
  return ok ? Seconds(start, end) : -1;
}

// The timed Restore of a fresh set of `count` allocations, after warm-up
// rounds; negative on failure.
double TimedRestore(int count) {
  Set set;
  if (!set.Make(count)) return -1;
  for (int i = 0; i < kWarmRounds; ++i) {
    if (Round() < 0) return -1;
  }
  return Round();
}

std::vector<std::pair<double, double>> g_pairs;  // (few, many) seconds

void BM_RestoreManyAllocations(benchmark::State& state) {
  bool few_first = true;
  for (auto _ : state) {
    double few = 0;
    double many = 0;
    if (few_first) {
      few = TimedRestore(kFew);
      many = TimedRestore(g_many);
    } else {
      many = TimedRestore(g_many);
      few = TimedRestore(kFew);
    }
    few_first = !few_first;
    if (few < 0 || many < 0) {
      state.SkipWithError("a snapshot round failed");
      return;
    }
    g_pairs.emplace_back(few, many);
    state.SetIterationTime(many);
  }
  state.counters["allocations"] = g_many;
}
BENCHMARK(BM_RestoreManyAllocations)
    ->UseManualTime()
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond);

// Removes --snapshot_bytes=N and --allocations=N from argv.
void ParseFlags(int* argc, char** argv) {
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--snapshot_bytes=", 0) == 0) {
      g_bytes = std::strtoull(arg.c_str() + 17, nullptr, 10);
    } else if (arg.rfind("--allocations=", 0) == 0) {
      g_many = std::atoi(arg.c_str() + 14);
    } else {
      argv[out++] = argv[i];
    }
  }
  *argc = out;
}

}  // namespace

int main(int argc, char** argv) {
  // These figures are of full Backups and Restores (every one copies all
  // device memory); incremental_benchmark measures the incremental ones.
  setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "0", /*overwrite=*/0);
  ParseFlags(&argc, argv);
  if (g_bytes == 0 || g_many < kFew) {
    std::fprintf(stderr, "bad --snapshot_bytes or --allocations\n");
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclInit or aclrtSetDevice failed\n");
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  (void)aclrtResetDevice(0);
  (void)aclFinalize();

  const auto stats = ascend::snapshot::Summarize(g_pairs);
  if (!stats.has_value()) {
    std::printf("RATIO restore %d vs %d allocations: not measured\n", g_many,
                kFew);
    return 1;
  }
  // Summarize gives few/many; the target is on many/few.
  const double ratio = 1.0 / stats->median;
  std::printf(
      "RATIO restore %d vs %d allocations (C API): %.1f ms vs %.1f ms, "
      "median of %zu back-to-back pairs = %.2fx the time (target <= 2.0x) "
      "%s\n",
      g_many, kFew, 1e3 * stats->op_total_s / static_cast<double>(stats->count),
      1e3 * stats->baseline_total_s / static_cast<double>(stats->count),
      stats->count, ratio, ratio <= 2.0 ? "MET" : "MISSED");
  return 0;
}
