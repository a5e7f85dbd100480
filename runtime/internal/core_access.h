// The one way into the core's private state (runtime/runtime.h), for the
// families that implement what the core once did on its own tables: the
// streams family (runtime/streams), which creates and destroys contexts and
// streams under the core's lock in one critical section with a device's
// open and close; the device information family's peer access and health
// marks (runtime/device_info), the snapshot support family's drain
// (runtime/snapshot_support) and the host-function family's view of the
// runtime's callbacks and executors (runtime/host_func) (DESIGN.md §1.7).
//
// Runtime::CoreAccess is a nested class of Runtime, and so reaches its
// private members without a friend declaration; it exposes the core's lock,
// handle table and device entries, and the private helpers that work on
// them, each with the lock requirement it has in the core. This header's
// Bazel target is visible to //runtime/... only: nothing above the runtime
// (the snapshot, the ACL layer) can reach past Runtime's public interface.
//
//   using Core = Runtime::CoreAccess;
//   ascend::MutexLock lock(&Core::Lock(runtime));
//   Core::Table(runtime).Erase(handle);
#ifndef ASCENDCL_RUNTIME_INTERNAL_CORE_ACCESS_H_
#define ASCENDCL_RUNTIME_INTERNAL_CORE_ACCESS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "runtime/context.h"
#include "runtime/device_callbacks.h"
#include "runtime/exception_info.h"
#include "runtime/executor_pool.h"
#include "runtime/handle_table.h"
#include "runtime/object_kind.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

class Runtime::CoreAccess {
 public:
  using DeviceEntry = Runtime::DeviceEntry;
  using Teardown = Runtime::Teardown;

  // The core's lock, and what it guards.
  static ascend::Mutex& Lock(Runtime& rt) ABSL_LOCK_RETURNED(rt.mu_) {
    return rt.mu_;
  }
  static HandleTable& Table(Runtime& rt) ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.table_;
  }
  static DeviceEntry& Device(Runtime& rt, int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.devices_[device_id];
  }

  // Opening and closing a device (the core's OpenDeviceLocked,
  // CloseDeviceLocked and NotifyDeviceClosed).
  static absl::Status OpenDeviceLocked(Runtime& rt, int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.OpenDeviceLocked(device_id);
  }
  static Teardown CloseDeviceLocked(Runtime& rt, int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.CloseDeviceLocked(device_id);
  }
  static void NotifyDeviceClosed(Runtime& rt, int32_t device_id) {
    rt.NotifyDeviceClosed(device_id);
  }

  // The handle table's objects and their ids.
  static absl::StatusOr<uint32_t> AllocateIdLocked(Runtime& rt,
                                                   int32_t device_id,
                                                   ObjectKind kind)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.AllocateIdLocked(device_id, kind);
  }
  template <typename T>
  static void RegisterLocked(Runtime& rt, const std::shared_ptr<T>& object,
                             int32_t device_id, std::optional<uint32_t> id,
                             const void* parent = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    rt.RegisterLocked(object, device_id, id, parent);
  }
  template <typename T>
  static absl::StatusOr<std::shared_ptr<T>> ResolveLocked(Runtime& rt,
                                                          const void* handle)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    return rt.ResolveLocked<T>(handle);
  }
  static absl::Status NotLive(ObjectKind kind) {
    return Runtime::NotLive(kind);
  }
  static void StreamGoneLocked(Runtime& rt, const void* stream)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    rt.StreamGoneLocked(stream);
  }

  // The calling thread's current context slot.
  static std::shared_ptr<Context>& ThreadContext(Runtime& rt) {
    return rt.ThreadContext();
  }

  // Destroyed streams: waited for (RetireStream), or left retiring on their
  // device (AddRetiringLocked) until idle (SweepRetiring).
  static void RetireStream(Runtime& rt, const std::shared_ptr<Stream>& stream,
                           const std::weak_ptr<device::Device>& owner) {
    rt.RetireStream(stream, owner);
  }
  static void AddRetiringLocked(Runtime& rt, DeviceEntry& entry,
                                std::shared_ptr<Stream> stream)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(rt.mu_) {
    entry.retiring.push_back(std::move(stream));
    rt.retiring_count_.fetch_add(1, std::memory_order_relaxed);
  }
  static void SweepRetiring(Runtime& rt, int32_t device_id) {
    rt.SweepRetiring(device_id);
  }
  static std::vector<std::shared_ptr<Stream>> RetiringStreams(
      Runtime& rt, int32_t device_id) {
    return rt.RetiringStreams(device_id);
  }

  // The runtime's device-state and task-abort callbacks, its task exception
  // callbacks and the executor pool its streams run on (members of the
  // core: they outlive every stream).
  static DeviceCallbacks& DeviceCallbacksOf(Runtime& rt) {
    return rt.device_callbacks_;
  }
  static ExceptionCallbacks& ExceptionCallbacksOf(Runtime& rt) {
    return rt.exception_callbacks_;
  }
  static ExecutorPool& Executors(Runtime& rt) { return rt.executors_; }

  // A device health event, recorded as the core's health monitor does.
  static void OnHealthEvent(Runtime& rt, const device::HealthEvent& event) {
    rt.OnHealthEvent(event);
  }
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_INTERNAL_CORE_ACCESS_H_
