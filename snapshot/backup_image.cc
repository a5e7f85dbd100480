#include "snapshot/backup_image.h"

#include <exception>
#include <new>
#include <thread>
#include <utility>
#include <vector>

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

struct Saved {
  absl::StatusOr<std::unique_ptr<rt::SavedState>> state =
      absl::UnknownError("not saved");
  absl::Duration duration;
};

// `participant`'s save of every device of `scope`, in scope order: side by
// side when the participant allows it (the first device on this thread;
// without threads to spare, one after another).
std::vector<Saved> SaveAll(SnapshotParticipant& participant,
                           const std::vector<int32_t>& scope) {
  std::vector<Saved> saved(scope.size());
  auto save = [&](size_t i) {
    const absl::Time start = absl::Now();
    saved[i].state = SaveOne(participant, scope[i]);
    saved[i].duration = absl::Now() - start;
  };
  std::vector<std::thread> threads;
  std::vector<bool> started(scope.size(), false);
  if (participant.SavesDevicesConcurrently() && scope.size() > 1) {
    for (size_t i = 1; i < scope.size(); ++i) {
      try {
        threads.emplace_back(save, i);
        started[i] = true;
      } catch (const std::exception&) {
        break;  // out of threads: the rest run here
      }
    }
  }
  for (size_t i = 0; i < scope.size(); ++i) {
    if (started[i]) continue;
    save(i);
    // Run here, one after another, nothing follows a failure.
    if (!saved[i].state.ok() && threads.empty()) break;
  }
  for (std::thread& t : threads) t.join();
  return saved;
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
    std::vector<Saved> saved = SaveAll(*participant, scope);
    for (size_t i = 0; i < scope.size(); ++i) {
      if (!saved[i].state.ok()) {
        return Annotate(saved[i].state.status(), "save", participant->name(),
                        scope[i]);
      }
    }
    for (size_t i = 0; i < scope.size(); ++i) {
      try {
        image->states_.push_back(
            NamedState{std::string(participant->name()), scope[i],
                       *std::move(saved[i].state), saved[i].duration});
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
