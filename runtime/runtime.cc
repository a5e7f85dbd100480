// Devices, contexts and streams. Memory is in memory.cc, events, notifies and
// host functions in sync_objects.cc.
#include "runtime/runtime.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/builtin_backends.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/base/logging.h"
#include "runtime/default_device.h"
#include "runtime/global_state.h"
#include "runtime/health_monitor.h"

namespace ascend::rt {
namespace {

// The calling thread's current context (validated against the live table on
// use, so a context destroyed by another thread is never used).
thread_local std::shared_ptr<Context> tls_current_context;

// Streams support priorities 0 (highest) .. 7 (lowest).
constexpr uint32_t kLowestPriority = 7;

}  // namespace

Runtime::Runtime(std::unique_ptr<device::Backend> backend)
    : backend_(std::move(backend)),
      device_count_(backend_ ? backend_->DeviceCount() : 0),
      live_instances_(std::make_shared<LiveInstances>(device_count_)) {
  devices_.resize(device_count_);
  if (backend_) {
    health_monitor_ = std::make_unique<HealthMonitor>(
        GlobalState::Get(), *backend_,
        [this](const device::HealthEvent& e) { OnHealthEvent(e); });
  }
}

Runtime::~Runtime() {
  health_monitor_.reset();
  std::vector<Teardown> teardowns;
  {
    ascend::MutexLock lock(&mu_);
    for (int32_t id = 0; id < device_count_; ++id) {
      if (devices_[id].device) teardowns.push_back(CloseDeviceLocked(id));
    }
  }
  teardowns.clear();
}

Runtime& Runtime::Get() {
  static Runtime* const runtime = [] {
    InitLogging();  // ASCEND_GLOBAL_LOG_LEVEL applies without aclInit too
    absl::StatusOr<std::unique_ptr<device::Backend>> backend =
        device::CreateBackendFromEnvironment();
    if (!backend.ok()) {
      LOG(ERROR) << "no device backend: " << backend.status()
                 << "; the runtime reports zero devices";
      return new Runtime(nullptr);
    }
    LOG(INFO) << "device backend \"" << (*backend)->name() << "\" with "
              << (*backend)->DeviceCount() << " device(s)";
    return new Runtime(*std::move(backend));
  }();
  return *runtime;
}

int32_t Runtime::DeviceCount() const { return device_count_; }

absl::Status Runtime::ValidDeviceId(int32_t device_id) const {
  if (device_id < 0 || device_id >= device_count_) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device id ", device_id, " is out of range [0, ",
                              device_count_, ")"));
  }
  return absl::OkStatus();
}

int Runtime::LiveInstances::Count(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  return count_[device_id];
}

void Runtime::LiveInstances::Add(int32_t device_id, int delta) {
  ascend::MutexLock lock(&mu_);
  count_[device_id] += delta;
}

void Runtime::LiveInstances::AwaitNone(int32_t device_id, absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  auto none = [this, device_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return count_[device_id] == 0;
  };
  mu_.AwaitWithDeadline(absl::Condition(&none), deadline);
}

