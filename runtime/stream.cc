// Streams: the task queue (Stream; its workers are runtime/executor_pool.h),
// the runtime's operations on streams, the stream kind's descriptor and its
// snapshot participant (stream ids).
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

// Streams support priorities 0 (highest) .. 7 (lowest).
constexpr uint32_t kLowestPriority = 7;

}  // namespace

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

// --- The runtime's stream operations ----------------------------------------

absl::StatusOr<void*> Runtime::CreateStream(uint32_t priority, uint32_t flags) {
  StreamConfig config;
  config.priority = priority;
  config.flags = flags;
  return CreateStreamWithConfig(config);
}

absl::StatusOr<void*> Runtime::CreateStreamWithConfig(
    const StreamConfig& config) {
  if (config.priority > kLowestPriority) {
    return Error(
        ACL_ERROR_INVALID_PARAM,
        absl::StrCat("stream priority ", config.priority, " outside [0, 7]"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return CreateStreamIn(ctx, config);
}

absl::StatusOr<std::shared_ptr<Context>> Runtime::StreamContext(
    const void* stream) {
  ascend::MutexLock lock(&mu_);
  std::optional<HandleTable::Entry> entry = table_.FindEntry(stream);
  if (!entry.has_value() || entry->key.kind != ObjectKind::kStream) {
    return NotLive(ObjectKind::kStream);
  }
  std::shared_ptr<Context> ctx = table_.Find<Context>(entry->key.parent);
  if (ctx == nullptr) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL, "the stream's context is gone");
  }
  return ctx;
}

absl::StatusOr<void*> Runtime::CreateStreamIn(
    const std::shared_ptr<Context>& ctx, const StreamConfig& config) {
  // The context check, the id allocation and the registration form one
  // critical section of mu_, the lock ResetDevice and DestroyContext close
  // devices under. Allocating outside it let a reset (and a re-open of the
  // device) slip in between: the id then came from the closed device object
  // and was released to the re-opened one, freeing an id it had given to
  // another stream. Creating the stream starts no thread (DESIGN.md §5.3.1).
  void* handle = nullptr;
  // Ids of force-destroyed streams that finished are free again.
  SweepRetiring(ctx->device_id());
  {
    ascend::MutexLock lock(&mu_);
    if (!ctx->alive()) {
      return Error(ACL_ERROR_RT_CONTEXT_NULL, "context destroyed concurrently");
    }
    ASCEND_ASSIGN_OR_RETURN(
        uint32_t id, AllocateIdLocked(ctx->device_id(), ObjectKind::kStream));
    auto stream = std::make_shared<Stream>(
        executors_, exception_callbacks_, ctx->device_id(), id, config.flags,
        config.priority, config.work_ptr, config.work_size);
    RegisterLocked(stream, ctx->device_id(), id, ctx->handle());
    handle = stream->handle();
  }
  // Outside the lock: a state callback may call back into the runtime.
  stream_states_.Notify(handle, ACL_RT_STREAM_STATE_CREATE_POST);
  return handle;
}

void Runtime::RetireStream(const std::shared_ptr<Stream>& stream,
                           const std::weak_ptr<device::Device>& owner) {
  // Pending work finishes first; its failure is not the destroy's, but it is
  // not dropped either.
  (void)stream->Synchronize(absl::InfiniteFuture());
  absl::Status unreported =
      stream->Synchronize(absl::InfiniteFuture(), ErrorReader::kDevice);
  std::shared_ptr<device::Device> device = owner.lock();
  if (!unreported.ok() && device != nullptr) {
    ascend::MutexLock lock(&mu_);
    DeviceEntry& entry = devices_[stream->device_id()];
    if (entry.device == device) {
      entry.destroyed_stream_failures.push_back(std::move(unreported));
    }
  }
}

void Runtime::SweepRetiring(int32_t device_id) {
  if (retiring_count_.load(std::memory_order_relaxed) == 0) return;
  const int32_t first = device_id < 0 ? 0 : device_id;
  const int32_t last = device_id < 0 ? device_count_ - 1 : device_id;
  for (int32_t id = first; id <= last; ++id) {
    // Each stream's idleness is read outside mu_ (a stream's lock is never
    // taken under the runtime's).
    std::vector<std::shared_ptr<Stream>> idle = RetiringStreams(id);
    idle.erase(std::remove_if(idle.begin(), idle.end(),
                              [](const std::shared_ptr<Stream>& stream) {
                                return !stream->Idle();
                              }),
               idle.end());
    if (idle.empty()) continue;
    std::shared_ptr<device::Device> device;
    {
      ascend::MutexLock lock(&mu_);
      DeviceEntry& entry = devices_[id];
      std::vector<std::shared_ptr<Stream>>& streams = entry.retiring;
      for (auto it = idle.begin(); it != idle.end();) {
        auto found = std::find(streams.begin(), streams.end(), *it);
        if (found == streams.end()) {
          it = idle.erase(it);  // the device's close took it meanwhile
          continue;
        }
        streams.erase(found);
        retiring_count_.fetch_sub(1, std::memory_order_relaxed);
        ++it;
      }
      device = entry.device;
    }
    for (const std::shared_ptr<Stream>& stream : idle) {
      if (device)
        device->ReleaseId(device::ResourceKind::kStream, stream->id());
    }
  }
}

std::vector<std::shared_ptr<Stream>> Runtime::RetiringStreams(
    int32_t device_id) const {
  std::vector<std::shared_ptr<Stream>> out;
  if (retiring_count_.load(std::memory_order_relaxed) == 0) return out;
  ascend::MutexLock lock(&mu_);
  for (int32_t id = 0; id < device_count_; ++id) {
    if (device_id >= 0 && id != device_id) continue;
    const auto& streams = devices_[id].retiring;
    out.insert(out.end(), streams.begin(), streams.end());
  }
  return out;
}

absl::Status Runtime::DestroyStream(void* handle, bool force) {
  return DestroyStreamAs(handle,
                         force ? DestroyMode::kForce : DestroyMode::kWait);
}

absl::Status Runtime::DestroyStreamAndWait(void* handle) {
  return DestroyStreamAs(handle, DestroyMode::kForceAndWait);
}

absl::Status Runtime::DestroyStreamAs(void* handle, DestroyMode mode) {
  std::shared_ptr<Stream> stream;
  std::weak_ptr<device::Device> owner;
  // The caller's context: aclrtDestroyStream and aclrtDestroyStreamForce
  // destroy only streams of the current context (06, constraints); the
  // runtime's own streams (kForceAndWait) are destroyed from anywhere.
  const bool user_call = mode != DestroyMode::kForceAndWait;
  absl::StatusOr<std::shared_ptr<Context>> current =
      user_call ? CurrentContext() : std::shared_ptr<Context>();
  // Whether `handle` names a stream this call may destroy.
  auto check = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) -> absl::Status {
    std::optional<HandleTable::Entry> entry = table_.FindEntry(handle);
    if (!entry.has_value() || entry->key.kind != ObjectKind::kStream) {
      return NotLive(ObjectKind::kStream);
    }
    std::shared_ptr<Context> context = table_.Find<Context>(entry->key.parent);
    if (context != nullptr && context->default_stream()->handle() == handle) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "a context's default stream cannot be destroyed");
    }
    if (user_call) {
      if (!current.ok()) return current.status();
      if (entry->key.parent != (*current)->handle()) {
        return Error(ACL_ERROR_RT_STREAM_CONTEXT,
                     "the stream belongs to another context than the "
                     "current one (aclrtSetCurrentContext to its context "
                     "first)");
      }
    }
    stream = entry->As<Stream>();
    ASCEND_RETURN_IF_ERROR(tasks_.Access(
        {HostOp::kStreamDestroy, "aclrtDestroyStream", stream.get()}));
    if (stream.get() == Stream::Current()) {
      return Error(ACL_ERROR_RT_NO_PERMISSION,
                   "a task cannot destroy the stream it is running on");
    }
    return absl::OkStatus();
  };
  {
    ascend::MutexLock lock(&mu_);
    ASCEND_RETURN_IF_ERROR(check());
  }
  // The state callbacks hear of the destroy before it happens (outside the
  // lock: they may call into the runtime).
  stream_states_.Notify(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
  {
    ascend::MutexLock lock(&mu_);
    // A concurrent destroy may have won meanwhile.
    ASCEND_RETURN_IF_ERROR(check());
    table_.Erase(handle);
    StreamGoneLocked(handle);
    owner = devices_[stream->device_id()].device;
  }
  if (mode != DestroyMode::kWait) {
    // Queued work that needs nothing else runs, without the host waiting
    // for it (unless asked to); waits give up; failures are dropped. The id
    // stays taken until the queue is empty.
    stream->CloseForce();
    if (mode == DestroyMode::kForceAndWait) {
      (void)stream->Drain(absl::InfiniteFuture());
    }
    std::shared_ptr<device::Device> device = owner.lock();
    if (device != nullptr && !stream->Idle()) {
      ascend::MutexLock lock(&mu_);
      DeviceEntry& entry = devices_[stream->device_id()];
      if (entry.device == device) {
        entry.retiring.push_back(std::move(stream));
        retiring_count_.fetch_add(1, std::memory_order_relaxed);
        return absl::OkStatus();
      }
    }
  } else {
    RetireStream(stream, owner);
  }
  // The id goes back to the device instance that issued it. If the device
  // was reset meanwhile, its ids went with it (and a re-opened device may
  // have issued this id again, to another stream).
  if (std::shared_ptr<device::Device> device = owner.lock()) {
    device->ReleaseId(device::ResourceKind::kStream, stream->id());
  }
  return absl::OkStatus();
}

