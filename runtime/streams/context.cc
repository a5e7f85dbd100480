// Contexts: creation, destruction and the calling thread's current context
// (the streams family, runtime/streams/streams.h).

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/internal/core_access.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"
#include "runtime/streams/streams.h"

namespace ascend::rt {

using Core = Runtime::CoreAccess;

Streams* Streams::Of(const Runtime& runtime) {
  return runtime.family<Streams>();
}

FamilyRegistration StreamsFamily() {
  return {"streams", &FamilyIndex<Streams>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<Streams>(runtime);
          }};
}

absl::StatusOr<void*> Streams::CreateContext(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  std::shared_ptr<Context> ctx;
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    ASCEND_RETURN_IF_ERROR(Core::OpenDeviceLocked(runtime_, device_id));
    Core::DeviceEntry& entry = Core::Device(runtime_, device_id);
    // Out of stream ids: 207008, as for aclrtCreateStream.
    ASCEND_ASSIGN_OR_RETURN(
        uint32_t stream_id,
        Core::AllocateIdLocked(runtime_, device_id, ObjectKind::kStream));
    ctx = std::make_shared<Context>(
        device_id, /*primary=*/false,
        std::make_shared<Stream>(Core::Executors(runtime_),
                                 Core::ExceptionCallbacksOf(runtime_),
                                 device_id, stream_id, 0, 0));
    ++entry.refcount;
    Core::RegisterLocked(runtime_, ctx, device_id, std::nullopt);
    Core::RegisterLocked(runtime_, ctx->default_stream(), device_id, stream_id,
                         ctx->handle());
  }
  Core::ThreadContext(runtime_) = ctx;
  return ctx->handle();
}

absl::Status Streams::DestroyContext(void* context) {
  // Destroyed in reverse order: the context's streams (retired: their
  // pending work finished, like aclrtDestroyStream) before the device
  // teardown, whose close ticket must go last.
  Core::Teardown teardown;
  std::vector<HandleTable::Entry> streams;
  std::weak_ptr<device::Device> owner;
  std::optional<int32_t> closed;
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                            Core::ResolveLocked<Context>(runtime_, context));
    if (ctx->primary()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "the default context is released by aclrtResetDevice");
    }
    if (const Stream* running = Stream::Current(); running != nullptr) {
      bool own = false;
      Core::Table(runtime_).ForEach<Stream>(
          ctx->device_id(), [&](const void*, const std::shared_ptr<Stream>& s,
                                const HandleTable::Key& key) {
            own = own || (s.get() == running && key.parent == ctx->handle());
          });
      if (own) {
        return Error(ACL_ERROR_RT_NO_PERMISSION,
                     "a task cannot destroy the context of its own stream");
      }
    }
    ctx->MarkDestroyed();
    Core::Table(runtime_).Erase(context);
    owner = Core::Device(runtime_, ctx->device_id()).device;
    streams = Core::Table(runtime_).EraseChildren(ctx->handle());
    for (const HandleTable::Entry& stream : streams) {
      Core::StreamGoneLocked(runtime_, stream.handle);
    }
    Core::DeviceEntry& entry = Core::Device(runtime_, ctx->device_id());
    if (--entry.refcount <= 0) {
      teardown = Core::CloseDeviceLocked(runtime_, ctx->device_id());
      closed = ctx->device_id();
    }
  }
  if (closed.has_value()) Core::NotifyDeviceClosed(runtime_, *closed);
  std::shared_ptr<Context>& current = Core::ThreadContext(runtime_);
  if (current && current->handle() == context) current.reset();
  for (const HandleTable::Entry& entry : streams) {
    std::shared_ptr<Stream> stream = entry.As<Stream>();
    if (stream == nullptr) continue;
    Core::RetireStream(runtime_, stream, owner);
    // The id goes back to the instance that issued it (see DestroyStream).
    if (std::shared_ptr<device::Device> device = owner.lock()) {
      device->ReleaseId(device::ResourceKind::kStream, stream->id());
    }
  }
  return absl::OkStatus();
}

absl::Status Streams::SetCurrentContext(void* context) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          runtime_.Resolve<Context>(context));
  Core::ThreadContext(runtime_) = std::move(ctx);
  return absl::OkStatus();
}

absl::StatusOr<void*> Streams::GetCurrentContext() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          runtime_.CurrentContext());
  return ctx->handle();
}

absl::StatusOr<void*> Streams::CurrentDefaultStream() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          runtime_.CurrentContext());
  return ctx->default_stream()->handle();
}

}  // namespace ascend::rt