absl::Status Runtime::OpenDeviceLocked(int32_t device_id) {
  DeviceEntry& entry = devices_[device_id];
  if (entry.device) return absl::OkStatus();
  // The previous instance may not be gone yet: another thread's reset may
  // still be tearing it down outside the lock (joining its streams, closing
  // the device), or an API call in flight on another thread may still hold
  // it. The backend would refuse a second instance, and a new one would hand
  // out addresses that old tasks may still write to, so wait. Both are
  // bounded by work already running; after kCloseWait the open is tried
  // anyway and reports the backend's answer.
  constexpr absl::Duration kCloseWait = absl::Seconds(30);
  const absl::Time deadline = absl::Now() + kCloseWait;
  for (;;) {
    if (entry.closing > 0) {
      auto closed = [this, device_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return devices_[device_id].closing == 0 ||
               devices_[device_id].device != nullptr;
      };
      mu_.AwaitWithDeadline(absl::Condition(&closed), deadline);
      if (entry.device) return absl::OkStatus();  // opened meanwhile
    }
    if (live_instances_->Count(device_id) == 0 || absl::Now() >= deadline) {
      break;
    }
    // Wait without mu_: the holder may need it to finish its call.
    mu_.Unlock();
    live_instances_->AwaitNone(device_id, deadline);
    mu_.Lock();
    if (entry.device) return absl::OkStatus();  // opened meanwhile
  }
  ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> opened,
                          backend_->Open(device_id));
  live_instances_->Add(device_id, +1);
  std::shared_ptr<device::Device> device(
      opened.release(),
      [live = live_instances_, device_id](device::Device* object) {
        delete object;
        live->Add(device_id, -1);
      });
  ASCEND_ASSIGN_OR_RETURN(uint32_t stream_id,
                          device->AllocateId(device::ResourceKind::kStream));
  auto primary = std::make_shared<Context>(device_id, /*primary=*/true);
  primary->default_stream_ =
      std::make_shared<Stream>(device_id, stream_id, 0, 0);
  entry.device = std::move(device);
  entry.primary = primary;
  entry.abnormal = false;
  contexts_[primary->handle()] = primary;
  streams_[primary->default_stream_->handle()] =
      StreamEntry{primary->default_stream_, primary.get()};
  VLOG(1) << "device " << device_id << " opened";
  return absl::OkStatus();
}

Runtime::Teardown Runtime::CloseDeviceLocked(int32_t device_id) {
  Teardown teardown;
  DeviceEntry& entry = devices_[device_id];
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (it->second.stream->device_id() == device_id) {
      teardown.streams.push_back(it->second.stream);
      reports_.ForgetStream(it->first);
      streams_.erase(it++);
    } else {
      ++it;
    }
  }
  for (auto it = contexts_.begin(); it != contexts_.end();) {
    if (it->second->device_id() == device_id) {
      it->second->alive_.store(false, std::memory_order_release);
      contexts_.erase(it++);
    } else {
      ++it;
    }
  }
  for (auto it = events_.begin(); it != events_.end();) {
    if (it->second->device_id() == device_id) {
      events_.erase(it++);
    } else {
      ++it;
    }
  }
  for (auto it = notifies_.begin(); it != notifies_.end();) {
    if (it->second->device_id() == device_id) {
      it->second->Cancel();
      notifies_.erase(it++);
    } else {
      ++it;
    }
  }
  // Peer access toward this device ends with it (its own goes with entry).
  for (DeviceEntry& other : devices_) other.peers.erase(device_id);
  teardown.device = std::move(entry.device);
  const int closing = entry.closing;
  entry = DeviceEntry{};
  entry.closing = closing + 1;
  teardown.ticket = CloseTicket(this, device_id);
  VLOG(1) << "device " << device_id << " closed";
  return teardown;
}

void Runtime::CloseTicket::Release() {
  if (runtime_ == nullptr) return;
  ascend::MutexLock lock(&runtime_->mu_);  // unlocking wakes OpenDeviceLocked
  --runtime_->devices_[device_id_].closing;
  runtime_ = nullptr;
}

absl::Status Runtime::SetDevice(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  std::shared_ptr<Context> primary;
  {
    ascend::MutexLock lock(&mu_);
    ASCEND_RETURN_IF_ERROR(OpenDeviceLocked(device_id));
    DeviceEntry& entry = devices_[device_id];
    ++entry.refcount;
    primary = entry.primary;
  }
  tls_current_context = std::move(primary);
  return absl::OkStatus();
}

