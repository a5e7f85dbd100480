// A backup image: what every registered participant saved, in registration
// order — for each device-scope participant one saved state per device, for
// each process-scope participant one state. Save builds it; Restore first
// prepares every state (checks that change nothing), then restores them in
// that order, every device's state of one participant before the next
// participant, and may be called again after a failure (saved states are
// never consumed).
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<BackupImage> image,
//                           BackupImage::Save(registry, {0, 1}));
//   ...device memory lost...
//   ASCEND_RETURN_IF_ERROR(image->Restore());
#ifndef ASCENDCL_SNAPSHOT_BACKUP_IMAGE_H_
#define ASCENDCL_SNAPSHOT_BACKUP_IMAGE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "runtime/snapshot_participant.h"
#include "snapshot/participant_registry.h"

namespace ascend::snapshot {

class BackupImage {
 public:
  // One saved state, named after its participant.
  struct NamedState {
    std::string participant;
    // The device it belongs to; SnapshotParticipant::kProcessWide for a
    // process-scope participant.
    int32_t device_id = rt::SnapshotParticipant::kProcessWide;
    std::unique_ptr<rt::SavedState> state;
    // How long its last Save or Restore took.
    absl::Duration duration;
  };

  // Saves with every participant of `registry` (device-scope ones once per
  // device of `devices`, in that order). The first failure is returned,
  // with the participant and device named in its message.
  static absl::StatusOr<std::unique_ptr<BackupImage>> Save(
      const ParticipantRegistry& registry, const std::vector<int32_t>& devices);

  // Prepares every state, then restores every state in order; the first
  // failure stops it and is returned (a preparation failure before any
  // state restored). Safe to call again.
  absl::Status Restore();

  const std::vector<int32_t>& devices() const { return devices_; }
  // Every saved state, in restore order.
  const std::vector<NamedState>& states() const { return states_; }
  // The states of one device (or kProcessWide), in restore order.
  std::vector<const NamedState*> StatesOf(int32_t device_id) const;
  // The state `participant` saved for `device_id`, or null.
  rt::SavedState* Find(int32_t device_id, absl::string_view participant) const;
  // Host bytes the states hold for device contents.
  uint64_t total_bytes() const;

 private:
  BackupImage() = default;

  std::vector<int32_t> devices_;
  std::vector<NamedState> states_;
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_BACKUP_IMAGE_H_
