#include "snapshot/backup_image.h"

#include <new>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "glog/logging.h"

namespace ascend::snapshot {
namespace {

using rt::SnapshotParticipant;

std::string Where(absl::string_view participant, int32_t device_id) {
  if (device_id == SnapshotParticipant::kProcessWide) {
    return absl::StrCat("snapshot participant \"", participant, "\"");
  }
  return absl::StrCat("snapshot participant \"", participant, "\", device ",
                      device_id);
}

absl::Status Annotate(const absl::Status& status, absl::string_view what,
                      absl::string_view participant, int32_t device_id) {
  // Payloads (an exact ACL code) stay with the annotated status.
  absl::Status annotated(
      status.code(), absl::StrCat(what, " of ", Where(participant, device_id),
                                  ": ", status.message()));
  status.ForEachPayload(
      [&annotated](absl::string_view url, const absl::Cord& payload) {
        annotated.SetPayload(url, payload);
      });
  return annotated;
}

// Host memory can run out in the middle of a save (the image's tables, a
// participant's buffers): that fails the Backup instead of escaping through
// a C entry point.
absl::StatusOr<std::unique_ptr<rt::SavedState>> SaveOne(
    SnapshotParticipant& participant, int32_t device_id) {
  try {
    return participant.Save(device_id);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of host memory");
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<BackupImage>> BackupImage::Save(
    const ParticipantRegistry& registry, const std::vector<int32_t>& devices) {
  std::unique_ptr<BackupImage> image(new (std::nothrow) BackupImage());
  if (image == nullptr) return absl::ResourceExhaustedError("out of memory");
  image->devices_ = devices;
  for (SnapshotParticipant* participant : registry.participants()) {
    std::vector<int32_t> scope = devices;
    if (participant->scope() == SnapshotParticipant::Scope::kProcess) {
      scope = {SnapshotParticipant::kProcessWide};
    }
    for (int32_t device_id : scope) {
      const absl::Time start = absl::Now();
      absl::StatusOr<std::unique_ptr<rt::SavedState>> state =
          SaveOne(*participant, device_id);
      if (!state.ok()) {
        return Annotate(state.status(), "save", participant->name(), device_id);
      }
      try {
        image->states_.push_back(NamedState{std::string(participant->name()),
                                            device_id, *std::move(state),
                                            absl::Now() - start});
      } catch (const std::bad_alloc&) {
        return absl::ResourceExhaustedError("out of host memory");
      }
    }
  }
  return image;
}

absl::Status BackupImage::Restore() {
  for (NamedState& named : states_) {
    absl::Status ready = named.state->Prepare();
    if (!ready.ok()) {
      return Annotate(ready, "restore check", named.participant,
                      named.device_id);
    }
  }
  for (NamedState& named : states_) {
    const absl::Time start = absl::Now();
    absl::Status restored = named.state->Restore();
    named.duration = absl::Now() - start;
    if (!restored.ok()) {
      return Annotate(restored, "restore", named.participant, named.device_id);
    }
    VLOG(1) << "snapshot restore: " << Where(named.participant, named.device_id)
            << " in " << absl::Now() - start;
  }
  return absl::OkStatus();
}

std::vector<const BackupImage::NamedState*> BackupImage::StatesOf(
    int32_t device_id) const {
  std::vector<const NamedState*> found;
  for (const NamedState& named : states_) {
    if (named.device_id == device_id) found.push_back(&named);
  }
  return found;
}

rt::SavedState* BackupImage::Find(int32_t device_id,
                                  absl::string_view participant) const {
  for (const NamedState& named : states_) {
    if (named.device_id == device_id && named.participant == participant) {
      return named.state.get();
    }
  }
  return nullptr;
}

uint64_t BackupImage::total_bytes() const {
  uint64_t total = 0;
  for (const NamedState& named : states_) total += named.state->bytes();
  return total;
}

}  // namespace ascend::snapshot
