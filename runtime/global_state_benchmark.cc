// DESIGN.md §7.2 targets for the snapshot gate, each printed as a ratio against
// a baseline measured in the same run:
//   * the gate every ACL entry point passes (ProcessApiScope enter + exit,
//     RUNNING) vs one atomic acquire load: within 2.5x;
//   * the same gate vs the cheapest gated call, an event-record enqueue (what
//     aclrtRecordEvent runs behind its gate, on a private runtime over the
//     simulator): under 2 %;
//   * Lock with 8 parked background threads and 8 idle API threads: < 1 ms;
//   * Unlock -> a caller blocked in the gate running again: < 1 ms;
// the last two against a mutex + condition-variable notify round trip.
//
//   bazel run -c opt //runtime:global_state_benchmark
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "device/sim/sim_backend.h"
#include "runtime/device_info/device_info.h"
#include "runtime/global_state.h"
#include "runtime/runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {
namespace {

constexpr int kBackgroundThreads = 8;
constexpr int kIdleApiThreads = 8;

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Spins (yielding) until `pred` holds; false after 10 s.
template <typename Pred>
bool SpinUntil(Pred pred) {
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(10);
  while (!pred()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

// --- a. The gate vs one atomic acquire load -------------------------------
//
// The target is judged against a bare acquire load. For information the
// benchmark also measures the cheapest possible lock check -- one acquire
// load of a state word and a predicted branch to an out-of-line slow path --
// which is what a gate without DESIGN.md §4.3's in-flight guarantee would
// cost: the difference between the two is the price of that guarantee.

std::atomic<int> g_word{0};

void BM_AtomicAcquireLoad(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(g_word.load(std::memory_order_acquire));
  }
}
// The single-instruction-scale loops are repeated and the best repetition is
// compared, so a preempted repetition does not decide the ratio.
BENCHMARK(BM_AtomicAcquireLoad)->Repetitions(10);

ABSL_ATTRIBUTE_NOINLINE void OnNotRunning() { benchmark::ClobberMemory(); }

void BM_AtomicAcquireLoadCheck(benchmark::State& state) {
  for (auto _ : state) {
    if (ABSL_PREDICT_FALSE(g_word.load(std::memory_order_acquire) != 0)) {
      OnNotRunning();
    }
  }
}
BENCHMARK(BM_AtomicAcquireLoadCheck)->Repetitions(10);

// What every resource-modifying ACL entry point runs (ACL_GATE()).
void BM_GateEnterExit(benchmark::State& state) {
  { ProcessApiScope warm; }  // the singleton and the thread's mark exist
  for (auto _ : state) {
    ProcessApiScope scope;
  }
}
BENCHMARK(BM_GateEnterExit)->Repetitions(10);

// The same gate on a private GlobalState instance (as the tests use).
void BM_InstanceGateEnterExit(benchmark::State& state) {
  static GlobalState* const gs = new GlobalState(GlobalState::Options{});
  { ApiScope warm(*gs); }
  for (auto _ : state) {
    ApiScope scope(*gs);
  }
}
BENCHMARK(BM_InstanceGateEnterExit)->Repetitions(10);

// The cheapest gated call: the gate, then enqueueing an event record on a
// stream (aclrtRecordEvent minus the status mapping), on a private runtime
// over a one-device simulator. The stream's executor runs the records
// concurrently; each batch is drained outside the timing.
void BM_EventRecordEnqueue(benchmark::State& state) {
  device::sim::SimConfig config;
  config.device_count = 1;
  config.device_memory_bytes = uint64_t{64} << 20;
  auto backend = device::sim::CreateSimBackend(config);
  if (!backend.ok()) {
    state.SkipWithError("no simulator");
    return;
  }
  static GlobalState* const gs = new GlobalState(GlobalState::Options{});
  Runtime::Options options;
  options.state = gs;
  options.default_device = [] { return std::optional<int32_t>(); };
  options.families = {StreamsFamily(), DeviceInfoFamily(), SyncFamily()};
  Runtime runtime(*std::move(backend), std::move(options));
  Sync& sync = *Sync::Of(runtime);
  absl::StatusOr<void*> stream;
  absl::StatusOr<void*> event;
  if (!runtime.SetDevice(0).ok() ||
      !(stream = Streams::Of(runtime)->CreateStream(0, 0)).ok() ||
      !(event = sync.CreateEvent(0)).ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  int64_t in_batch = 0;
  for (auto _ : state) {
    {
      // The private runtime's own gate (the same code as the process one,
      // BM_InstanceGateEnterExit vs BM_GateEnterExit).
      ApiScope gate(*gs);
      benchmark::DoNotOptimize(sync.RecordEvent(*event, *stream));
    }
    if (++in_batch == 4096) {
      state.PauseTiming();
      (void)Streams::Of(runtime)->SynchronizeStream(*stream,
                                                    absl::InfiniteFuture());
      in_batch = 0;
      state.ResumeTiming();
    }
  }
  (void)Streams::Of(runtime)->SynchronizeStream(*stream,
                                                absl::InfiniteFuture());
}
BENCHMARK(BM_EventRecordEnqueue)->Repetitions(3);

// aclrtCreateStream + aclrtDestroyStream of an idle stream (DESIGN.md §5.3:
// what a stream costs when it holds no thread), on the same private runtime
// setup.
void BM_StreamCreateDestroy(benchmark::State& state) {
  device::sim::SimConfig config;
  config.device_count = 1;
  config.device_memory_bytes = uint64_t{64} << 20;
  auto backend = device::sim::CreateSimBackend(config);
  if (!backend.ok()) {
    state.SkipWithError("no simulator");
    return;
  }
  static GlobalState* const gs = new GlobalState(GlobalState::Options{});
  Runtime::Options options;
  options.state = gs;
  options.default_device = [] { return std::optional<int32_t>(); };
  options.families = {StreamsFamily()};
  Runtime runtime(*std::move(backend), std::move(options));
  if (!runtime.SetDevice(0).ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<void*> stream = Streams::Of(runtime)->CreateStream(0, 0);
    if (!stream.ok() ||
        !Streams::Of(runtime)->DestroyStream(*stream, false).ok()) {
      state.SkipWithError("create or destroy failed");
      return;
    }
  }
}
BENCHMARK(BM_StreamCreateDestroy)->Repetitions(3);

// --- Baseline for b. and c.: a mutex + condvar notify round trip ------------

void BM_MutexCondvarRoundTrip(benchmark::State& state) {
  std::mutex mu;
  std::condition_variable to_partner;
  std::condition_variable to_main;
  int64_t ping = 0;
  int64_t pong = 0;
  bool stop = false;
  std::thread partner([&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      to_partner.wait(lock, [&] { return ping != pong || stop; });
      if (stop) return;
      pong = ping;
      to_main.notify_one();
    }
  });
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    {
      std::unique_lock<std::mutex> lock(mu);
      ++ping;
      to_partner.notify_one();
      to_main.wait(lock, [&] { return pong == ping; });
    }
    state.SetIterationTime(Seconds(start, Clock::now()));
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  to_partner.notify_one();
  partner.join();
}
BENCHMARK(BM_MutexCondvarRoundTrip)->UseManualTime();

// --- The process model for b. and c. ---------------------------------------

// A runtime background thread: blocked waiting for work; its wake function
// interrupts the wait so that it reaches ParkIfLocked.
class BackgroundThread {
 public:
  explicit BackgroundThread(GlobalState& gs) {
    handle_ = gs.RegisterBackgroundThread("bench", [this] {
      {
        std::lock_guard<std::mutex> lock(mu_);
        woken_ = true;
      }
      cv_.notify_one();
    });
    thread_ = std::thread([this] {
      for (;;) {
        handle_->ParkIfLocked();
        std::unique_lock<std::mutex> lock(mu_);
        ++waits_;
        cv_.wait(lock, [this] { return woken_ || stop_; });
        woken_ = false;
        if (stop_) return;
      }
    });
  }
  ~BackgroundThread() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
    handle_.reset();
  }
  // How many times it went back to waiting for work.
  int64_t waits() {
    std::lock_guard<std::mutex> lock(mu_);
    return waits_;
  }

 private:
  std::unique_ptr<GlobalState::BackgroundThread> handle_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool woken_ = false;
  bool stop_ = false;
  int64_t waits_ = 0;
  std::thread thread_;
};

// An application thread that made gated calls and is now idle.
class IdleApiThread {
 public:
  explicit IdleApiThread(GlobalState& gs) {
    thread_ = std::thread([this, g = &gs] {
      for (int i = 0; i < 100; ++i) ApiScope scope(*g);
      std::unique_lock<std::mutex> lock(mu_);
      idle_ = true;
      cv_.wait(lock, [this] { return stop_; });
    });
  }
  ~IdleApiThread() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  bool idle() {
    std::lock_guard<std::mutex> lock(mu_);
    return idle_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool idle_ = false;
  bool stop_ = false;
  std::thread thread_;
};

struct Process {
  explicit Process(int background_threads) {
    GlobalState::Options options;
    options.timeout = absl::Seconds(10);
    gs = std::make_unique<GlobalState>(options);
    for (int i = 0; i < background_threads; ++i) {
      background.push_back(std::make_unique<BackgroundThread>(*gs));
    }
    for (int i = 0; i < kIdleApiThreads; ++i) {
      api.push_back(std::make_unique<IdleApiThread>(*gs));
    }
  }
  ~Process() {
    gs->ForceUnlock();
    background.clear();
    api.clear();
  }
  // Snapshot of the background threads' wait counters.
  std::vector<int64_t> Waits() {
    std::vector<int64_t> w;
    for (auto& b : background) w.push_back(b->waits());
    return w;
  }
  // True once every background thread waits for work again after `since`.
  bool AllWaitingSince(const std::vector<int64_t>& since) {
    for (size_t i = 0; i < background.size(); ++i) {
      if (background[i]->waits() <= since[i]) return false;
    }
    return true;
  }
  bool Settled() {
    for (auto& b : background) {
      if (b->waits() == 0) return false;
    }
    for (auto& a : api) {
      if (!a->idle()) return false;
    }
    return true;
  }

