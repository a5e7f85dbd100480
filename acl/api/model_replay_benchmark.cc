// Cost of replaying a captured graph (aclmdlRIExecuteAsync) against issuing
// the same tasks one by one, and of aclmdlRICaptureGetInfo when nothing is
// being captured.
//
//   bazel run -c opt //acl/api:model_replay_benchmark
//
// (1) kTasks = 1000 value writes (aclrtValueWrite of 8 bytes to distinct
//     device words: a cheap, recordable task with enqueue-free replay)
//     followed by one aclrtSynchronizeStream:
//     BM_IssueValueWrites  - the baseline: 1000 aclrtValueWrite calls.
//     BM_ReplayGraph       - one aclmdlRIExecuteAsync of the same 1000 writes
//                            captured once; counter x_issue = its ns_per_task
//                            over the baseline's (target <= 0.5).
//     BM_ReplayOneTask     - replay of a graph of one value write: the fixed
//                            cost of an execution (ns_per_replay), for
//                            telling it from the per-task cost.
//     BM_ReplayGraphCold   - the first replay of a freshly captured graph
//                            (capture and destroy not timed; manual time).
// (2) BM_AtomicAcquireLoad - one acquire load of an atomic word;
//     BM_SnapshotGate      - the snapshot gate every gated entry point
//                            passes (ProcessApiScope enter + exit);
//     BM_CaptureGetInfoIdle - aclmdlRICaptureGetInfo on a stream when no
//                            capture is in progress; x_gate = its cost over
//                            the gate's (x_load over the load's). The gate is
//                            inlined into the benchmark loop; GetInfo is an
//                            exported call (argument checks, the runtime
//                            singleton, then one acquire load), so x_gate
//                            includes the call itself.
// Baselines run first: their figures are the ratios' denominators. Every
// replay's result is checked (the last word written); a mismatch or an ACL
// error fails the benchmark (non-zero exit).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "benchmark/benchmark.h"
#include "runtime/global_state.h"

namespace {

constexpr int64_t kTasks = 1000;
constexpr double kReplayTarget = 0.5;

using Clock = std::chrono::steady_clock;

double g_issue_ns_per_task = 0;
double g_gate_ns = 0;
double g_load_ns = 0;
std::atomic<int> g_word{0};

std::string AclError(const char* what, aclError ret) {
  return std::string(what) + " returned ACL error " + std::to_string(ret);
}

// Device 0, a work stream, an execution stream and kTasks device words.
class Setup {
 public:
  Setup() {
    ret_ = aclrtSetDevice(0);
    if (ret_ == ACL_SUCCESS) ret_ = aclrtCreateStream(&stream_);
    if (ret_ == ACL_SUCCESS) ret_ = aclrtCreateStream(&exec_);
    if (ret_ == ACL_SUCCESS) {
      ret_ = aclrtMalloc(&words_, kTasks * sizeof(uint64_t),
                         ACL_MEM_MALLOC_HUGE_FIRST);
    }
  }
  ~Setup() {
    if (words_ != nullptr) (void)aclrtFree(words_);
    if (exec_ != nullptr) (void)aclrtDestroyStream(exec_);
    if (stream_ != nullptr) (void)aclrtDestroyStream(stream_);
    (void)aclrtResetDevice(0);
  }
  bool ok() const { return ret_ == ACL_SUCCESS; }
  aclrtStream stream() const { return stream_; }
  aclrtStream exec() const { return exec_; }

