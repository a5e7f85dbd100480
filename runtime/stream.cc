// Streams: the task queue (Stream; its workers are runtime/executor_pool.h),
// the stream kind's descriptor and its snapshot participant (stream ids).
// The operations on streams are the streams family's
// (runtime/streams/stream_ops.cc); resolving and retiring them, the core's
// (runtime/runtime.cc).
#include "runtime/stream.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/context.h"
#include "runtime/exception_info.h"
#include "runtime/executor_pool.h"
#include "runtime/id_participant.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

thread_local const Stream* tls_running_stream = nullptr;
// The id of the task tls_running_stream is running (CurrentTaskId).
thread_local uint32_t tls_running_task_id = 0;

}  // namespace

// Contexts hold no id of their own (their default stream does); closing the
// device ends them, so a thread still pointing at one gets "no context".
const KindDescriptor kContextKind = {
    ObjectKind::kContext, "context", std::nullopt, ACL_ERROR_RT_PARAM_INVALID,
    [](const HandleTable::Entry& entry, CloseActions&) {
      if (auto context = entry.As<Context>()) context->MarkDestroyed();
    }};

// A closed device's streams leave the families at once (Family::
// OnStreamGone) and are shut down once the runtime's lock is released
// (CloseDeviceLocked).
const KindDescriptor kStreamKind = {
    ObjectKind::kStream, "stream", device::ResourceKind::kStream,
    ACL_ERROR_RT_NO_STREAM_RESOURCE,
    [](const HandleTable::Entry& entry, CloseActions& actions) {
      actions.gone_streams.push_back(entry.handle);
      if (auto stream = entry.As<Stream>()) {
        actions.streams.push_back(std::move(stream));
      }
    }};

std::string Stream::DescribeState(const State& state) {
  return absl::StrCat("drained, ", state.stop_on_failure ? "stop" : "continue",
                      " on failure",
                      state.failure_mode_set ? " (set)" : " (default)",
                      ", priority ", state.attributes.priority,
                      ", overflow switch ", state.attributes.overflow_switch,
                      ", tag ", state.attributes.user_custom_tag,
                      ", op info cache ", state.attributes.cache_op_info);
}

Stream::State Stream::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return State{stop_on_failure_, failure_mode_set_, attributes_};
}

void Stream::RestoreState(const State& state) {
  ascend::MutexLock lock(&mu_);
  stop_on_failure_ = state.stop_on_failure;
  failure_mode_set_ = state.failure_mode_set;
  attributes_ = state.attributes;
}

uint32_t Stream::priority() const {
  ascend::MutexLock lock(&mu_);
  return attributes_.priority;
}

StreamAttributes Stream::attributes() const {
  ascend::MutexLock lock(&mu_);
  return attributes_;
}

void Stream::UpdateAttributes(
    const std::function<void(StreamAttributes&)>& change) {
  ascend::MutexLock lock(&mu_);
  change(attributes_);
}

bool Stream::stop_on_failure() const {
  ascend::MutexLock lock(&mu_);
  return stop_on_failure_;
}

std::unique_ptr<SnapshotParticipant> MakeStreamParticipant(Runtime& runtime) {
  return std::make_unique<internal::IdParticipant<Stream>>(runtime);
}

const Stream* Stream::Current() { return tls_running_stream; }

uint32_t Stream::CurrentTaskId() { return tls_running_task_id; }

Stream::Stream(ExecutorPool& executors, const ExceptionCallbacks& exceptions,
               int32_t device_id, uint32_t id, uint32_t flags,
               uint32_t priority, void* work_ptr, size_t work_size)
    : executors_(executors),
      exceptions_(exceptions),
      device_id_(device_id),
      id_(id),
      flags_(flags),
      work_ptr_(work_ptr),
      work_size_(work_size) {
  // No thread: a worker comes with the first task (Dispatch).
  ascend::MutexLock lock(&mu_);
  attributes_.priority = priority;
}

Stream::~Stream() { Shutdown(); }

void Stream::Shutdown() {
  // A running blocking task gives up, the worker takes no further task and
  // leaves the stream, and what is left is cancelled once it has.
  aborting_.store(true, std::memory_order_release);
  {
    ascend::MutexLock lock(&mu_);
    shutdown_ = true;
    // A task tearing its own stream down (which the runtime refuses) must
    // not wait for itself; its worker leaves after that task.
    if (tls_running_stream != this) {
      mu_.Await(absl::Condition(
          +[](Stream* s)
               ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu_) { return !s->scheduled_; },
          this));
    }
  }
  DiscardPending();
}

