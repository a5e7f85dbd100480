// The operations on streams (the streams family, runtime/streams/streams.h):
// creating them (in the current context or a given one), their
// configuration and attributes (DESIGN.md §5.13), destroying and
// synchronising them. The Stream class itself, resolving a handle and the
// retirement of destroyed streams are the core's (runtime/stream.cc,
// runtime/runtime.cc).
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/internal/core_access.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "runtime/streams/streams.h"

namespace ascend::rt {

using Core = Runtime::CoreAccess;
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

absl::StatusOr<void*> Streams::CreateStream(uint32_t priority, uint32_t flags) {
  StreamConfig config;
  config.priority = priority;
  config.flags = flags;
  return CreateStreamWithConfig(config);
}

absl::StatusOr<void*> Streams::CreateStreamWithConfig(
    const StreamConfig& config) {
  if (config.priority > kLowestPriority) {
    return Error(
        ACL_ERROR_INVALID_PARAM,
        absl::StrCat("stream priority ", config.priority, " outside [0, 7]"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          runtime_.CurrentContext());
  return CreateStreamIn(ctx, config);
}

absl::StatusOr<std::shared_ptr<Context>> Streams::StreamContext(
    const void* stream) {
  ascend::MutexLock lock(&Core::Lock(runtime_));
  std::optional<HandleTable::Entry> entry =
      Core::Table(runtime_).FindEntry(stream);
  if (!entry.has_value() || entry->key.kind != ObjectKind::kStream) {
    return Core::NotLive(ObjectKind::kStream);
  }
  std::shared_ptr<Context> ctx =
      Core::Table(runtime_).Find<Context>(entry->key.parent);
  if (ctx == nullptr) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL, "the stream's context is gone");
  }
  return ctx;
}

absl::StatusOr<void*> Streams::CreateStreamIn(
    const std::shared_ptr<Context>& ctx, const StreamConfig& config) {
  // The context check, the id allocation and the registration form one
  // critical section of Core::Lock(runtime_), the lock ResetDevice and
  // DestroyContext close devices under. Allocating outside it let a reset (and
  // a re-open of the device) slip in between: the id then came from the closed
  // device object and was released to the re-opened one, freeing an id it had
  // given to another stream. Creating the stream starts no thread (DESIGN.md
  // §5.3.1).
  void* handle = nullptr;
  // Ids of force-destroyed streams that finished are free again.
  Core::SweepRetiring(runtime_, ctx->device_id());
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    if (!ctx->alive()) {
      return Error(ACL_ERROR_RT_CONTEXT_NULL, "context destroyed concurrently");
    }
    ASCEND_ASSIGN_OR_RETURN(uint32_t id,
                            Core::AllocateIdLocked(runtime_, ctx->device_id(),
                                                   ObjectKind::kStream));
    auto stream = std::make_shared<Stream>(
        Core::Executors(runtime_), Core::ExceptionCallbacksOf(runtime_),
        ctx->device_id(), id, config.flags, config.priority, config.work_ptr,
        config.work_size);
    Core::RegisterLocked(runtime_, stream, ctx->device_id(), id, ctx->handle());
    handle = stream->handle();
  }
  // Outside the lock: a state callback may call back into the runtime.
  stream_states_.Notify(handle, ACL_RT_STREAM_STATE_CREATE_POST);
  return handle;
}

absl::Status Streams::DestroyStream(void* handle, bool force) {
  return DestroyStreamAs(handle,
                         force ? DestroyMode::kForce : DestroyMode::kWait);
}

absl::Status Streams::DestroyStreamAndWait(void* handle) {
  return DestroyStreamAs(handle, DestroyMode::kForceAndWait);
}

