// A stream: an in-order queue of tasks executed asynchronously, in order, by
// a worker of its runtime's executor pool (runtime/executor_pool.h), which
// the stream holds only while it has work (DESIGN.md §5.3.1). A failed task
// is told to its runtime's exception callbacks. Both are given at
// construction and must outlive the stream (DESIGN.md §1.4).
//
//   auto s = std::make_shared<Stream>(pool, exception_callbacks, device_id,
//                                     stream_id, flags, priority);
//   s.Enqueue(Task{[&] { return DoCopy(); }});
//   ASCEND_RETURN_IF_ERROR(s.Synchronize(absl::InfiniteFuture()));
//
// A failing task records its status. A failure is reported to two readers,
// each once: the stream's own Synchronize (aclrtSynchronizeStream) and the
// device-wide one (aclrtSynchronizeDevice); see ErrorReader. Reporting it to
// one leaves it pending for the other. In ACL_STOP_ON_FAILURE mode the tasks
// after a failure are skipped until the stream's own Synchronize reports it.
// Executors never park on a snapshot lock (DESIGN.md §4.4): Backup drains
// them, and a drain reports nothing and clears nothing. If no worker thread
// can be started for new work, the queued tasks fail with
// ACL_ERROR_RT_RESOURCE_ALLOC_FAIL (their cancel runs); a later enqueue tries
// again. Streams are owned by std::shared_ptr (a worker holds one while it
// runs the stream).
#ifndef ASCENDCL_RUNTIME_STREAM_H_
#define ASCENDCL_RUNTIME_STREAM_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "runtime/base/handle.h"
#include "runtime/executor_pool.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

// Who collects a stream's task failures. Each reader is told of a failure
// once, independently of the other: an aclrtSynchronizeDevice that reports a
// stream's failure does not take it from that stream's own
// aclrtSynchronizeStream (CANN's reference is silent here; errors are
// reported, never silently dropped), and a stream's own synchronize does not
// take it from the next device synchronize.
enum class ErrorReader : int {
  kStream = 0,  // aclrtSynchronizeStream on this stream
  kDevice = 1,  // aclrtSynchronizeDevice on the stream's device
};

// Blocking stream tasks (waits) wait in slices of this length, checking
// between slices whether their stream is being destroyed.
inline constexpr absl::Duration kTaskWaitSlice = absl::Milliseconds(20);

struct KernelTaskInfo;     // runtime/exception_info.h
class ExceptionCallbacks;  // runtime/exception_info.h
struct Task;
class Stream;

// What a task is, for a model's task queries (aclmdlRITaskGetType and
// aclmdlRITaskGetParams): CANN's aclmdlRITaskType and the operands.
struct TaskParams {
  int type = 0;            // aclmdlRITaskType; 0 (DEFAULT) for every other task
  void* object = nullptr;  // the event, or the value task's address
  uint64_t value = 0;      // a value write's or wait's value
  uint32_t flag = 0;       // record/wait/reset flag, or the value wait's
};

// Where a recording stream's tasks go instead of its queue: a graph capture
// or a model's bound stream (runtime/model/model.h, DESIGN.md §5.21). A task is
// recorded either as itself (re-run as it is by every execution) or as a
// maker, whose enqueue-time part (an event record's sequence number, say)
// runs again for every execution.
class TaskRecorder {
 public:
  virtual ~TaskRecorder() = default;
  virtual void Record(Stream& stream, Task task) = 0;
  virtual void RecordMaker(Stream& stream, const TaskParams& params,
                           std::function<Task()> make) = 0;
};

struct Task {
  // Runs on a pool worker, in stream order (Stream::Current() is the stream).
  std::function<absl::Status()> run;
  // Called instead of `run` when the task is discarded (forced destroy or
  // device reset) or skipped after a failure, so waiters are released.
  std::function<void()> cancel;
  // Set by Stream::Enqueue: the task's id on its stream (CANN's task id,
  // counting from 0 per stream) and the enqueuing thread (CurrentThreadId),
  // which a failure's exception information names.
  uint32_t id = 0;
  uint32_t thread_id = 0;
  // A kernel launch's exception information (null for other tasks); it
  // lives as long as `run`.
  const KernelTaskInfo* kernel = nullptr;
  TaskParams params;
  // Called by the worker once `run` has returned, and with it everything the
  // task path's hooks wrapped around it (a timeline report, a dump), with
  // run's status; not called when the task is cancelled. What waits for
  // `after` sees the task wholly done.
  std::function<void(const absl::Status&)> after;
};

// What aclrtCreateStreamV2's configuration handle holds: the priority and
// flags every stream has, and the work memory a model executed on the stream
// may use (kept for the model runtime; the stream itself never touches it).
struct StreamConfig {
  uint32_t priority = 0;
  uint32_t flags = 0;
  void* work_ptr = nullptr;
  size_t work_size = 0;
};

