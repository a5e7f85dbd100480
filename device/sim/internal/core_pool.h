// The simulated cores of one device: host threads that run the blocks of a
// kernel launch in parallel.
//
//   CorePool cores;
//   cores.Run(/*blocks=*/48, /*cores=*/24, [&](uint32_t block) { ... });
//
// Run returns when every block has run. The calling thread is one of the
// cores: a launch of one block, or one limited to one core, runs on it alone
// and wakes no other thread. Helper threads are started on demand (never
// more than a launch ever asked for, and at most kMaxThreads) and park
// between launches. Launches from several threads (streams) share the
// helpers: each launch takes at most `cores - 1` of them, and a launch whose
// helpers are all busy still makes progress on its own thread.
//
// Thread safety: Run may be called from any number of threads at once.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_CORE_POOL_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_CORE_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace ascend::device::sim::internal {

class CorePool {
 public:
  static constexpr uint32_t kMaxThreads = 256;

  CorePool() = default;
  CorePool(const CorePool&) = delete;
  CorePool& operator=(const CorePool&) = delete;
  // Joins the helpers (no Run may be in progress).
  ~CorePool();

  // Calls body(block) once for every block in [0, blocks), on up to `cores`
  // threads at once (0 counts as 1), and returns when all calls returned.
  void Run(uint32_t blocks, uint32_t cores,
           absl::FunctionRef<void(uint32_t)> body);

  // Helper threads started so far.
  size_t threads() const;

 private:
  struct Job {
    explicit Job(absl::FunctionRef<void(uint32_t)> b) : body(b) {}
    absl::FunctionRef<void(uint32_t)> body;
    uint32_t blocks = 0;
    std::atomic<uint32_t> next{0};
    uint32_t wanted = 0;   // helper places not taken yet (mu_)
    uint32_t running = 0;  // helpers working on it (mu_)
  };
  static void Work(Job& job);
  void Helper();

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Job*> jobs_;             // jobs with helper places left (mu_)
  std::vector<std::thread> threads_;  // (mu_)
  uint32_t idle_ = 0;                 // helpers waiting for work (mu_)
  bool stop_ = false;                 // (mu_)
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_CORE_POOL_H_