  // kTasks value writes of value + i to word i on the stream.
  aclError Issue(aclrtStream stream, uint64_t value) const {
    auto* w = static_cast<uint64_t*>(words_);
    for (int64_t i = 0; i < kTasks; ++i) {
      aclError ret = aclrtValueWrite(w + i, value + i, 0, stream);
      if (ret != ACL_SUCCESS) return ret;
    }
    return ACL_SUCCESS;
  }
  // The last word's write alone (value + kTasks - 1, as Issue writes it).
  aclError IssueLast(aclrtStream stream, uint64_t value) const {
    auto* last = static_cast<uint64_t*>(words_) + kTasks - 1;
    return aclrtValueWrite(last, value + kTasks - 1, 0, stream);
  }
  aclError Capture(uint64_t value, aclmdlRI* model) const {
    aclError ret =
        aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    if (ret != ACL_SUCCESS) return ret;
    ret = Issue(stream_, value);
    const aclError end = aclmdlRICaptureEnd(stream_, model);
    return ret != ACL_SUCCESS ? ret : end;
  }
  // The last word holds value + kTasks - 1 (and is cleared for the next).
  bool LastWordIs(uint64_t value) const {
    auto* last = static_cast<uint64_t*>(words_) + kTasks - 1;
    uint64_t got = 0;
    if (aclrtMemcpy(&got, sizeof got, last, sizeof got,
                    ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      return false;
    }
    return got == value + kTasks - 1 &&
           aclrtMemset(last, sizeof got, 0, sizeof got) == ACL_SUCCESS;
  }

 private:
  aclError ret_ = ACL_SUCCESS;
  aclrtStream stream_ = nullptr;
  aclrtStream exec_ = nullptr;
  void* words_ = nullptr;
};

double NsPerTask(const benchmark::State& state, double ns) {
  const double tasks = static_cast<double>(state.iterations()) * kTasks;
  return tasks > 0 ? ns / tasks : 0;
}

void BM_IssueValueWrites(benchmark::State& state) {
  Setup s;
  if (!s.ok()) {
    state.SkipWithError("cannot set device 0 or create streams");
    return;
  }
  double ns = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    aclError ret = s.Issue(s.stream(), 1);
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.stream());
    ns +=
        std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(AclError("issuing", ret).c_str());
      break;
    }
    state.PauseTiming();
    const bool right = s.LastWordIs(1);
    state.ResumeTiming();
    if (!right) {
      state.SkipWithError("the last value write did not land");
      break;
    }
  }
  g_issue_ns_per_task = NsPerTask(state, ns);
  state.counters["ns_per_task"] = g_issue_ns_per_task;
  state.SetItemsProcessed(state.iterations() * kTasks);
}

void BM_ReplayGraph(benchmark::State& state) {
  Setup s;
  aclmdlRI model = nullptr;
  aclError ret = s.ok() ? s.Capture(7, &model) : ACL_ERROR_FAILURE;
  if (ret != ACL_SUCCESS) {
    state.SkipWithError(AclError("setup or capture", ret).c_str());
    return;
  }
  // One warm replay: the cold case is BM_ReplayGraphCold.
  ret = aclmdlRIExecuteAsync(model, s.exec());
  if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.exec());
  double ns = 0;
  for (auto _ : state) {
    if (ret != ACL_SUCCESS) break;
    const Clock::time_point start = Clock::now();
    ret = aclmdlRIExecuteAsync(model, s.exec());
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.exec());
    ns +=
        std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    state.PauseTiming();
    const bool right = ret == ACL_SUCCESS && s.LastWordIs(7);
    state.ResumeTiming();
    if (ret == ACL_SUCCESS && !right) {
      state.SkipWithError("the replay's last value write did not land");
      break;
    }
  }
  if (ret != ACL_SUCCESS) state.SkipWithError(AclError("replay", ret).c_str());
  (void)aclmdlRIDestroy(model);
  const double per_task = NsPerTask(state, ns);
  state.counters["ns_per_task"] = per_task;
  if (g_issue_ns_per_task > 0) {
    const double ratio = per_task / g_issue_ns_per_task;
    state.counters["x_issue"] = ratio;
    state.SetLabel(ratio <= kReplayTarget ? "meets x_issue <= 0.5"
                                          : "MISSES x_issue <= 0.5");
  }
  state.SetItemsProcessed(state.iterations() * kTasks);
}

void BM_ReplayOneTask(benchmark::State& state) {
  Setup s;
  aclmdlRI model = nullptr;
  aclError ret = s.ok() ? aclmdlRICaptureBegin(s.stream(),
                                               ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
                        : ACL_ERROR_FAILURE;
  if (ret == ACL_SUCCESS) ret = s.IssueLast(s.stream(), 9);
  if (ret == ACL_SUCCESS) ret = aclmdlRICaptureEnd(s.stream(), &model);
  if (ret == ACL_SUCCESS) ret = aclmdlRIExecuteAsync(model, s.exec());
  if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.exec());
  if (ret != ACL_SUCCESS) {
    state.SkipWithError(
        AclError("setup, capture or first replay", ret).c_str());
    if (model != nullptr) (void)aclmdlRIDestroy(model);
    return;
  }
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    ret = aclmdlRIExecuteAsync(model, s.exec());
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.exec());
    if (ret != ACL_SUCCESS) break;
  }
  const double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  if (ret != ACL_SUCCESS) state.SkipWithError(AclError("replay", ret).c_str());
  if (!s.LastWordIs(9)) state.SkipWithError("the replay did not write");
  (void)aclmdlRIDestroy(model);
  state.counters["ns_per_replay"] =
      state.iterations() > 0 ? ns / state.iterations() : 0;
}