absl::Status Runtime::DrainStreamsForBackup(
    absl::Time deadline, const std::vector<int32_t>& devices) {
  // An earlier Backup of this lock period may have closed the gate to stream
  // work; this one's drain admits it again.
  state_.OpenStreamWork();
  for (;;) {
    // A task may queue more work, on any stream (a host function launching
    // a host function): one pass over the streams is not enough.
    ASCEND_RETURN_IF_ERROR(DrainAllStreams(deadline));
    // Force-destroyed streams drained too: their ids are not the image's.
    SweepRetiring(-1);
    ASCEND_ASSIGN_OR_RETURN(const bool closed,
                            state_.CloseStreamWork(deadline, [this] {
                              for (const std::shared_ptr<Stream>& stream :
                                   Objects<Stream>(/*device_id=*/-1)) {
                                if (!stream->Idle()) return false;
                              }
                              return true;
                            }));
    if (!closed) continue;
    // Stream work may open or close a device before the gate closes; after,
    // nothing can. The backup covers the devices open when it started.
    if (OpenDevices() != devices) {
      return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   "a host function or callback opened or closed a device "
                   "while Backup drained the streams");
    }
    return absl::OkStatus();
  }
}

absl::StatusOr<std::shared_ptr<Stream>> Runtime::ResolveStream(void* handle) {
  if (handle == nullptr) {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
    return ctx->default_stream();
  }
  return Resolve<Stream>(handle);
}

absl::Status Runtime::SynchronizeStream(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  if (stream.get() == Stream::Current()) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot wait for the stream it is running on");
  }
  ASCEND_RETURN_IF_ERROR(tasks_.Access(
      {HostOp::kStreamSynchronize, "aclrtSynchronizeStream", stream.get()}));
  absl::Status status = stream->Synchronize(deadline);
  if (status.code() == absl::StatusCode::kDeadlineExceeded) {
    return Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, status.message());
  }
  return status;
}

absl::StatusOr<bool> Runtime::StreamIdle(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  ASCEND_RETURN_IF_ERROR(
      tasks_.Access({HostOp::kStreamQuery, "aclrtStreamQuery", stream.get()}));
  return stream->Idle();
}

absl::StatusOr<StreamInfo> Runtime::GetStreamInfo(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  return StreamInfo{stream->device_id(), stream->id(), stream->flags(),
                    stream->priority()};
}

absl::Status Runtime::SetStreamFailureMode(void* handle, uint64_t mode) {
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown stream failure mode ", mode));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  if (!stream->SetFailureModeOnce(mode == ACL_STOP_ON_FAILURE)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("stream ", stream->id(),
                              " has its failure mode already: it is set once "
                              "per stream"));
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
