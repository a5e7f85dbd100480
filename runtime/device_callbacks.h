// A runtime's device-state callbacks (aclrtRegDeviceStateCallback) and
// task-abort callbacks (aclrtSetDeviceTaskAbortCallback), each registered
// under a unique name; the process runtime's are the process's (DESIGN.md
// §1.4, §5.16).
//
//   HostFuncs::Of(runtime)->device_callbacks().RegisterState("fw", fn, args);
//   ... aclrtSetDevice opens device 0: fn(0, ACL_RT_DEVICE_STATE_SET_PRE, args)
//       then fn(0, ACL_RT_DEVICE_STATE_SET_POST, args)
#ifndef ASCENDCL_RUNTIME_DEVICE_CALLBACKS_H_
#define ASCENDCL_RUNTIME_DEVICE_CALLBACKS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"

namespace ascend::rt {

class DeviceCallbacks {
 public:
  // A non-null callback registers under `name` (107000 when the name is
  // taken); null removes the name's registration (none: no-op).
  absl::Status RegisterState(const std::string& name,
                             aclrtDeviceStateCallback callback, void* args);
  absl::Status RegisterTaskAbort(const std::string& name,
                                 aclrtDeviceTaskAbortCallback callback,
                                 void* args);

  // Calls every state callback (in name order), outside the lock.
  void NotifyState(int32_t device_id, aclrtDeviceState state) const;
  // Calls every task-abort callback (in name order); the first non-zero
  // return stops the notification and becomes the status's code.
  absl::Status NotifyTaskAbort(int32_t device_id,
                               aclrtDeviceTaskAbortStage stage,
                               uint32_t timeout_ms) const;
  // Whether any state callback is registered (cheap check for the open
  // and close paths).
  bool HasStateCallbacks() const;

 private:
  template <typename F>
  struct Entry {
    F callback;
    void* args;
  };
  mutable ascend::Mutex mu_;
  std::map<std::string, Entry<aclrtDeviceStateCallback>> state_
      ABSL_GUARDED_BY(mu_);
  std::map<std::string, Entry<aclrtDeviceTaskAbortCallback>> abort_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_DEVICE_CALLBACKS_H_