absl::Status Runtime::ResetDevice(int32_t device_id, bool force) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  Teardown teardown;
  {
    ascend::MutexLock lock(&mu_);
    DeviceEntry& entry = devices_[device_id];
    if (!entry.device) {
      return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                   absl::StrCat("device ", device_id, " is not set"));
    }
    const Stream* running = Stream::Current();
    if (running != nullptr && running->device_id() == device_id &&
        (force || entry.refcount <= 1)) {
      return Error(ACL_ERROR_RT_NO_PERMISSION,
                   absl::StrCat("a task running on a stream of device ",
                                device_id, " cannot close its own device"));
    }
    if (!force && --entry.refcount > 0) return absl::OkStatus();
    teardown = CloseDeviceLocked(device_id);
  }
  if (tls_current_context && tls_current_context->device_id() == device_id) {
    tls_current_context.reset();
  }
  // Streams are destroyed (executors joined) and the device closed here,
  // outside the lock.
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<Context>> Runtime::CurrentContext() {
  std::shared_ptr<Context> ctx = tls_current_context;
  if (ctx && ctx->alive()) return ctx;
  tls_current_context.reset();
  if (std::optional<int32_t> id = DefaultDevice(); id.has_value()) {
    // CONTRACT item 4: threads that never set a device use the default one.
    // Opening it modifies resources: reached from an ungated query, it waits
    // while the process is locked, like aclrtSetDevice (inside a gated call
    // the gate is already passed and this nests).
    ProcessApiScope gate;
    ASCEND_RETURN_IF_ERROR(SetDevice(*id));
    return tls_current_context;
  }
  return Error(ACL_ERROR_RT_CONTEXT_NULL,
               "no current context: call aclrtSetDevice or "
               "aclrtSetCurrentContext first");
}

absl::StatusOr<std::shared_ptr<device::Device>> Runtime::CurrentDevice() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<device::Device> device = devices_[ctx->device_id()].device;
  if (!device) return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is closed");
  return device;
}

absl::StatusOr<int32_t> Runtime::GetDevice() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->device_id();
}

// Waits for every stream of the current device and returns the first
// failure among them (a timeout included). Decision (CANN's reference and
// CONTRACT are silent): a failed task is reported, never dropped. The device
// synchronize reports each failure once, and does not take it from the
// stream: the failed stream's own aclrtSynchronizeStream still returns it
// (ErrorReader in stream.h). Failures of streams destroyed before any device
// synchronize saw them come first, oldest first.
absl::Status Runtime::SynchronizeDevice(absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  if (const Stream* running = Stream::Current();
      running != nullptr && running->device_id() == device_id) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot wait for its own device's streams (it would "
                 "wait for itself)");
  }
  std::vector<std::shared_ptr<Stream>> streams;
  absl::Status first;
  {
    ascend::MutexLock lock(&mu_);
    for (auto& [handle, entry] : streams_) {
      if (entry.stream->device_id() == device_id) {
        streams.push_back(entry.stream);
      }
    }
    std::deque<absl::Status>& destroyed =
        devices_[device_id].destroyed_stream_failures;
    if (!destroyed.empty()) {
      first = std::move(destroyed.front());
      destroyed.pop_front();
    }
  }
  // One failure is reported per call; the failures of other streams stay
  // pending for the next device synchronize (each is reported once).
  for (auto& stream : streams) {
    if (first.ok()) {
      first = stream->Synchronize(deadline, ErrorReader::kDevice);
    } else {
      absl::Status drained = stream->Drain(deadline);
      if (absl::IsDeadlineExceeded(drained)) return first;
    }
  }
  return first;
}

absl::StatusOr<bool> Runtime::DeviceAbnormal(int32_t device_id) const {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].abnormal;
}

absl::StatusOr<bool> Runtime::CanAccessPeer(int32_t device_id,
                                            int32_t peer) const {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(peer));
  if (device_id == peer) return false;
  return backend_->CanAccessPeer(device_id, peer);
}

absl::Status Runtime::EnablePeerAccess(int32_t peer, uint32_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "peer access flags must be 0");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  ASCEND_ASSIGN_OR_RETURN(bool can, CanAccessPeer(device_id, peer));
  if (!can) {
    return Error(
        ACL_ERROR_RT_INVALID_DEVICEID,
        absl::StrCat("device ", device_id, " cannot access device ", peer));
  }
  ascend::MutexLock lock(&mu_);
  devices_[device_id].peers.insert(peer);
  return absl::OkStatus();
}

