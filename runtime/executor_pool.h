// A runtime's stream executors (DESIGN.md §5.3.1): worker threads that run
// streams' tasks. A stream holds a worker only while it has queued or
// running work, so an idle stream costs no thread. Each Runtime owns one
// (the host-function family reaches it: HostFuncs::executors(), DESIGN.md
// §1.4) and gives it to the streams it creates.
//
//   // Stream::Enqueue, when the stream's queue was idle:
//   if (!executors_.Run(self)) { /* fail the queued tasks */ }
//
// Run hands the stream to a waiting worker, or starts a new one when every
// worker is busy: a worker blocked in a task (an event wait) keeps its
// thread, exactly as a stream's own executor did, so no stream ever waits
// for another stream's worker. A worker whose stream ran out of work
// lingers on it for about kLinger: one reaper thread per pool, running only
// while some worker serves a stream, tells lingering workers idle longer
// than that to leave, so a worker's own wait for work needs no timer (a
// timed wait arms a kernel timer per task, which costs a replay's worth of
// latency on virtual machines). Idle workers retire after kIdleRetire, down
// to kKeepIdle. A thread that cannot be started (std::system_error) makes
// Run return false; nothing throws. Destroying the pool stops its workers
// and waits until every one has left the pool; by then no stream may be
// running on it (the runtime destroys it after all of its streams are shut
// down), and Run after that point returns false.
#ifndef ASCENDCL_RUNTIME_EXECUTOR_POOL_H_
#define ASCENDCL_RUNTIME_EXECUTOR_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace ascend::rt {

class ExecutorPool {
 public:
  // What a worker runs: a stream's queue. Stream derives from it privately,
  // so only a stream can hand itself to the pool, and only through its base
  // can the pool run it (no friendship between the two).
  class Job {
   public:
    virtual ~Job() = default;
    // Runs queued work until the queue stays empty (for kLinger, or until
    // released), then returns. `reaped`: the pool's reaper will release the
    // worker (ReleaseIfIdleSince); else the job times its own linger.
    virtual void RunQueued(bool reaped) = 0;
    // When the worker has been waiting for work since before `cutoff`, tells
    // it to leave the job.
    virtual void ReleaseIfIdleSince(absl::Time cutoff) = 0;
  };

  // How long a worker whose job ran out of work waits for more before it
  // leaves the job (a producer enqueueing back to back keeps its worker);
  // between kLinger and twice that.
  static constexpr absl::Duration kLinger = absl::Milliseconds(1);

  // Idle workers kept however long they idle.
  static constexpr size_t kKeepIdle = 4;
  // How long a worker beyond kKeepIdle waits for work before it exits.
  static constexpr absl::Duration kIdleRetire = absl::Milliseconds(200);

  ExecutorPool() = default;
  ExecutorPool(const ExecutorPool&) = delete;
  ExecutorPool& operator=(const ExecutorPool&) = delete;
  // Stops the workers and waits until each has left the pool.
  ~ExecutorPool();

  // Gives `job` (a stream) a worker, which runs its queue (Job::RunQueued)
  // until the queue stays empty. False when a worker was needed and no
  // thread could be started.
  bool Run(const std::shared_ptr<Job>& job);

  struct Stats {
    size_t workers = 0;  // live worker threads
    size_t waiting = 0;  // of which waiting for a stream
  };
  Stats stats() const;

  // Test-only: while set, every Run first calls `hook`; false makes that Run
  // fail as a thread that cannot be started does. Null clears it.
  void SetRunHookForTesting(std::function<bool()> hook);

 private:
  void Work(std::shared_ptr<Job> job);
  // The reaper thread's loop (see the class comment).
  void Reap();
  // Starts the reaper if it is not running; false when no thread could be
  // started (workers then time their own lingers).
  bool StartReaperLocked();

  mutable std::mutex mu_;
  std::condition_variable ready_cv_;
  // Signalled when the last worker leaves a stopping pool.
  std::condition_variable gone_cv_;
  bool stopping_ = false;
  // Streams handed to waiting workers, not yet taken.
  std::deque<std::shared_ptr<Job>> ready_;
  size_t workers_ = 0;
  size_t waiting_ = 0;  // workers waiting; always >= ready_.size()
  std::function<bool()> run_hook_;
  // The jobs workers are running (each with one worker), for the reaper.
  std::vector<std::shared_ptr<Job>> serving_;
  std::thread reaper_;
  bool reaper_started_ = false;
  // The reaper waits (untimed) for a worker to serve a job.
  bool reaper_idle_ = false;
  std::condition_variable reaper_cv_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_EXECUTOR_POOL_H_
