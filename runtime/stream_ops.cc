// The runtime's operations on streams: creating them (in the current
// context or a given one), their configuration and attributes (DESIGN.md
// §5.13), destroying and retiring them, synchronising and draining them.
// The Stream class itself is in stream.cc.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {
namespace {

// Streams support priorities 0 (highest) .. 7 (lowest).
constexpr uint32_t kLowestPriority = 7;

absl::Status RequireSwitch(uint32_t value, const char* what) {
  if (value > 1) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " ", value, " is neither 0 nor 1"));
  }
  return absl::OkStatus();
}

}  // namespace

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

absl::StatusOr<aclrtStreamAttrValue> Runtime::GetStreamAttribute(
    void* handle, aclrtStreamAttr attr) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  const StreamAttributes attributes = stream->attributes();
  aclrtStreamAttrValue value;
  std::memset(&value, 0, sizeof value);
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      value.failureMode = stream->stop_on_failure() ? ACL_STOP_ON_FAILURE
                                                    : ACL_CONTINUE_ON_FAILURE;
      return value;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      value.overflowSwitch = attributes.overflow_switch;
      return value;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      value.userCustomTag = attributes.user_custom_tag;
      return value;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      value.cacheOpInfoSwitch = attributes.cache_op_info;
      return value;
    case ACL_STREAM_ATTR_PRIORITY:
      value.streamPriority = attributes.priority;
      return value;
  }
  return Error(
      ACL_ERROR_RT_PARAM_INVALID,
      absl::StrCat("unknown stream attribute ", static_cast<int>(attr)));
}

absl::Status Runtime::SetStreamAttribute(void* handle, aclrtStreamAttr attr,
                                         const aclrtStreamAttrValue& value) {
  if (attr == ACL_STREAM_ATTR_FAILURE_MODE) {
    // The same call as aclrtSetStreamFailureMode.
    return SetStreamFailureMode(handle, value.failureMode);
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  std::function<void(StreamAttributes&)> change;
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      return absl::OkStatus();  // handled above
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      ASCEND_RETURN_IF_ERROR(
          RequireSwitch(value.overflowSwitch, "overflow switch"));
      change = [v = value.overflowSwitch](StreamAttributes& a) {
        a.overflow_switch = v;
      };
      break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      change = [v = value.userCustomTag](StreamAttributes& a) {
        a.user_custom_tag = v;
      };
      break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      ASCEND_RETURN_IF_ERROR(
          RequireSwitch(value.cacheOpInfoSwitch, "operator info cache switch"));
      change = [v = value.cacheOpInfoSwitch](StreamAttributes& a) {
        a.cache_op_info = v;
      };
      break;
    case ACL_STREAM_ATTR_PRIORITY:
      if (value.streamPriority > kLowestPriority) {
        return Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("stream priority ", value.streamPriority,
                                  " outside [0, 7]"));
      }
      change = [v = value.streamPriority](StreamAttributes& a) {
        a.priority = v;
      };
      break;
    default:
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("unknown stream attribute ", static_cast<int>(attr)));
  }
  stream->UpdateAttributes(change);
  return absl::OkStatus();
}

}  // namespace ascend::rt
