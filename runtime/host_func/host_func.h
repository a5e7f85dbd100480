// The host-function family (DESIGN.md §1.7, §5.7): host code run in stream
// order. aclrtLaunchHostFunc runs a function on the stream's worker (or, for
// a stream subscribed with aclrtSubscribeHostFunc, on the subscribed thread
// inside its aclrtProcessHostFunc); aclrtLaunchCallback hands a report
// callback to the thread subscribed to the stream (aclrtSubscribeReport),
// which runs it inside aclrtProcessReport. It reaches the core only through
// Runtime's public interface and the task path, and drops a stream's
// subscriptions when the stream leaves the table (Family::OnStreamGone).
//
//   HostFuncs& host = *HostFuncs::Of(runtime);
//   ASCEND_RETURN_IF_ERROR(host.LaunchHostFunc(stream, fn, args));
#ifndef ASCENDCL_RUNTIME_HOST_FUNC_HOST_FUNC_H_
#define ASCENDCL_RUNTIME_HOST_FUNC_HOST_FUNC_H_

#include <cstdint>

#include "absl/status/status.h"
#include "acl/acl_rt.h"
#include "runtime/device_callbacks.h"
#include "runtime/exception_info.h"
#include "runtime/executor_pool.h"
#include "runtime/family.h"
#include "runtime/host_func/report.h"

namespace ascend::rt {

class HostFuncs final : public Family {
 public:
  explicit HostFuncs(Runtime& runtime) : runtime_(runtime) {}
  HostFuncs(const HostFuncs&) = delete;
  HostFuncs& operator=(const HostFuncs&) = delete;

  // The family of `runtime`, or null when it was built without it.
  static HostFuncs* Of(const Runtime& runtime);

  // A null stream means the current default stream.
  absl::Status LaunchHostFunc(void* stream, aclrtHostFunc fn, void* args);
  absl::Status LaunchCallback(aclrtCallback fn, void* user_data,
                              aclrtCallbackBlockType block, void* stream);
  absl::Status SubscribeReport(uint64_t thread_id, void* stream);
  absl::Status UnsubscribeReport(uint64_t thread_id, void* stream);
  absl::Status ProcessReport(int32_t timeout_ms);
  // Host functions launched on a subscribed stream run on the subscribed
  // thread, inside its aclrtProcessHostFunc. The stream must not be null.
  absl::Status SubscribeHostFunc(uint64_t thread_id, void* stream);
  absl::Status UnsubscribeHostFunc(uint64_t thread_id, void* stream);
  absl::Status ProcessHostFunc(int32_t timeout_ms);

  // --- The runtime's callbacks and executors (DESIGN.md §5.12, §5.16) ------
  // Its device-state and task-abort callbacks (aclrtRegDeviceStateCallback,
  // aclrtSetDeviceTaskAbortCallback), its task exception callbacks
  // (aclrtSetExceptionInfoCallback and friends) and the executor pool its
  // streams run on (DESIGN.md §1.4, §5.3.1). The core owns them: they
  // outlive every stream.
  DeviceCallbacks& device_callbacks();
  ExceptionCallbacks& exception_callbacks();
  ExecutorPool& executors();

  void OnStreamGone(const void* stream) override;

 private:
  // aclrtProcessReport / aclrtProcessHostFunc on `hub`.
  absl::Status ProcessHub(ReportHub& hub, int32_t timeout_ms);

  Runtime& runtime_;
  ReportHub reports_;
  ReportHub host_funcs_;  // aclrtSubscribeHostFunc
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration HostFuncFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_HOST_FUNC_HOST_FUNC_H_