void BM_ReplayGraphCold(benchmark::State& state) {
  Setup s;
  if (!s.ok()) {
    state.SkipWithError("cannot set device 0 or create streams");
    return;
  }
  double ns = 0;
  uint64_t value = 100;
  for (auto _ : state) {
    aclmdlRI model = nullptr;
    aclError ret = s.Capture(++value, &model);
    double seconds = 0;
    if (ret == ACL_SUCCESS) {
      const Clock::time_point start = Clock::now();
      ret = aclmdlRIExecuteAsync(model, s.exec());
      if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(s.exec());
      seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (model != nullptr) (void)aclmdlRIDestroy(model);
    }
    state.SetIterationTime(seconds);
    ns += seconds * 1e9;
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(AclError("capture or first replay", ret).c_str());
      break;
    }
    if (!s.LastWordIs(value)) {
      state.SkipWithError("the first replay's last value write did not land");
      break;
    }
  }
  const double per_task = NsPerTask(state, ns);
  state.counters["ns_per_task"] = per_task;
  if (g_issue_ns_per_task > 0) {
    state.counters["x_issue"] = per_task / g_issue_ns_per_task;
  }
  state.SetItemsProcessed(state.iterations() * kTasks);
}

void BM_AtomicAcquireLoad(benchmark::State& state) {
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(g_word.load(std::memory_order_acquire));
  }
  const double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  g_load_ns = state.iterations() > 0 ? ns / state.iterations() : 0;
  state.counters["ns_per_call"] = g_load_ns;
}

void BM_SnapshotGate(benchmark::State& state) {
  { ascend::rt::ProcessApiScope warm; }
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    ascend::rt::ProcessApiScope gate;
    benchmark::DoNotOptimize(gate.refused());
  }
  const double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  g_gate_ns = state.iterations() > 0 ? ns / state.iterations() : 0;
  state.counters["ns_per_call"] = g_gate_ns;
  if (g_load_ns > 0) state.counters["x_load"] = g_gate_ns / g_load_ns;
}

void BM_CaptureGetInfoIdle(benchmark::State& state) {
  Setup s;
  if (!s.ok()) {
    state.SkipWithError("cannot set device 0 or create streams");
    return;
  }
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  aclmdlRI model = nullptr;
  aclError ret = aclmdlRICaptureGetInfo(s.stream(), &status, &model);
  if (ret != ACL_SUCCESS || status != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
    state.SkipWithError(AclError("aclmdlRICaptureGetInfo", ret).c_str());
    return;
  }
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    ret |= aclmdlRICaptureGetInfo(s.stream(), &status, &model);
    benchmark::DoNotOptimize(status);
  }
  const double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  if (ret != ACL_SUCCESS) {
    state.SkipWithError("aclmdlRICaptureGetInfo failed");
    return;
  }
  const double per_call = state.iterations() > 0 ? ns / state.iterations() : 0;
  state.counters["ns_per_call"] = per_call;
  if (g_gate_ns > 0) state.counters["x_gate"] = per_call / g_gate_ns;
  if (g_load_ns > 0) state.counters["x_load"] = per_call / g_load_ns;
}

// Baselines first: their figures are the ratios' denominators.
BENCHMARK(BM_IssueValueWrites)->UseRealTime();
BENCHMARK(BM_ReplayGraph)->UseRealTime();
BENCHMARK(BM_ReplayOneTask)->UseRealTime();
BENCHMARK(BM_ReplayGraphCold)->UseManualTime();
BENCHMARK(BM_AtomicAcquireLoad);
BENCHMARK(BM_SnapshotGate);
BENCHMARK(BM_CaptureGetInfoIdle);

}  // namespace
