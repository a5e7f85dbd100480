// Host functions and report callbacks: host code run in stream order.
#include "runtime/host_func/host_func.h"

#include <pthread.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/internal/core_access.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"

namespace ascend::rt {

HostFuncs* HostFuncs::Of(const Runtime& runtime) {
  return runtime.family<HostFuncs>();
}

DeviceCallbacks& HostFuncs::device_callbacks() {
  return Runtime::CoreAccess::DeviceCallbacksOf(runtime_);
}

ExceptionCallbacks& HostFuncs::exception_callbacks() {
  return Runtime::CoreAccess::ExceptionCallbacksOf(runtime_);
}

ExecutorPool& HostFuncs::executors() {
  return Runtime::CoreAccess::Executors(runtime_);
}

FamilyRegistration HostFuncFamily() {
  return {"host functions", &FamilyIndex<HostFuncs>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<HostFuncs>(runtime);
          }};
}

void HostFuncs::OnStreamGone(const void* stream) {
  reports_.ForgetStream(stream);
  host_funcs_.ForgetStream(stream);
}

absl::Status HostFuncs::LaunchHostFunc(void* stream, aclrtHostFunc fn,
                                       void* args) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const void* key = s->handle();
  return runtime_.tasks().Submit(
      TaskKind::kHostFunc, "aclrtLaunchHostFunc", std::move(s),
      Task{[this, fn, args, key]() -> absl::Status {
             // A stream subscribed to a host-function thread
             // (aclrtSubscribeHostFunc) hands the function to that thread,
             // which runs it in aclrtProcessHostFunc; the stream waits for it
             // as for one it ran itself. The subscription is looked up when the
             // task runs, as a subscription may come or go while it is queued.
             const std::optional<uint64_t> thread =
                 host_funcs_.FindSubscriber(key);
             if (!thread.has_value()) {
               fn(args);
             } else {
               auto item = host_funcs_.Post(*thread, fn, args);
               while (
                   !host_funcs_.WaitDone(item, absl::Now() + kTaskWaitSlice)) {
                 if (Stream::CurrentAborting()) {
                   return absl::CancelledError("stream destroyed");
                 }
               }
             }
             // Host functions may write simulated device memory.
             Memory::Of(runtime_)->MemoryWritten();
             return absl::OkStatus();
           },
           nullptr},
      TaskWrites{{}, true});
}

absl::Status HostFuncs::LaunchCallback(aclrtCallback fn, void* user_data,
                                       aclrtCallbackBlockType block,
                                       void* stream) {
  if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown callback block type ", block));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(uint64_t thread, reports_.Subscriber(s->handle()));
  return runtime_.tasks().Submit(
      TaskKind::kHostFunc, "aclrtLaunchCallback", std::move(s),
      Task{[this, fn, user_data, block, thread]() -> absl::Status {
             auto item = reports_.Post(thread, fn, user_data);
             if (block == ACL_CALLBACK_NO_BLOCK) return absl::OkStatus();
             while (!reports_.WaitDone(item, absl::Now() + kTaskWaitSlice)) {
               if (Stream::CurrentAborting()) {
                 return absl::CancelledError("stream destroyed");
               }
             }
             Memory::Of(runtime_)->MemoryWritten();
             return absl::OkStatus();
           },
           nullptr},
      TaskWrites{{}, true});
}

absl::Status HostFuncs::SubscribeReport(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  // 12, aclrtSubscribeReport constraints: one thread serves the streams of
  // one device.
  return reports_.Subscribe(thread_id, s->handle(), s->device_id());
}

absl::Status HostFuncs::UnsubscribeReport(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return reports_.Unsubscribe(thread_id, s->handle());
}

absl::Status HostFuncs::ProcessReport(int32_t timeout_ms) {
  // 12, aclrtProcessReport `timeout`: -1 (wait forever) or positive.
  if (timeout_ms < -1 || timeout_ms == 0) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("report timeout ", timeout_ms,
                              " is neither -1 nor positive"));
  }
  return ProcessHub(reports_, timeout_ms);
}

absl::Status HostFuncs::SubscribeHostFunc(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.Resolve<Stream>(stream));
  return host_funcs_.Subscribe(thread_id, s->handle());
}

absl::Status HostFuncs::UnsubscribeHostFunc(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.Resolve<Stream>(stream));
  return host_funcs_.Unsubscribe(thread_id, s->handle());
}

absl::Status HostFuncs::ProcessHostFunc(int32_t timeout_ms) {
  if (timeout_ms < -1 || timeout_ms == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("host function timeout ", timeout_ms,
                              " is neither -1 nor positive"));
  }
  return ProcessHub(host_funcs_, timeout_ms);
}

absl::Status HostFuncs::ProcessHub(ReportHub& hub, int32_t timeout_ms) {
  const absl::Time deadline =
      timeout_ms == -1 ? absl::InfiniteFuture()
                       : absl::Now() + absl::Milliseconds(timeout_ms);
  const auto thread_id = static_cast<uint64_t>(pthread_self());
  for (;;) {
    // Waiting for a report is not a call in progress: a Lock does not wait
    // for an idle report thread (it would never finish). Running the
    // callback is. As in the reference, only entry into aclrtProcessReport (or
    // aclrtProcessHostFunc)
    // blocks while the process is locked: a thread already inside runs a
    // callback that reaches it while LOCKED, since the callback's stream
    // (and so Backup's drain) may be waiting for it (a BLOCK callback). Its
    // gate admits it as stream work until a Backup has drained the streams,
    // then holds it until Unlock (DESIGN.md §4.3, §5.7). The callback's own
    // gated calls are nested in this gate and proceed: the admission is
    // decided once per callback, and Backup's drain waits for an admitted
    // callback to return before it copies.
    ASCEND_RETURN_IF_ERROR(hub.WaitPending(thread_id, deadline));
    StreamWorkScope stream_work(StreamWorkScope::kReportCallback);
    ApiScope gate(runtime_.state());
    // Not reached: the gate holds report callbacks, it never refuses them.
    if (gate.refused()) return GateRefusal();
    if (hub.RunPending(thread_id)) return absl::OkStatus();
  }
}

}  // namespace ascend::rt
