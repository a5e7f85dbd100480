// Cost of running an empty host function on a stream: aclrtLaunchHostFunc
// (enqueue) plus its completion on the stream's executor thread, measured in
// batches of 1000 followed by aclrtSynchronizeStream, and one at a time
// (launch + synchronize: the round trip).
//
//   bazel run -c opt //acl/api:host_func_benchmark
//
// Baselines measured earlier in the same run hand the same number of empty
// std::function tasks to a worker thread through a std::mutex +
// std::condition_variable queue (the least a stream executor must do).
// Counters: ns_per_task, x_handoff (host function cost over the baseline's)
// and, for batches, x_target (cost over the 5 us/task target: must stay below
// 1). items_per_second is tasks per second. Exits non-zero when a benchmark
// reports an error.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr double kTargetNsPerTask = 5000;

using Clock = std::chrono::steady_clock;

// Baseline per-task cost, keyed by batch size (1 or the batch).
double g_handoff_ns[2] = {0, 0};

// A worker thread fed through a mutex + condition variable queue.
class HandoffWorker {
 public:
  HandoffWorker() : thread_([this] { Run(); }) {}
  ~HandoffWorker() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    work_cv_.notify_one();
    thread_.join();
  }

  void Post(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(task));
      ++posted_;
    }
    work_cv_.notify_one();
  }

  void WaitAll() {
    std::unique_lock<std::mutex> lock(mu_);
    const uint64_t target = posted_;
    done_cv_.wait(lock, [&] { return finished_ >= target; });
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      std::function<void()> task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      ++finished_;
      done_cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<std::function<void()>> queue_;
  uint64_t posted_ = 0;
  uint64_t finished_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

void EmptyHostFunc(void*) {}

double NsPerTask(const benchmark::State& state, Clock::time_point start,
                 int64_t batch) {
  const double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  const double tasks = static_cast<double>(state.iterations()) * batch;
  return tasks > 0 ? ns / tasks : 0;
}

void BM_CondvarHandoff(benchmark::State& state) {
  const int64_t batch = state.range(0);
  HandoffWorker worker;
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    for (int64_t i = 0; i < batch; ++i) worker.Post([] {});
    worker.WaitAll();
  }
  const double ns = NsPerTask(state, start, batch);
  g_handoff_ns[batch == 1 ? 0 : 1] = ns;
  state.counters["ns_per_task"] = ns;
  state.SetItemsProcessed(state.iterations() * batch);
}

void BM_LaunchHostFunc(benchmark::State& state) {
  const int64_t batch = state.range(0);
  aclrtStream stream = nullptr;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS) {
    state.SkipWithError("cannot set device 0 or create a stream");
    return;
  }
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    aclError ret = ACL_SUCCESS;
    for (int64_t i = 0; i < batch && ret == ACL_SUCCESS; ++i) {
      ret = aclrtLaunchHostFunc(stream, EmptyHostFunc, nullptr);
    }
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(("ACL error " + std::to_string(ret)).c_str());
      break;
    }
  }
  const double ns = NsPerTask(state, start, batch);
  state.counters["ns_per_task"] = ns;
  const double baseline = g_handoff_ns[batch == 1 ? 0 : 1];
  if (baseline > 0) state.counters["x_handoff"] = ns / baseline;
  if (batch > 1) state.counters["x_target"] = ns / kTargetNsPerTask;
  state.SetItemsProcessed(state.iterations() * batch);
  (void)aclrtDestroyStream(stream);
  (void)aclrtResetDevice(0);
}

// Baselines first: their figures are the ratios' denominators.
BENCHMARK(BM_CondvarHandoff)->Arg(1000)->UseRealTime();
BENCHMARK(BM_CondvarHandoff)->Arg(1)->UseRealTime();
BENCHMARK(BM_LaunchHostFunc)->Arg(1000)->UseRealTime();
BENCHMARK(BM_LaunchHostFunc)->Arg(1)->UseRealTime();

}  // namespace
