// Contexts: creation, destruction and the calling thread's current context.
#include "runtime/context.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"

namespace ascend::rt {

// Contexts hold no id of their own (their default stream does); closing the
// device ends them, so a thread still pointing at one gets "no context".
const KindDescriptor kContextKind = {
    ObjectKind::kContext, "context", std::nullopt, ACL_ERROR_RT_PARAM_INVALID,
    [](const HandleTable::Entry& entry, CloseActions&) {
      if (auto context = entry.As<Context>()) context->MarkDestroyed();
    }};

absl::StatusOr<void*> Runtime::CreateContext(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  std::shared_ptr<Context> ctx;
  {
    ascend::MutexLock lock(&mu_);
    ASCEND_RETURN_IF_ERROR(OpenDeviceLocked(device_id));
    DeviceEntry& entry = devices_[device_id];
    // Out of stream ids: 207008, as for aclrtCreateStream.
    ASCEND_ASSIGN_OR_RETURN(uint32_t stream_id,
                            AllocateIdLocked(device_id, ObjectKind::kStream));
    ctx = std::make_shared<Context>(
        device_id, /*primary=*/false,
        std::make_shared<Stream>(executors_, exception_callbacks_, device_id,
                                 stream_id, 0, 0));
    ++entry.refcount;
    RegisterLocked(ctx, device_id, std::nullopt);
    RegisterLocked(ctx->default_stream(), device_id, stream_id, ctx->handle());
  }
  ThreadContext() = ctx;
  return ctx->handle();
}

absl::Status Runtime::DestroyContext(void* context) {
  // Destroyed in reverse order: the context's streams (retired: their
  // pending work finished, like aclrtDestroyStream) before the device
  // teardown, whose close ticket must go last.
  Teardown teardown;
  std::vector<HandleTable::Entry> streams;
  std::weak_ptr<device::Device> owner;
  std::optional<int32_t> closed;
  {
    ascend::MutexLock lock(&mu_);
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                            ResolveLocked<Context>(context));
    if (ctx->primary()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "the default context is released by aclrtResetDevice");
    }
    if (const Stream* running = Stream::Current(); running != nullptr) {
      bool own = false;
      table_.ForEach<Stream>(
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
    table_.Erase(context);
    owner = devices_[ctx->device_id()].device;
    streams = table_.EraseChildren(ctx->handle());
    for (const HandleTable::Entry& stream : streams) {
      StreamGoneLocked(stream.handle);
    }
    DeviceEntry& entry = devices_[ctx->device_id()];
    if (--entry.refcount <= 0) {
      teardown = CloseDeviceLocked(ctx->device_id());
      closed = ctx->device_id();
    }
  }
  if (closed.has_value()) NotifyDeviceClosed(*closed);
  std::shared_ptr<Context>& current = ThreadContext();
  if (current && current->handle() == context) current.reset();
  for (const HandleTable::Entry& entry : streams) {
    std::shared_ptr<Stream> stream = entry.As<Stream>();
    if (stream == nullptr) continue;
    RetireStream(stream, owner);
    // The id goes back to the instance that issued it (see DestroyStream).
    if (std::shared_ptr<device::Device> device = owner.lock()) {
      device->ReleaseId(device::ResourceKind::kStream, stream->id());
    }
  }
  return absl::OkStatus();
}

absl::Status Runtime::SetCurrentContext(void* context) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          Resolve<Context>(context));
  ThreadContext() = std::move(ctx);
  return absl::OkStatus();
}

absl::StatusOr<void*> Runtime::GetCurrentContext() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->handle();
}

absl::StatusOr<void*> Runtime::CurrentDefaultStream() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->default_stream()->handle();
}

}  // namespace ascend::rt
