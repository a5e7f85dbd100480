// A snapshot participant: one kind of state the process snapshot carries
// (device memory, the ids of streams, events and their state, driver-held
// resources, ...). Shaped like abseil's FlagSaver: Save captures the
// participant's part of one device (or of the process) into an opaque
// SavedState, and that state restores itself.
//
//   class WidgetParticipant final : public SnapshotParticipant {
//     absl::string_view name() const override { return "widget"; }
//     absl::StatusOr<std::unique_ptr<SavedState>> Save(int32_t dev) override;
//     absl::StatusOr<std::string> Describe(int32_t dev) const override;
//   };
//
// Participants are registered explicitly at start-up, in restore order
// (snapshot/builtin_participants.cc); the coordinator saves with every
// participant, then on Restore runs each saved state in registration order,
// every device's state of one participant before the next participant
// (DESIGN.md §4.12). Adding a resource kind to the snapshot is one participant
// and one registration line.
//
// Contract for implementations:
//  * Save runs while the process is LOCKED with every stream drained; it
//    must not change what it saves. A failure fails the Backup (507908),
//    which keeps the previous backup.
//  * SavedState::Prepare runs for every saved state of the image before
//    any state restores: it checks that the restore can proceed (the device
//    saved is still the one open, say) and records what it needs of the
//    live process, changing nothing. A failure there fails the Restore
//    before any device is touched.
//  * SavedState::Restore runs after the participants registered before it
//    have restored (the device has been re-opened). It may fail; the whole
//    Restore is then retried from the first participant, so Restore never
//    consumes the saved state and may run any number of times.
//  * Objects created after the Backup and still alive at Restore keep their
//    handles and ids (their device-side contents were never saved: memory
//    reads as zero); objects destroyed after the Backup stay destroyed
//    (DESIGN.md §4.12).
//  * Describe renders the live state Save would capture, so that tests (the
//    participant conformance suite) can compare before Backup with after
//    Restore: equal text means equal state.
// Thread safety: the coordinator calls a participant from one thread at a
// time; a participant may use worker threads inside a call.
#ifndef ASCENDCL_RUNTIME_SNAPSHOT_PARTICIPANT_H_
#define ASCENDCL_RUNTIME_SNAPSHOT_PARTICIPANT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ascend::rt {

// What one participant saved of one device or of the process.
class SavedState {
 public:
  virtual ~SavedState() = default;
  // See the contract above. Prepare may run again before a retried Restore;
  // what it records of the live process the first time stays valid for
  // every retry of the same image (the process is locked meanwhile).
  virtual absl::Status Prepare() { return absl::OkStatus(); }
  virtual absl::Status Restore() const = 0;
  // Host memory this state holds for device contents (what
  // aclrtSnapShotProcessBackup saved), for reporting.
  virtual uint64_t bytes() const { return 0; }
  // Bytes this state keeps in files of an image on disk.
  virtual uint64_t disk_bytes() const { return 0; }

  // What the last Save or Restore of this state moved, for the snapshot
  // report (DESIGN.md §4.14); states that move no device contents keep the
  // default.
  struct CopyStats {
    uint64_t copied = 0;     // bytes copied between host and device
    uint64_t unchanged = 0;  // bytes skipped because nothing wrote them
    bool incremental = false;
    std::string write_tracking;  // the mechanism used, "" for none
    // Of `copied`, the bytes copied into host memory an earlier capture
    // held (an incremental Backup rewriting its base in place).
    uint64_t in_place = 0;
    // Which plan ran and why, in a sentence ("" when the participant had
    // no choice to make).
    std::string plan;
  };
  virtual CopyStats last_copy() const { return {}; }
};

class SnapshotParticipant {
 public:
  enum class Scope {
    kDevice,   // Save and Describe run once per open device
    kProcess,  // once per snapshot, with device_id = kProcessWide
  };
  static constexpr int32_t kProcessWide = -1;

  virtual ~SnapshotParticipant() = default;
  // Unique among the registered participants: [a-z0-9_.]+.
  virtual absl::string_view name() const = 0;
  virtual Scope scope() const { return Scope::kDevice; }
  virtual absl::StatusOr<std::unique_ptr<SavedState>> Save(
      int32_t device_id) = 0;
  virtual absl::StatusOr<std::string> Describe(int32_t device_id) const = 0;

  // Pre-copy (DESIGN.md §4.14): copies ahead, while the process keeps
  // running, what the next Save of `device_id` would otherwise copy in the
  // locked window; that Save then copies only what was written after this
  // began. Runs concurrently with every API call except the snapshot's own.
  // `copied` is what it moved; `host_bytes` what it holds until the next
  // Save, pre-copy or device close. Participants whose state is cheap to
  // save keep the default, which copies nothing; kUnimplemented when the
  // participant cannot copy ahead on this device.
  struct Precopied {
    SavedState::CopyStats copied;
    uint64_t host_bytes = 0;
  };
  virtual absl::StatusOr<Precopied> Precopy(int32_t device_id) {
    return Precopied{};
  }
  // Whether Save may run for several devices at once (each device's on a
  // thread of its own): participants whose per-device saves share nothing
  // but thread-safe state, and are worth running side by side (device
  // memory, DESIGN.md §4.15).
  virtual bool SavesDevicesConcurrently() const { return false; }
  // Drops what it keeps between operations (the base of the next
  // incremental Save, a pre-copy): aclFinalize.
  virtual void ReleaseKept() {}
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_SNAPSHOT_PARTICIPANT_H_
