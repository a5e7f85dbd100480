#include "runtime/executor_pool.h"

#include <chrono>
#include <system_error>
#include <thread>
#include <utility>

#include "runtime/stream.h"

namespace ascend::rt {

ExecutorPool::~ExecutorPool() {
  std::unique_lock<std::mutex> lock(mu_);
  stopping_ = true;
  ready_cv_.notify_all();
  // A worker's last touch of the pool is its decrement of workers_, under
  // mu_ (Work), so the pool may go once the count is zero.
  gone_cv_.wait(lock, [this] { return workers_ == 0; });
}

bool ExecutorPool::Run(const std::shared_ptr<Job>& stream) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (stopping_) return false;
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
    // The thread keeps no reference of its own: Work drops the stream when
    // the stream needs no worker.
    std::thread([this, stream]() mutable { Work(std::move(stream)); }).detach();
    return true;
  } catch (const std::system_error&) {
    std::lock_guard<std::mutex> lock(mu_);
    --workers_;
    if (workers_ == 0) gone_cv_.notify_all();
    return false;
  }
}

void ExecutorPool::Work(std::shared_ptr<Job> stream) {
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
                         [this] { return !ready_.empty() || stopping_; });
      if (!ready_.empty()) break;
      if (stopping_ || waiting_ > kKeepIdle) {
        --waiting_;
        --workers_;
        // Under mu_: the pool may be destroyed once this lock is released.
        if (stopping_ && workers_ == 0) gone_cv_.notify_all();
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