void Stream::ReleaseIfIdleSince(absl::Time cutoff) {
  // Cheap for a stream with work: the lock is taken only to release (its
  // release wakes the stream's waiters, the host's synchronizes included).
  const int64_t before = absl::ToUnixNanos(cutoff);
  if (idle_since_ns_.load(std::memory_order_relaxed) > before) return;
  ascend::MutexLock lock(&mu_);
  // The worker writes the time under mu_: re-read, it may have found work.
  if (idle_since_ns_.load(std::memory_order_relaxed) <= before) {
    released_ = true;
  }
}

std::shared_ptr<TaskRecorder> Stream::recorder() const {
  ascend::MutexLock lock(&mu_);
  return recorder_;
}

void Stream::SetRecorder(std::shared_ptr<TaskRecorder> recorder) {
  ascend::MutexLock lock(&mu_);
  recording_.store(recorder != nullptr, std::memory_order_release);
  recorder_ = std::move(recorder);
}

void Stream::Enqueue(Task task) {
  internal::ThreadTaskRecord& record = internal::tls_task_record;
  if (ABSL_PREDICT_FALSE(record.thread_id == 0)) {
    record.thread_id = internal::ReadThreadId();
  }
  task.thread_id = record.thread_id;
  uint32_t id = 0;
  bool queued = false;
  bool dispatch = false;
  {
    ascend::MutexLock lock(&mu_);
    if (!shutdown_) {
      id = static_cast<uint32_t>(enqueued_);
      task.id = id;
      queue_.push_back(std::move(task));
      ++enqueued_;
      queued = true;
      dispatch = !scheduled_;
      scheduled_ = true;
    }
  }
  if (queued) {
    record.last_task_id = id;
    if (dispatch) Dispatch();
    return;
  }
  if (task.cancel) task.cancel();  // shut down: it will never run
}

void Stream::Dispatch() {
  // Streams are owned by shared pointers; a worker holds one while it runs
  // the stream, so the stream outlives the worker's last touch of it.
  // (The aliasing constructor: Job is a private base, which only the stream
  // itself may convert to.)
  if (std::shared_ptr<Stream> self = weak_from_this().lock();
      self != nullptr && executors_.Run(std::shared_ptr<Job>(
                             self, static_cast<Job*>(self.get())))) {
    return;
  }
  // No worker: what is queued fails as a task does (CANN's resource
  // exhaustion code, reported by the next synchronize) and is cancelled so
  // its waiters are released. Enqueuers meanwhile saw scheduled_ and only
  // queued, so the whole queue goes; the next enqueue tries again.
  const absl::Status error =
      Error(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
            "no thread could be started to run the stream's tasks");
  std::deque<Task> failed;
  {
    ascend::MutexLock lock(&mu_);
    failed.swap(queue_);
    for (size_t i = 0; i < failed.size(); ++i) FinishLocked(error);
    scheduled_ = false;
  }
  for (Task& task : failed) {
    if (task.cancel) task.cancel();
  }
}

void Stream::RunQueued(bool reaped) {
  // One critical section per task: it records the previous task's result and
  // takes the next one. Every release of mu_ wakes the threads waiting in
  // Synchronize to re-check, so a second lock per task would double the
  // wake-ups while a Synchronize waits on a long queue.
  absl::Status status;
  bool ran = false;
  for (;;) {
    Task task;
    bool skip = false;
    {
      ascend::MutexLock lock(&mu_);
      if (ran) {
        FinishLocked(std::move(status));
        running_ = false;
        stopping_.store(false, std::memory_order_release);
      }
      auto has_work = +[](Stream* s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu_) {
        return s->shutdown_ || !s->queue_.empty() || s->released_;
      };
      if (!has_work(this)) {
        // Linger for more work: until the pool's reaper releases the worker
        // (an untimed wait: no kernel timer per task), or for kLinger.
        if (reaped) {
          idle_since_ns_.store(absl::GetCurrentTimeNanos(),
                               std::memory_order_relaxed);
          mu_.Await(absl::Condition(has_work, this));
          idle_since_ns_.store(kNotIdle, std::memory_order_relaxed);
        } else {
          mu_.AwaitWithTimeout(absl::Condition(has_work, this),
                               ExecutorPool::kLinger);
        }
      }
      released_ = false;
      // Shut down: Shutdown cancels what is left once the worker is gone.
      if (shutdown_ || queue_.empty()) {
        scheduled_ = false;
        return;
      }
      task = std::move(queue_.front());
      queue_.pop_front();
      skip = stop_on_failure_ && !ErrorLocked(ErrorReader::kStream).ok();
      running_ = true;
    }
    status = absl::OkStatus();
    if (skip) {
      if (task.cancel) task.cancel();
    } else if (task.run) {
      // Whichever worker runs the task is the stream's executor for it.
      tls_running_stream = this;
      tls_running_task_id = task.id;
      // Backup's drain waits for this task: its gated calls must not wait
      // for the snapshot (DESIGN.md §4.3).
      StreamWorkScope stream_work(StreamWorkScope::kTask);
      status = task.run();
      tls_running_stream = nullptr;
      if (task.after) task.after(status);
      if (!status.ok()) ReportException(task, status);
      // A force-closed stream stops at the first task that gave up.
      if (absl::IsCancelled(status) &&
          force_closing_.load(std::memory_order_acquire)) {
        DiscardPending();
      }
    }
    ran = true;
  }
}

