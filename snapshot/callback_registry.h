// The snapshot stage-callback registry (aclrtSnapShotCallbackRegister):
// per-stage lists in registration order, invoked once per open device.
//
//   CallbackRegistry registry;
//   registry.Register(RT_SNAPSHOT_LOCK_PRE, &OnLock, state);
//   ASCEND_RETURN_IF_ERROR(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {0, 1}));
//
// Invoke calls user code from a copy of the stage's list, never while holding
// the registry's lock, so a callback may query the registry or other state.
// The `args` pointer is stored, not owned; the caller keeps it alive while
// the callback is registered.
#ifndef ASCENDCL_SNAPSHOT_CALLBACK_REGISTRY_H_
#define ASCENDCL_SNAPSHOT_CALLBACK_REGISTRY_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "device/base/mutex.h"
#include "runtime/rt_snapshot.h"

namespace ascend::snapshot {

class CallbackRegistry {
 public:
  static constexpr int kStageCount = 6;

  // 107000 for a stage outside [0, 5] or a NULL callback; 507913 when the
  // callback is already registered for the stage (args are not compared).
  absl::Status Register(int32_t stage, rtSnapShotCallBack callback, void* args);
  // 107000 for a bad stage, NULL, or a callback not registered there.
  absl::Status Unregister(int32_t stage, rtSnapShotCallBack callback);
  // Calls every callback of `stage` in registration order, each once per
  // device of `device_ids` in the given order; stops at the first non-zero
  // return with 507912. With no device, nothing is called.
  absl::Status Invoke(int32_t stage, const std::vector<int32_t>& device_ids);
  // Number of callbacks registered for a stage.
  int Count(int32_t stage) const;

 private:
  struct Entry {
    rtSnapShotCallBack callback;
    void* args;
  };
  mutable ascend::Mutex mu_;
  std::array<std::vector<Entry>, kStageCount> stages_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_CALLBACK_REGISTRY_H_
