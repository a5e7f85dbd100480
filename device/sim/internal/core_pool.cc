#include "device/sim/internal/core_pool.h"

#include <algorithm>

namespace ascend::device::sim::internal {

CorePool::~CorePool() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    threads.swap(threads_);
  }
  work_cv_.notify_all();
  for (std::thread& t : threads) t.join();
}

size_t CorePool::threads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return threads_.size();
}

void CorePool::Work(Job& job) {
  for (;;) {
    const uint32_t block = job.next.fetch_add(1, std::memory_order_relaxed);
    if (block >= job.blocks) return;
    job.body(block);
  }
}

void CorePool::Run(uint32_t blocks, uint32_t cores,
                   absl::FunctionRef<void(uint32_t)> body) {
  const uint32_t width = std::min(std::max<uint32_t>(cores, 1), blocks);
  if (width <= 1) {
    for (uint32_t block = 0; block < blocks; ++block) body(block);
    return;
  }
  Job job(body);
  job.blocks = blocks;
  job.wanted = width - 1;
  uint32_t wake = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Start helpers until this launch's places could all be taken at once;
    // a thread that cannot be started leaves the work to fewer cores.
    while (idle_ < job.wanted && threads_.size() < kMaxThreads) {
      try {
        threads_.emplace_back([this] { Helper(); });
      } catch (...) {
        break;
      }
      ++idle_;
    }
    jobs_.push_back(&job);
    wake = std::min(job.wanted, idle_);
  }
  for (uint32_t i = 0; i < wake; ++i) work_cv_.notify_one();
  Work(job);
  std::unique_lock<std::mutex> lock(mu_);
  // Helpers that have not come yet must not find the job any more.
  if (job.wanted != 0) {
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    job.wanted = 0;
  }
  done_cv_.wait(lock, [&job] { return job.running == 0; });
}

void CorePool::Helper() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
    if (stop_) return;
    Job* job = jobs_.front();
    if (--job->wanted == 0) jobs_.pop_front();
    ++job->running;
    --idle_;
    lock.unlock();
    Work(*job);
    lock.lock();
    ++idle_;
    if (--job->running == 0) done_cv_.notify_all();
  }
}

}  // namespace ascend::device::sim::internal