  std::unique_ptr<GlobalState> gs;
  std::vector<std::unique_ptr<BackgroundThread>> background;
  std::vector<std::unique_ptr<IdleApiThread>> api;
};

// --- b. Lock latency ---------------------------------------------------------

void BM_Lock(benchmark::State& state) {
  Process p(static_cast<int>(state.range(0)));
  if (!SpinUntil([&] { return p.Settled(); })) {
    state.SkipWithError("threads did not settle");
    return;
  }
  for (auto _ : state) {
    const std::vector<int64_t> before = p.Waits();
    const Clock::time_point start = Clock::now();
    absl::Status s = p.gs->Lock();
    const Clock::time_point end = Clock::now();
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    state.SetIterationTime(Seconds(start, end));
    s = p.gs->Unlock();
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    // Untimed: back to "blocked waiting for work" before the next Lock.
    if (!SpinUntil([&] { return p.AllWaitingSince(before); })) {
      state.SkipWithError("background threads did not resume");
      break;
    }
  }
}
BENCHMARK(BM_Lock)->Arg(kBackgroundThreads)->UseManualTime();

// --- c. Unlock -> blocked caller running ------------------------------------

void BM_UnlockToBlockedCaller(benchmark::State& state) {
  Process p(static_cast<int>(state.range(0)));
  if (!SpinUntil([&] { return p.Settled(); })) {
    state.SkipWithError("threads did not settle");
    return;
  }
  std::mutex mu;
  std::condition_variable cv;
  int64_t requested = 0;
  bool stop = false;
  std::atomic<int64_t> served{0};
  std::atomic<int64_t> ran_at_ns{0};
  GlobalState& gs = *p.gs;
  std::thread caller([&] {
    int64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return requested != seen || stop; });
        if (stop) return;
        seen = requested;
      }
      ApiScope scope(gs);
      ran_at_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                          Clock::now().time_since_epoch())
                          .count());
      served.store(seen);
    }
  });
  int64_t round = 0;
  for (auto _ : state) {
    ++round;
    const std::vector<int64_t> before = p.Waits();
    absl::Status s = gs.Lock();
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      requested = round;
    }
    cv.notify_one();
    if (!SpinUntil([&] { return gs.blocked_callers() == 1; })) {
      state.SkipWithError("caller did not block");
      break;
    }
    const Clock::time_point start = Clock::now();
    s = gs.Unlock();
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    if (!SpinUntil([&] { return served.load() == round; })) {
      state.SkipWithError("caller did not run");
      break;
    }
    const int64_t start_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(
            start.time_since_epoch())
            .count();
    state.SetIterationTime(static_cast<double>(ran_at_ns.load() - start_ns) *
                           1e-9);
    if (!SpinUntil([&] { return p.AllWaitingSince(before); })) {
      state.SkipWithError("background threads did not resume");
      break;
    }
  }
  gs.ForceUnlock();
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  cv.notify_one();
  caller.join();
}
BENCHMARK(BM_UnlockToBlockedCaller)
    ->Arg(0)
    ->Arg(kBackgroundThreads)
    ->UseManualTime();

