// The snapshot support family (runtime/snapshot_support/snapshot_support.h).
#include "runtime/snapshot_support/snapshot_support.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/internal/core_access.h"
#include "runtime/runtime.h"

namespace ascend::rt {

using Core = Runtime::CoreAccess;

SnapshotSupport* SnapshotSupport::Of(const Runtime& runtime) {
  return runtime.family<SnapshotSupport>();
}

FamilyRegistration SnapshotSupportFamily() {
  return {"snapshot support", &FamilyIndex<SnapshotSupport>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<SnapshotSupport>(runtime);
          }};
}

std::vector<int32_t> SnapshotSupport::OpenDevices() const {
  std::vector<int32_t> open;
  ascend::MutexLock lock(&Core::Lock(runtime_));
  for (int32_t id = 0; id < runtime_.DeviceCount(); ++id) {
    if (Core::Device(runtime_, id).device) open.push_back(id);
  }
  return open;
}

absl::Status SnapshotSupport::DrainAllStreams(absl::Time deadline) {
  std::vector<std::shared_ptr<Stream>> streams =
      Core::RetiringStreams(runtime_, -1);
  {
    ascend::MutexLock lock(&Core::Lock(runtime_));
    std::vector<std::shared_ptr<Stream>> live =
        Core::Table(runtime_).Objects<Stream>(/*device_id=*/-1);
    streams.insert(streams.end(), live.begin(), live.end());
  }
  for (auto& stream : streams) {
    // A task failure is the application's to collect; only a stream that
    // cannot drain stops the snapshot. Drain leaves the error pending for
    // the application's next synchronize.
    absl::Status status = stream->Drain(deadline);
    if (status.code() == absl::StatusCode::kDeadlineExceeded) return status;
    if (!status.ok()) {
      LOG(WARNING) << "stream " << stream->id()
                   << " had a failed task while draining: " << status;
    }
  }
  return absl::OkStatus();
}

absl::Status SnapshotSupport::DrainStreamsForBackup(
    absl::Time deadline, const std::vector<int32_t>& devices) {
  // An earlier Backup of this lock period may have closed the gate to stream
  // work; this one's drain admits it again.
  runtime_.state().OpenStreamWork();
  for (;;) {
    // A task may queue more work, on any stream (a host function launching
    // a host function): one pass over the streams is not enough.
    ASCEND_RETURN_IF_ERROR(DrainAllStreams(deadline));
    // Force-destroyed streams drained too: their ids are not the image's.
    Core::SweepRetiring(runtime_, -1);
    ASCEND_ASSIGN_OR_RETURN(const bool closed,
                            runtime_.state().CloseStreamWork(deadline, [this] {
                              for (const std::shared_ptr<Stream>& stream :
                                   runtime_.Objects<Stream>(/*device_id=*/-1)) {
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

void SnapshotSupport::MarkDeviceHealthy(int32_t device_id) {
  ascend::MutexLock lock(&Core::Lock(runtime_));
  if (device_id >= 0 && device_id < runtime_.DeviceCount()) {
    Core::Device(runtime_, device_id).abnormal = false;
    // Health events raised before now are about the memory the restore has
    // just replaced: the monitor may still deliver them (it runs on its own
    // thread, later under load), and they must not mark the device again.
    Core::Device(runtime_, device_id).opened_at = absl::Now();
  }
}

absl::Status SnapshotSupport::InjectFault(int32_t device_id,
                                          device::Fault fault) {
  if (!runtime_.backend())
    return Error(ACL_ERROR_INVALID_PARAM, "no device backend");
  if (device_id < 0 || device_id >= runtime_.DeviceCount()) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("device ", device_id, " does not exist"));
  }
  ASCEND_RETURN_IF_ERROR(runtime_.backend()->InjectFault(device_id, fault));
  if (fault == device::Fault::kMemoryLoss) {
    // The device is abnormal from now on, in every process state: the
    // health event the backend also queues reaches the monitor later (not
    // at all while the process is locked and the monitor parked).
    ascend::MutexLock lock(&Core::Lock(runtime_));
    Core::Device(runtime_, device_id).abnormal = true;
  }
  return absl::OkStatus();
}

void SnapshotSupport::OnHealthEvent(const device::HealthEvent& event) {
  Core::OnHealthEvent(runtime_, event);
}

}  // namespace ascend::rt
