// The snapshot support family (DESIGN.md §1.7, §4.3, §4.4): what the
// snapshot coordinator (//snapshot) asks of the runtime beyond its core --
// draining every stream for a backup and closing the gate to stream work,
// the devices' health marks (set by a health event or an injected fault,
// cleared after a restore) and fault injection on the simulator.
//
// It keeps no state of its own: the streams it drains, the retiring
// streams it waits for and the health marks it sets are the core's, reached
// through Runtime::CoreAccess (runtime/internal/core_access.h).
//
//   SnapshotSupport& support = *SnapshotSupport::Of(runtime);
//   ASCEND_RETURN_IF_ERROR(support.DrainStreamsForBackup(deadline, devices));
#ifndef ASCENDCL_RUNTIME_SNAPSHOT_SUPPORT_SNAPSHOT_SUPPORT_H_
#define ASCENDCL_RUNTIME_SNAPSHOT_SUPPORT_SNAPSHOT_SUPPORT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "device/device.h"
#include "runtime/family.h"

namespace ascend::rt {

class Runtime;

class SnapshotSupport final : public Family {
 public:
  explicit SnapshotSupport(Runtime& runtime) : runtime_(runtime) {}
  SnapshotSupport(const SnapshotSupport&) = delete;
  SnapshotSupport& operator=(const SnapshotSupport&) = delete;

  // The family of `runtime`, or null when it was built without it.
  static SnapshotSupport* Of(const Runtime& runtime);

  // Open devices in ascending id.
  std::vector<int32_t> OpenDevices() const;
  // Synchronises every stream of every context.
  absl::Status DrainAllStreams(absl::Time deadline);
  // Backup's drain (DESIGN.md §4.3): drains every stream until none has work
  // left -- tasks may queue more while the process is LOCKED -- and then
  // closes the gate to stream work (GlobalState::CloseStreamWork) so none
  // can start until Unlock. kDeadlineExceeded when the streams do not
  // settle by `deadline`; 507908 when the open devices are no longer
  // `devices` (the ones the backup is for) by then.
  absl::Status DrainStreamsForBackup(absl::Time deadline,
                                     const std::vector<int32_t>& devices);
  // Clears the abnormal mark a health event set (after a restore); health
  // events raised before the call are stale from then on.
  void MarkDeviceHealthy(int32_t device_id);
  // Records a device health event (as the core's health monitor does).
  void OnHealthEvent(const device::HealthEvent& event);
  // Injects a fault into the device backend (simulator); a memory loss
  // marks the device abnormal at once.
  absl::Status InjectFault(int32_t device_id, device::Fault fault);

 private:
  Runtime& runtime_;
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration SnapshotSupportFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_SNAPSHOT_SUPPORT_SNAPSHOT_SUPPORT_H_