// The attributes aclrtSetStreamAttribute / aclrtGetStreamAttribute address
// (besides the failure mode, which Stream keeps: SetFailureModeOnce).
struct StreamAttributes {
  uint32_t priority = 0;
  uint32_t overflow_switch = 0;  // ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK
  uint32_t user_custom_tag = 0;  // ACL_STREAM_ATTR_USER_CUSTOM_TAG
  uint32_t cache_op_info = 0;    // ACL_STREAM_ATTR_CACHE_OP_INFO
  bool operator==(const StreamAttributes& o) const {
    return priority == o.priority && overflow_switch == o.overflow_switch &&
           user_custom_tag == o.user_custom_tag &&
           cache_op_info == o.cache_op_info;
  }
};

class Stream : public std::enable_shared_from_this<Stream>,
               private ExecutorPool::Job {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kStream;

  // `executors` runs the stream's tasks; `exceptions` is told of the ones
  // that fail. Both outlive the stream.
  Stream(ExecutorPool& executors, const ExceptionCallbacks& exceptions,
         int32_t device_id, uint32_t id, uint32_t flags, uint32_t priority,
         void* work_ptr = nullptr, size_t work_size = 0);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  // Shutdown().
  ~Stream();

  int32_t device_id() const { return device_id_; }
  uint32_t id() const { return id_; }
  uint32_t flags() const { return flags_; }
  // The current priority: the creation's until ACL_STREAM_ATTR_PRIORITY
  // changes it.
  uint32_t priority() const;
  void* work_ptr() const { return work_ptr_; }
  size_t work_size() const { return work_size_; }
  StreamAttributes attributes() const;
  // Changes the attributes in one critical section.
  void UpdateAttributes(const std::function<void(StreamAttributes&)>& change);
  bool stop_on_failure() const;
  // The aclrtStream callers hold (see ObjectHandle).
  void* handle() const { return handle_.value(); }

  // A snapshot keeps a stream's id (its queue is drained first) and its
  // attributes, which are host state.
  struct State {
    bool stop_on_failure = false;
    bool failure_mode_set = false;
    StreamAttributes attributes;
  };
  State SaveState() const;
  void RestoreState(const State& state);
  static std::string DescribeState(const State& state);

  // Queues `task` (its id is the stream's next task id, also recorded as the
  // calling thread's last task id, aclrtGetThreadLastTaskId). Families do
  // not call it: their tasks go through the task path (runtime/task_path.h),
  // whose hooks may take a task instead (a capture: see recorder()).
  void Enqueue(Task task);
  // The same (kept for the executors' own name of it).
  void EnqueueUnrecorded(Task task) { Enqueue(std::move(task)); }
  // Where the capture hook sends this stream's tasks instead of its queue
  // (DESIGN.md §5.21). Checking costs one load.
  bool recording() const { return recording_.load(std::memory_order_acquire); }
  std::shared_ptr<TaskRecorder> recorder() const;
  // Starts (non-null) or ends (null) recording.
  void SetRecorder(std::shared_ptr<TaskRecorder> recorder);
  // Waits until every task enqueued before the call has finished, or
  // `deadline` passes (kDeadlineExceeded). Returns (and clears, for `reader`
  // only) the first task failure not yet reported to `reader`. Only the
  // stream's own reader ends an ACL_STOP_ON_FAILURE skip.
  absl::Status Synchronize(absl::Time deadline,
                           ErrorReader reader = ErrorReader::kStream);
  // Waits like Synchronize but clears nothing: returns kDeadlineExceeded, or
  // the failure still pending for the stream's own reader (for logging).
  absl::Status Drain(absl::Time deadline);
  // True when no task is pending or running.
  bool Idle() const;
  // Sets the failure mode once (06, aclrtSetStreamFailureMode constraints):
  // false, changing nothing, when it was set before.
  bool SetFailureModeOnce(bool stop);
  // Discards tasks that have not started (their cancel runs).
  void DiscardPending();
  // Discards pending tasks and tells a running blocking task (a wait) to give
  // up: such tasks poll aborting() while they wait.
  void Abort();
  bool aborting() const {
    return aborting_.load(std::memory_order_acquire) ||
           force_closing_.load(std::memory_order_acquire);
  }
  // aclrtDestroyStreamForce, after the stream left the runtime's tables:
  // what was queued before it and needs nothing else still runs (kernels,
  // copies, host functions: work a device already holds), a wait gives up at
  // once and from the first one that gave up the rest is discarded. Returns
  // once no wait of the stream is blocked (a wait gives up within one wait
  // slice), without waiting for the rest; nobody reads the stream's failures
  // any more.
  void CloseForce();
  // aclrtStreamStop: the running task is asked to stop (a kernel runs no
  // further blocks; a wait gives up) and the tasks after it run as usual.
  // The request ends with that task.
  void StopRunning();
  bool stopping() const {
    return stopping_.load(std::memory_order_acquire) ||
           aborting_.load(std::memory_order_acquire);
  }
  // Abort(), then waits until no worker holds the stream: no task of this
  // stream runs afterwards, and tasks enqueued later are cancelled at once.
  // Idempotent.
  // (A device reset shuts its streams down even while another thread's
  // context still refers to one.)
  void Shutdown();

  // Discards pending tasks and makes a running blocking task give up, then
  // waits (until `deadline`) for the running task to end; the stream stays
  // usable afterwards (aclrtDeviceTaskAbort). kDeadlineExceeded when the
  // running task did not end in time.
  absl::Status AbortTasks(absl::Time deadline);

  // The stream whose task (a host function, a callback) is running on the
  // calling thread, or null. Such a task must not wait for its own stream
  // or tear it down: the runtime refuses those calls instead of deadlocking.
  static const Stream* Current();
  // The id of the task running on the calling thread (meaningful while
  // Current() is not null): what a hook wrapping a task's run names it by.
  static uint32_t CurrentTaskId();
  // Held by a task while it blocks in a wait (event, notify, count notify,
  // value and cache-maintenance waits; they poll aborting()):
  // aclrtDestroyStreamForce returns once its stream's waits gave up, leaving
  // the work behind them discarded and the work before them running on.
  // `stream` null: not on a stream (nothing to mark).
  class BlockedWait {
   public:
    explicit BlockedWait(const Stream* stream) : stream_(stream) {
      if (stream_)
        stream_->blocked_waits_.fetch_add(1, std::memory_order_acq_rel);
    }
    ~BlockedWait() {
      if (stream_)
        stream_->blocked_waits_.fetch_sub(1, std::memory_order_acq_rel);
    }
    BlockedWait(const BlockedWait&) = delete;
    BlockedWait& operator=(const BlockedWait&) = delete;

   private:
    const Stream* const stream_;
  };

  // Whether the stream running the calling task is being aborted (a wait
  // polls this; tasks recorded in a model run on the model's streams, so
  // they ask the stream running them, never the one they were issued to).
  static bool CurrentAborting() {
    const Stream* s = Current();
    return s != nullptr && s->aborting();
  }

 private:
  // On a pool worker: runs the queue until it stays empty for the pool's
  // linger (the reaper releases the worker, or, when `reaped` is false, a
  // timed wait ends) or the stream shuts down, then leaves the stream.
  void RunQueued(bool reaped) override;
  void ReleaseIfIdleSince(absl::Time cutoff) override;
  // Gives the stream a worker (after Enqueue set scheduled_); fails the
  // queued tasks when none can be had.
  void Dispatch();
  // Tells the exception callbacks of a failed task (on its worker).
  void ReportException(const Task& task, const absl::Status& status) const;
  // Records a finished task's result.
  void FinishLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Waits for the tasks enqueued so far; kDeadlineExceeded past `deadline`.
  absl::Status WaitLocked(absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The failure pending for `reader` (OK when none).
  absl::Status& ErrorLocked(ErrorReader reader)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return errors_[static_cast<int>(reader)];
  }

  ExecutorPool& executors_;
  const ExceptionCallbacks& exceptions_;
  const int32_t device_id_;
  const uint32_t id_;
  const uint32_t flags_;
  void* const work_ptr_;
  const size_t work_size_;
  const ObjectHandle handle_;

  mutable ascend::Mutex mu_;
  StreamAttributes attributes_ ABSL_GUARDED_BY(mu_);
  std::deque<Task> queue_ ABSL_GUARDED_BY(mu_);
  uint64_t enqueued_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t finished_ ABSL_GUARDED_BY(mu_) = 0;
  // The first failure not yet reported, per ErrorReader.
  absl::Status errors_[2] ABSL_GUARDED_BY(mu_);
  bool stop_on_failure_ ABSL_GUARDED_BY(mu_) = false;
  bool failure_mode_set_ ABSL_GUARDED_BY(mu_) = false;
  bool shutdown_ ABSL_GUARDED_BY(mu_) = false;
  bool running_ ABSL_GUARDED_BY(mu_) = false;  // a task is running
  // A worker holds the stream, or is being given it (Dispatch).
  bool scheduled_ ABSL_GUARDED_BY(mu_) = false;
  // The reaper told the lingering worker to leave (ReleaseIfIdleSince).
  bool released_ ABSL_GUARDED_BY(mu_) = false;
  // Since when the worker has been lingering (Unix ns; written under mu_,
  // read by the reaper without it first), kNotIdle while it is not.
  static constexpr int64_t kNotIdle = INT64_MAX;
  std::atomic<int64_t> idle_since_ns_{kNotIdle};
  std::atomic<bool> aborting_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> force_closing_{false};
  // Tasks of this stream blocked in a wait now (BlockedWait).
  mutable std::atomic<int> blocked_waits_{0};
  std::atomic<bool> recording_{false};
  std::shared_ptr<TaskRecorder> recorder_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_STREAM_H_