absl::Status Runtime::DisablePeerAccess(int32_t peer) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(peer));
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  ascend::MutexLock lock(&mu_);
  if (devices_[device_id].peers.erase(peer) == 0) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("peer access to device ", peer, " is not enabled"));
  }
  return absl::OkStatus();
}

// --- Contexts ----------------------------------------------------------------

absl::StatusOr<void*> Runtime::CreateContext(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  std::shared_ptr<Context> ctx;
  {
    ascend::MutexLock lock(&mu_);
    ASCEND_RETURN_IF_ERROR(OpenDeviceLocked(device_id));
    DeviceEntry& entry = devices_[device_id];
    // Out of stream ids: 207008, as for aclrtCreateStream.
    ASCEND_ASSIGN_OR_RETURN(
        uint32_t stream_id,
        AllocateIdLocked(device_id, device::ResourceKind::kStream));
    ctx = std::make_shared<Context>(device_id, /*primary=*/false);
    ctx->default_stream_ = std::make_shared<Stream>(device_id, stream_id, 0, 0);
    ++entry.refcount;
    contexts_[ctx->handle()] = ctx;
    streams_[ctx->default_stream_->handle()] =
        StreamEntry{ctx->default_stream_, ctx.get()};
  }
  tls_current_context = ctx;
  return ctx->handle();
}

absl::Status Runtime::DestroyContext(void* context) {
  // Destroyed in reverse order: the context's streams (retired: their
  // pending work finished, like aclrtDestroyStream) before the device
  // teardown, whose close ticket must go last.
  Teardown teardown;
  std::vector<std::shared_ptr<Stream>> streams;
  std::weak_ptr<device::Device> owner;
  {
    ascend::MutexLock lock(&mu_);
    auto it = contexts_.find(context);
    if (it == contexts_.end()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live context");
    }
    std::shared_ptr<Context> ctx = it->second;
    if (ctx->primary()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "the default context is released by aclrtResetDevice");
    }
    if (const Stream* running = Stream::Current(); running != nullptr) {
      for (const auto& [h, entry] : streams_) {
        if (entry.stream.get() == running && entry.context == ctx.get()) {
          return Error(ACL_ERROR_RT_NO_PERMISSION,
                       "a task cannot destroy the context of its own stream");
        }
      }
    }
    ctx->alive_.store(false, std::memory_order_release);
    contexts_.erase(it);
    owner = devices_[ctx->device_id()].device;
    for (auto s = streams_.begin(); s != streams_.end();) {
      if (s->second.context == ctx.get()) {
        streams.push_back(s->second.stream);
        reports_.ForgetStream(s->first);
        streams_.erase(s++);
      } else {
        ++s;
      }
    }
    DeviceEntry& entry = devices_[ctx->device_id()];
    if (--entry.refcount <= 0) teardown = CloseDeviceLocked(ctx->device_id());
  }
  if (tls_current_context && tls_current_context->handle() == context) {
    tls_current_context.reset();
  }
  for (const std::shared_ptr<Stream>& stream : streams) {
    RetireStream(stream, owner);
    // The id goes back to the instance that issued it (see DestroyStream).
    if (std::shared_ptr<device::Device> device = owner.lock()) {
      device->ReleaseId(device::ResourceKind::kStream, stream->id());
    }
  }
  return absl::OkStatus();
}

absl::Status Runtime::SetCurrentContext(void* context) {
  ascend::MutexLock lock(&mu_);
  auto it = contexts_.find(context);
  if (it == contexts_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live context");
  }
  tls_current_context = it->second;
  return absl::OkStatus();
}

absl::StatusOr<void*> Runtime::GetCurrentContext() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->handle();
}

absl::StatusOr<void*> Runtime::CurrentDefaultStream() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->default_stream_->handle();
}

// --- Streams -----------------------------------------------------------------