// --- Ratios --------------------------------------------------------------

// The console output, plus the best per-iteration real and CPU times
// (seconds) of every benchmark that ran without error.
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  struct Times {
    double real;
    double cpu;
  };

  RecordingReporter() : ConsoleReporter(OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& reports) override {
    ConsoleReporter::ReportRuns(reports);
    for (const Run& run : reports) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred ||
          run.iterations <= 0) {
        continue;
      }
      const double n = static_cast<double>(run.iterations);
      const Times t{run.real_accumulated_time / n,
                    run.cpu_accumulated_time / n};
      auto [it, inserted] = best_.emplace(run.benchmark_name(), t);
      if (!inserted) {
        it->second.real = std::min(it->second.real, t.real);
        it->second.cpu = std::min(it->second.cpu, t.cpu);
      }
    }
  }
  // Looks a benchmark up by the start of its name ("BM_Lock/8/...").
  bool Find(const std::string& prefix, Times* times) const {
    for (const auto& [name, value] : best_) {
      if (name.rfind(prefix, 0) == 0) {
        *times = value;
        return true;
      }
    }
    return false;
  }

 private:
  std::map<std::string, Times> best_;
};

// Per-operation cost ratio of two single-threaded loops. Judged on CPU time,
// which a loaded machine's preemption does not inflate; real time is shown
// too.
void PrintRatio(const RecordingReporter& r, const char* label,
                const std::string& what, const std::string& baseline,
                double target_ratio) {
  RecordingReporter::Times t{};
  RecordingReporter::Times b{};
  if (!r.Find(what, &t) || !r.Find(baseline, &b) || b.cpu <= 0 || b.real <= 0) {
    std::printf("RATIO %s: not measured\n", label);
    return;
  }
  const double ratio = t.cpu / b.cpu;
  std::printf(
      "RATIO %s: CPU %.3f ns / %.3f ns = %.2fx (target <= %.1fx) %s; "
      "real %.3f ns / %.3f ns = %.2fx\n",
      label, t.cpu * 1e9, b.cpu * 1e9, ratio, target_ratio,
      ratio <= target_ratio ? "MET" : "MISSED", t.real * 1e9, b.real * 1e9,
      t.real / b.real);
}

