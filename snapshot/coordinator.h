// The process snapshot coordinator: runs Lock, Backup, Restore and Unlock with
// their stage callbacks, over the runtime and the global process state.
//
//   Coordinator& c = Coordinator::Get();
//   ASCEND_RETURN_IF_ERROR(c.Lock());      // RUNNING -> LOCKED
//   ASCEND_RETURN_IF_ERROR(c.Backup());    // LOCKED -> BACKED_UP
//   ...device memory lost...
//   ASCEND_RETURN_IF_ERROR(c.Restore());   // BACKED_UP -> LOCKED
//   ASCEND_RETURN_IF_ERROR(c.Unlock());    // -> RUNNING
//
// What is saved and restored is the business of the snapshot participants
// (runtime/snapshot_participant.h), registered at construction in restore
// order (snapshot/builtin_participants.h): Backup drains every stream, then
// saves with every participant into a BackupImage (snapshot/backup_image.h);
// Restore hands the stale health events to the runtime, restores the image
// participant by participant, and marks the restored devices healthy. The
// coordinator knows no resource kind. A failed Backup keeps the previous
// backup and the state LOCKED; a failed Restore keeps the backup and the
// state BACKED_UP, so it can be retried (DESIGN.md §4.8, §4.9).
//
// Snapshot operations are serialised. A snapshot call made from inside a
// stage callback returns its operation's failure code instead of
// deadlocking (DESIGN.md §4.7). GetState never blocks.
#ifndef ASCENDCL_SNAPSHOT_COORDINATOR_H_
#define ASCENDCL_SNAPSHOT_COORDINATOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "device/base/mutex.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "runtime/runtime.h"
#include "snapshot/backup_image.h"
#include "snapshot/callback_registry.h"
#include "snapshot/memory_participant.h"
#include "snapshot/participant_registry.h"
#include "snapshot/report.h"

namespace ascend::snapshot {

class Coordinator {
 public:
  struct Options {
    // Bytes per verified copy chunk and copy workers of the memory
    // participant (see MemoryOptions).
    uint64_t chunk_bytes = MemoryOptions{}.chunk_bytes;
    int workers = MemoryOptions{}.workers;
    // Test seam: runs after a successful backup, before BACKUP_POST (e.g.
    // to damage the image and check that Restore refuses it).
    std::function<void(BackupImage&)> after_backup;
  };

  // Registers the built-in participants over `runtime`.
  Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
              CallbackRegistry& callbacks, Options options);
  // With the participants of `participants` instead (tests).
  Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
              CallbackRegistry& callbacks,
              std::unique_ptr<ParticipantRegistry> participants,
              Options options);
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;
  ~Coordinator();

  // The process coordinator (never destroyed) over Runtime::Get() and
  // GlobalState::Get().
  static Coordinator& Get();

  // aclFinalize: releases what participants keep for the next backup (a
  // pre-copy, an incremental base), and with them their image files on
  // disk (DESIGN.md §4.15). A backup still held (the process is locked or
  // backed up) stays: Restore works after aclFinalize; Unlock releases it.
  void ReleaseAtFinalize();

  absl::Status Lock();
  absl::Status Unlock();
  absl::Status Backup();
  absl::Status Restore();
  // ascendclSnapshotPrecopy (DESIGN.md §4.14): in state RUNNING, copies
  // device memory ahead into the base of the next Backup while the process
  // runs on.
  absl::Status Precopy();
  rt::ProcessState GetState() const { return state_.state(); }
  absl::Status RegisterCallback(int32_t stage, rtSnapShotCallBack callback,
                                void* args);
  absl::Status UnregisterCallback(int32_t stage, rtSnapShotCallBack callback);

  // Host bytes the current backup holds (0 when none). A backup is released
  // as soon as no Restore can use it: at Unlock, and when a device it holds
  // is closed (reset).
  uint64_t backup_bytes() const;

  // What the last successful Backup, Restore or pre-copy did (operation
  // "none" before the first): ascendclSnapshotGetReport's answer (DESIGN.md
  // §4.14).
  SnapshotReport LastReport() const;

 private:
  absl::Status InvokeStage(int32_t stage) ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::StatusOr<std::unique_ptr<BackupImage>> TakeBackup(
      const std::vector<int32_t>& devices)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::Status RestoreImage(BackupImage& image)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  // Hands the health events the backend queued while the process was locked
  // to the runtime, before Restore replaces the device state they describe.
  void ConsumeStaleHealthEvents() ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);

  rt::Runtime& runtime_;
  rt::GlobalState& state_;
  CallbackRegistry& callbacks_;
  const Options options_;
  const std::unique_ptr<ParticipantRegistry> participants_;

  // Drops the backup (outside image_mu_) and says why a Restore now fails.
  void ReleaseBackup(std::string reason);

  mutable ascend::Mutex op_mu_ ABSL_ACQUIRED_BEFORE(image_mu_);
  // Separate from op_mu_ so that a device close observed in the middle of
  // an operation (a reset from a stage callback) can release the backup.
  // A Restore keeps its own reference while it runs.
  mutable ascend::Mutex image_mu_;
  std::shared_ptr<BackupImage> backup_ ABSL_GUARDED_BY(image_mu_);
  std::string released_because_ ABSL_GUARDED_BY(image_mu_);
  SnapshotReport report_ ABSL_GUARDED_BY(image_mu_);
  uint64_t close_observer_ = 0;
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_COORDINATOR_H_
