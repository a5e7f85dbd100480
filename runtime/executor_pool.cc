#include "runtime/executor_pool.h"

#include <chrono>
#include <system_error>
#include <thread>
#include <utility>

#include "runtime/stream.h"

namespace ascend::rt {

ExecutorPool& ExecutorPool::Process() {
  static ExecutorPool* const pool = new ExecutorPool;
  return *pool;
}

bool ExecutorPool::Run(const std::shared_ptr<Stream>& stream) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (run_hook_ && !run_hook_()) return false;
    if (waiting_ > ready_.size()) {
      ready_.push_back(stream);
      lock.unlock();
      ready_cv_.notify_one();
      return true;
    }
    ++workers_;
  }
  try {
    std::thread([this, stream] { Work(stream); }).detach();
    return true;
  } catch (const std::system_error&) {
    std::lock_guard<std::mutex> lock(mu_);
    --workers_;
    return false;
  }
}

void ExecutorPool::Work(std::shared_ptr<Stream> stream) {
  const auto retire_after =
      std::chrono::microseconds(absl::ToInt64Microseconds(kIdleRetire));
  for (;;) {
    stream->RunQueued();
    // The last reference may be this one: the stream is destroyed here, off
    // the pool's lock (it no longer needs a worker).
    stream.reset();
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    for (;;) {
      ready_cv_.wait_for(lock, retire_after,
                         [this] { return !ready_.empty(); });
      if (!ready_.empty()) break;
      if (waiting_ > kKeepIdle) {
        --waiting_;
        --workers_;
        return;
      }
    }
    stream = std::move(ready_.front());
    ready_.pop_front();
    --waiting_;
  }
}

ExecutorPool::Stats ExecutorPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return Stats{workers_, waiting_};
}

void ExecutorPool::SetRunHookForTesting(std::function<bool()> hook) {
  std::lock_guard<std::mutex> lock(mu_);
  run_hook_ = std::move(hook);
}

}  // namespace ascend::rt