absl::StatusOr<uint32_t> Runtime::AllocateIdLocked(int32_t device_id,
                                                   device::ResourceKind kind) {
  const std::shared_ptr<device::Device>& device = devices_[device_id].device;
  if (!device) return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is closed");
  absl::StatusOr<uint32_t> id = device->AllocateId(kind);
  if (!id.ok() && id.status().code() == absl::StatusCode::kResourceExhausted) {
    static constexpr int32_t kCodes[] = {ACL_ERROR_RT_NO_STREAM_RESOURCE,
                                         ACL_ERROR_RT_NO_EVENT_RESOURCE,
                                         ACL_ERROR_RT_NO_NOTIFY_RESOURCE};
    return Error(kCodes[static_cast<int>(kind)], id.status().message());
  }
  return id;
}

void Runtime::ReleaseId(int32_t device_id, device::ResourceKind kind,
                        uint32_t id) {
  // Reads devices_: callers hold mu_.
  if (auto device = devices_[device_id].device) device->ReleaseId(kind, id);
}

absl::StatusOr<void*> Runtime::CreateStream(uint32_t priority, uint32_t flags) {
  if (priority > kLowestPriority) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("stream priority ", priority, " outside [0, 7]"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  // The context check, the id allocation and the registration form one
  // critical section of mu_, the lock ResetDevice and DestroyContext close
  // devices under. Allocating outside it let a reset (and a re-open of the
  // device) slip in between: the id then came from the closed device object
  // and was released to the re-opened one, freeing an id it had given to
  // another stream. As CreateContext, this starts the executor under mu_.
  ascend::MutexLock lock(&mu_);
  if (!ctx->alive()) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL, "context destroyed concurrently");
  }
  ASCEND_ASSIGN_OR_RETURN(
      uint32_t id,
      AllocateIdLocked(ctx->device_id(), device::ResourceKind::kStream));
  auto stream = std::make_shared<Stream>(ctx->device_id(), id, flags, priority);
  streams_[stream->handle()] = StreamEntry{stream, ctx.get()};
  return stream->handle();
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

absl::Status Runtime::DestroyStream(void* handle, bool force) {
  std::shared_ptr<Stream> stream;
  std::weak_ptr<device::Device> owner;
  {
    ascend::MutexLock lock(&mu_);
    auto it = streams_.find(handle);
    if (it == streams_.end()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live stream");
    }
    if (it->second.context->default_stream_->handle() == handle) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "a context's default stream cannot be destroyed");
    }
    if (it->second.stream.get() == Stream::Current()) {
      return Error(ACL_ERROR_RT_NO_PERMISSION,
                   "a task cannot destroy the stream it is running on");
    }
    stream = it->second.stream;
    streams_.erase(it);
    reports_.ForgetStream(handle);
    owner = devices_[stream->device_id()].device;
  }
  if (force) {
    // Pending work and its failures are discarded.
    stream->Abort();
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

absl::StatusOr<std::shared_ptr<Stream>> Runtime::ResolveStream(void* handle) {
  if (handle == nullptr) {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
    return ctx->default_stream_;
  }
  ascend::MutexLock lock(&mu_);
  auto it = streams_.find(handle);
  if (it == streams_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live stream");
  }
  return it->second.stream;
}

absl::Status Runtime::SynchronizeStream(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  if (stream.get() == Stream::Current()) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot wait for the stream it is running on");
  }
  absl::Status status = stream->Synchronize(deadline);
  if (status.code() == absl::StatusCode::kDeadlineExceeded) {
    return Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, status.message());
  }
  return status;
}

absl::StatusOr<bool> Runtime::StreamIdle(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
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
  stream->SetStopOnFailure(mode == ACL_STOP_ON_FAILURE);
  return absl::OkStatus();
}

// --- Snapshot support
// ----------------------------------------------------------

std::vector<int32_t> Runtime::OpenDevices() const {
  std::vector<int32_t> open;
  ascend::MutexLock lock(&mu_);
  for (int32_t id = 0; id < device_count_; ++id) {
    if (devices_[id].device) open.push_back(id);
  }
  return open;
}