// What share of `whole` (a call that includes the gate) the gate `part`
// costs, on CPU time.
void PrintShare(const RecordingReporter& r, const char* label,
                const std::string& part, const std::string& whole,
                double target_share) {
  RecordingReporter::Times p{};
  RecordingReporter::Times w{};
  if (!r.Find(part, &p) || !r.Find(whole, &w) || w.cpu <= 0) {
    std::printf("RATIO %s: not measured\n", label);
    return;
  }
  const double share = p.cpu / w.cpu;
  std::printf(
      "RATIO %s: CPU %.3f ns of %.1f ns = %.2f%% (target < %.0f%%) %s\n", label,
      p.cpu * 1e9, w.cpu * 1e9, share * 100, target_share * 100,
      share < target_share ? "MET" : "MISSED");
}

// The same ratio, for information (no target).
void PrintInfoRatio(const RecordingReporter& r, const char* label,
                    const std::string& what, const std::string& baseline) {
  RecordingReporter::Times t{};
  RecordingReporter::Times b{};
  if (!r.Find(what, &t) || !r.Find(baseline, &b) || b.cpu <= 0) {
    std::printf("INFO %s: not measured\n", label);
    return;
  }
  std::printf("INFO %s: CPU %.3f ns / %.3f ns = %.2fx\n", label, t.cpu * 1e9,
              b.cpu * 1e9, t.cpu / b.cpu);
}

// A latency (manual time, i.e. wall clock) against the target and against
// the round-trip baseline.
void PrintLatency(const RecordingReporter& r, const char* label,
                  const std::string& what, const std::string& baseline,
                  double target_seconds) {
  RecordingReporter::Times t{};
  RecordingReporter::Times b{};
  if (!r.Find(what, &t) || !r.Find(baseline, &b) || b.real <= 0) {
    std::printf("RATIO %s: not measured\n", label);
    return;
  }
  std::printf(
      "RATIO %s: %.1f us = %.2fx the mutex+condvar round trip (%.1f us); "
      "target < %.0f us %s\n",
      label, t.real * 1e6, t.real / b.real, b.real * 1e6, target_seconds * 1e6,
      t.real < target_seconds ? "MET" : "MISSED");
}

}  // namespace
}  // namespace ascend::rt

int main(int argc, char** argv) {
  using ascend::rt::RecordingReporter;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\n");
  ascend::rt::PrintRatio(reporter, "gate enter+exit vs atomic acquire load",
                         "BM_GateEnterExit", "BM_AtomicAcquireLoad", 2.5);
  ascend::rt::PrintShare(reporter,
                         "gate enter+exit vs the cheapest gated call (event "
                         "record enqueue)",
                         "BM_GateEnterExit", "BM_EventRecordEnqueue", 0.02);
  ascend::rt::PrintInfoRatio(
      reporter,
      "check on one atomic acquire load (no in-flight tracking) vs "
      "the load",
      "BM_AtomicAcquireLoadCheck", "BM_AtomicAcquireLoad");
  ascend::rt::PrintLatency(reporter,
                           "Lock, 8 parked background + 8 idle API threads",
                           "BM_Lock/8", "BM_MutexCondvarRoundTrip", 1e-3);
  ascend::rt::PrintLatency(
      reporter, "Unlock -> blocked caller running (no background threads)",
      "BM_UnlockToBlockedCaller/0", "BM_MutexCondvarRoundTrip", 1e-3);
  ascend::rt::PrintLatency(
      reporter, "Unlock -> blocked caller running, 8 background threads",
      "BM_UnlockToBlockedCaller/8", "BM_MutexCondvarRoundTrip", 1e-3);
  return 0;
}
