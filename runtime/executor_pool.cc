#include "runtime/executor_pool.h"

#include <algorithm>
#include <chrono>
#include <system_error>
#include <thread>
#include <utility>

namespace ascend::rt {

ExecutorPool::~ExecutorPool() {
  std::thread reaper;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    ready_cv_.notify_all();
    reaper_cv_.notify_all();
    reaper = std::move(reaper_);
  }
  if (reaper.joinable()) reaper.join();
  // A worker's last touch of the pool is its decrement of workers_, under
  // mu_ (Work), so the pool may go once the count is zero. Workers still
  // lingering on a stream nobody shut down are released here, as the reaper
  // would have.
  const auto tick =
      std::chrono::microseconds(absl::ToInt64Microseconds(kLinger));
  std::unique_lock<std::mutex> lock(mu_);
  while (!gone_cv_.wait_for(lock, tick, [this] { return workers_ == 0; })) {
    std::vector<std::shared_ptr<Job>> jobs = serving_;
    lock.unlock();
    for (const std::shared_ptr<Job>& job : jobs) {
      job->ReleaseIfIdleSince(absl::Now());
    }
    jobs.clear();
    lock.lock();
  }
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

bool ExecutorPool::StartReaperLocked() {
  if (reaper_started_) return reaper_.joinable();
  reaper_started_ = true;
  try {
    reaper_ = std::thread([this] { Reap(); });
    return true;
  } catch (const std::system_error&) {
    // Workers time their own lingers instead, from now on.
    return false;
  }
}

void ExecutorPool::Reap() {
  const auto tick =
      std::chrono::microseconds(absl::ToInt64Microseconds(kLinger));
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (serving_.empty()) {
      // Nothing to reap: no timer runs while no worker serves a stream.
      reaper_idle_ = true;
      reaper_cv_.wait(lock, [this] { return stopping_ || !serving_.empty(); });
      reaper_idle_ = false;
      continue;
    }
    reaper_cv_.wait_for(lock, tick, [this] { return stopping_; });
    if (stopping_) break;
    std::vector<std::shared_ptr<Job>> jobs = serving_;
    lock.unlock();
    const absl::Time cutoff = absl::Now() - kLinger;
    for (const std::shared_ptr<Job>& job : jobs)
      job->ReleaseIfIdleSince(cutoff);
    // A job's last reference may go here: off the pool's lock.
    jobs.clear();
    lock.lock();
  }
}

void ExecutorPool::Work(std::shared_ptr<Job> stream) {
  const auto retire_after =
      std::chrono::microseconds(absl::ToInt64Microseconds(kIdleRetire));
  for (;;) {
    bool reaped = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!stopping_) reaped = StartReaperLocked();
      serving_.push_back(stream);
      if (reaper_idle_) reaper_cv_.notify_one();
    }
    stream->RunQueued(reaped);
    std::shared_ptr<Job> served;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = std::find(serving_.begin(), serving_.end(), stream);
      if (it != serving_.end()) {
        served = std::move(*it);
        *it = std::move(serving_.back());
        serving_.pop_back();
      }
    }
    // The last reference may be one of these: the stream is destroyed here,
    // off the pool's lock (it no longer needs a worker).
    served.reset();
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