absl::Status Streams::DestroyStreamAs(void* handle, DestroyMode mode) {
  std::shared_ptr<Stream> stream;
  std::weak_ptr<device::Device> owner;
  // The caller's context: aclrtDestroyStream and aclrtDestroyStreamForce
  // destroy only streams of the current context (06, constraints); the
  // runtime's own streams (kForceAndWait) are destroyed from anywhere.
  const bool user_call = mode != DestroyMode::kForceAndWait;
  absl::StatusOr<std::shared_ptr<Context>> current =
      user_call ? runtime_.CurrentContext() : std::shared_ptr<Context>();
  // Whether `handle` names a stream this call may destroy.
  auto check = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(
                   Core::Lock(runtime_)) -> absl::Status {
    std::optional<HandleTable::Entry> entry =
        Core::Table(runtime_).FindEntry(handle);
    if (!entry.has_value() || entry->key.kind != ObjectKind::kStream) {
      return Core::NotLive(ObjectKind::kStream);
    }
    std::shared_ptr<Context> context =
        Core::Table(runtime_).Find<Context>(entry->key.parent);
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
    ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
        {HostOp::kStreamDestroy, "aclrtDestroyStream", stream.get()}));
    if (stream.get() == Stream::Current()) {
      return Error(ACL_ERROR_RT_NO_PERMISSION,
                   "a task cannot destroy the stream it is running on");
    }
    return absl::OkStatus();
  };
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    ASCEND_RETURN_IF_ERROR(check());
  }
  // The state callbacks hear of the destroy before it happens (outside the
  // lock: they may call into the runtime).
  stream_states_.Notify(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    // A concurrent destroy may have won meanwhile.
    ASCEND_RETURN_IF_ERROR(check());
    Core::Table(runtime_).Erase(handle);
    Core::StreamGoneLocked(runtime_, handle);
    owner = Core::Device(runtime_, stream->device_id()).device;
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
      ascend::MutexLock lock(&Core::Lock(runtime_));
      Core::DeviceEntry& entry = Core::Device(runtime_, stream->device_id());
      if (entry.device == device) {
        Core::AddRetiringLocked(runtime_, entry, std::move(stream));
        return absl::OkStatus();
      }
    }
  } else {
    Core::RetireStream(runtime_, stream, owner);
  }
  // The id goes back to the device instance that issued it. If the device
  // was reset meanwhile, its ids went with it (and a re-opened device may
  // have issued this id again, to another stream).
  if (std::shared_ptr<device::Device> device = owner.lock()) {
    device->ReleaseId(device::ResourceKind::kStream, stream->id());
  }
  return absl::OkStatus();
}

absl::Status Streams::SynchronizeStream(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
  if (stream.get() == Stream::Current()) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot wait for the stream it is running on");
  }
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kStreamSynchronize, "aclrtSynchronizeStream", stream.get()}));
  absl::Status status = stream->Synchronize(deadline);
  if (status.code() == absl::StatusCode::kDeadlineExceeded) {
    return Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, status.message());
  }
  return status;
}

// Waits for every stream of the current device and returns the first
// failure among them (a timeout included). Decision (CANN's reference is
// silent; DESIGN.md §5.3): a failed task is reported, never dropped. The device
// synchronize reports each failure once, and does not take it from the
// stream: the failed stream's own aclrtSynchronizeStream still returns it
// (ErrorReader in stream.h). Failures of streams destroyed before any device
// synchronize saw them come first, oldest first.
absl::Status Streams::SynchronizeDevice(absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  if (const Stream* running = Stream::Current();
      running != nullptr && running->device_id() == device_id) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot wait for its own device's streams (it would "
                 "wait for itself)");
  }
  // Force-destroyed streams' work is the device's too; their failures were
  // dropped with them.
  for (const std::shared_ptr<Stream>& stream :
       Core::RetiringStreams(runtime_, device_id)) {
    if (absl::IsDeadlineExceeded(stream->Drain(deadline))) {
      return Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "a force-destroyed stream's work did not finish in time");
    }
  }
  Core::SweepRetiring(runtime_, device_id);
  std::vector<std::shared_ptr<Stream>> streams;
  absl::Status first;
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    streams = Core::Table(runtime_).Objects<Stream>(device_id);
    std::deque<absl::Status>& destroyed =
        Core::Device(runtime_, device_id).destroyed_stream_failures;
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

absl::StatusOr<bool> Streams::StreamIdle(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kStreamQuery, "aclrtStreamQuery", stream.get()}));
  return stream->Idle();
}

absl::StatusOr<StreamInfo> Streams::GetStreamInfo(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
  return StreamInfo{stream->device_id(), stream->id(), stream->flags(),
                    stream->priority()};
}

absl::Status Streams::SetStreamFailureMode(void* handle, uint64_t mode) {
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown stream failure mode ", mode));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
  if (!stream->SetFailureModeOnce(mode == ACL_STOP_ON_FAILURE)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("stream ", stream->id(),
                              " has its failure mode already: it is set once "
                              "per stream"));
  }
  return absl::OkStatus();
}

absl::StatusOr<aclrtStreamAttrValue> Streams::GetStreamAttribute(
    void* handle, aclrtStreamAttr attr) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
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

absl::Status Streams::SetStreamAttribute(void* handle, aclrtStreamAttr attr,
                                         const aclrtStreamAttrValue& value) {
  if (attr == ACL_STREAM_ATTR_FAILURE_MODE) {
    // The same call as aclrtSetStreamFailureMode.
    return SetStreamFailureMode(handle, value.failureMode);
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          runtime_.ResolveStream(handle));
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