void Stream::ReportException(const Task& task,
                             const absl::Status& status) const {
  const ExceptionCallbacks& callbacks = exceptions_;
  if (callbacks.empty() && task.kernel == nullptr) return;
  rtExceptionInfo info;
  info.task_id = task.id;
  info.stream_id = id_;
  info.thread_id = task.thread_id;
  info.device_id = static_cast<uint32_t>(device_id_);
  info.error_code = static_cast<uint32_t>(ErrorCode(status));
  if (task.kernel != nullptr) {
    info.args = task.kernel->args_ptr;
    info.args_len = task.kernel->args_len;
    info.func = task.kernel->func;
  }
  // Callbacks run like the task did: as stream work, on this stream.
  tls_running_stream = this;
  if (task.kernel != nullptr && task.kernel->notify != nullptr) {
    rtExceptionInfo own = info;
    task.kernel->notify(*task.kernel, own);
  }
  if (!callbacks.empty()) callbacks.Notify(info);
  tls_running_stream = nullptr;
}

void Stream::FinishLocked(absl::Status status) {
  ++finished_;
  if (status.ok()) return;
  absl::Status error(status.code(),
                     absl::StrCat("stream ", id_, ": ", status.message()));
  status.ForEachPayload([&error](absl::string_view url, const absl::Cord& p) {
    error.SetPayload(url, p);
  });
  for (absl::Status& pending : errors_) {
    if (pending.ok()) pending = error;
  }
}

absl::Status Stream::WaitLocked(absl::Time deadline) {
  const uint64_t target = enqueued_;
  struct Args {
    Stream* s;
    uint64_t target;
  } args{this, target};
  bool done =
      mu_.AwaitWithDeadline(absl::Condition(
                                +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                  return a->s->finished_ >= a->target;
                                },
                                &args),
                            deadline);
  if (!done) {
    return absl::DeadlineExceededError(
        absl::StrCat("stream ", id_, " did not finish in time (",
                     target - finished_, " task(s) pending)"));
  }
  return absl::OkStatus();
}

absl::Status Stream::Synchronize(absl::Time deadline, ErrorReader reader) {
  ascend::MutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(WaitLocked(deadline));
  absl::Status error = std::move(ErrorLocked(reader));
  ErrorLocked(reader) = absl::OkStatus();
  return error;
}

absl::Status Stream::Drain(absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(WaitLocked(deadline));
  return ErrorLocked(ErrorReader::kStream);
}

bool Stream::Idle() const {
  ascend::MutexLock lock(&mu_);
  return finished_ == enqueued_;
}

bool Stream::SetFailureModeOnce(bool stop) {
  ascend::MutexLock lock(&mu_);
  if (failure_mode_set_) return false;
  failure_mode_set_ = true;
  stop_on_failure_ = stop;
  return true;
}

void Stream::CloseForce() {
  force_closing_.store(true, std::memory_order_release);
  // Its waits give up at their next poll (one wait slice); after that the
  // stream touches nothing a wait was watching. Bounded, so a wait that
  // somehow does not poll cannot hold the host.
  const absl::Time deadline = absl::Now() + 5 * kTaskWaitSlice;
  while (blocked_waits_.load(std::memory_order_acquire) > 0 &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Microseconds(100));
  }
}

void Stream::StopRunning() {
  ascend::MutexLock lock(&mu_);
  if (running_) stopping_.store(true, std::memory_order_release);
}

void Stream::Abort() {
  aborting_.store(true, std::memory_order_release);
  DiscardPending();
}

absl::Status Stream::AbortTasks(absl::Time deadline) {
  aborting_.store(true, std::memory_order_release);
  DiscardPending();
  absl::Status status;
  {
    ascend::MutexLock lock(&mu_);
    status = WaitLocked(deadline);
    // A Shutdown meanwhile keeps the stream aborting for good.
    if (!shutdown_) aborting_.store(false, std::memory_order_release);
  }
  return status;
}

void Stream::DiscardPending() {
  std::deque<Task> discarded;
  {
    ascend::MutexLock lock(&mu_);
    discarded.swap(queue_);
    finished_ += discarded.size();
  }
  for (Task& task : discarded) {
    if (task.cancel) task.cancel();
  }
}

}  // namespace ascend::rt