absl::Status Runtime::DrainAllStreams(absl::Time deadline) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    ascend::MutexLock lock(&mu_);
    for (auto& [handle, entry] : streams_) streams.push_back(entry.stream);
  }
  for (auto& stream : streams) {
    // A task failure is the application's to collect; only a stream that
    // cannot drain stops the snapshot. Drain leaves the error pending for
    // the application's next synchronize.
    absl::Status status = stream->Drain(deadline);
    if (status.code() == absl::StatusCode::kDeadlineExceeded) return status;
    if (!status.ok()) {
      LOG(WARNING) << "stream " << stream->id()
                   << " had a failed task while draining: " << status;
    }
  }
  return absl::OkStatus();
}

std::shared_ptr<device::Device> Runtime::DeviceObject(int32_t device_id) const {
  if (device_id < 0 || device_id >= device_count_) return nullptr;
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].device;
}

absl::StatusOr<ResourceTables> Runtime::SaveTables(int32_t device_id) const {
  ResourceTables tables;
  ascend::MutexLock lock(&mu_);
  if (!devices_[device_id].device) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is not open");
  }
  for (auto& [handle, entry] : streams_) {
    if (entry.stream->device_id() == device_id) {
      tables.stream_ids.push_back(entry.stream->id());
    }
  }
  for (auto& [handle, event] : events_) {
    if (event->device_id() == device_id) {
      tables.events.emplace_back(event->id(), event->SaveState());
    }
  }
  for (auto& [handle, notify] : notifies_) {
    if (notify->device_id() == device_id) {
      tables.notifies.emplace_back(notify->id(), notify->SaveState());
    }
  }
  std::sort(tables.stream_ids.begin(), tables.stream_ids.end());
  return tables;
}

absl::Status Runtime::RestoreTables(int32_t device_id,
                                    const ResourceTables& tables) {
  std::shared_ptr<device::Device> device = DeviceObject(device_id);
  if (!device) return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is not open");
  for (uint32_t id : tables.stream_ids) {
    ASCEND_RETURN_IF_ERROR(device->ClaimId(device::ResourceKind::kStream, id));
  }
  for (auto& [id, state] : tables.events) {
    ASCEND_RETURN_IF_ERROR(device->ClaimId(device::ResourceKind::kEvent, id));
  }
  for (auto& [id, state] : tables.notifies) {
    ASCEND_RETURN_IF_ERROR(device->ClaimId(device::ResourceKind::kNotify, id));
  }
  ascend::MutexLock lock(&mu_);
  for (auto& [id, state] : tables.events) {
    for (auto& [handle, event] : events_) {
      if (event->device_id() == device_id && event->id() == id) {
        event->RestoreState(state);
      }
    }
  }
  for (auto& [id, signaled] : tables.notifies) {
    for (auto& [handle, notify] : notifies_) {
      if (notify->device_id() == device_id && notify->id() == id) {
        notify->RestoreState(signaled);
      }
    }
  }
  return absl::OkStatus();
}

void Runtime::MarkDeviceHealthy(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  if (device_id >= 0 && device_id < device_count_) {
    devices_[device_id].abnormal = false;
  }
}

void Runtime::OnHealthEvent(const device::HealthEvent& event) {
  LOG(WARNING) << "device " << event.device_id
               << " health event: " << event.description;
  ascend::MutexLock lock(&mu_);
  if (event.device_id >= 0 && event.device_id < device_count_ &&
      event.device_abnormal) {
    devices_[event.device_id].abnormal = true;
  }
}

absl::Status Runtime::InjectFault(int32_t device_id, device::Fault fault) {
  if (!backend_) return Error(ACL_ERROR_INVALID_PARAM, "no device backend");
  if (device_id < 0 || device_id >= device_count_) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("device ", device_id, " does not exist"));
  }
  return backend_->InjectFault(device_id, fault);
}

}  // namespace ascend::rt
