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
// Backup drains every stream, then copies every live allocation of every open
// device to host memory in parallel chunks, each chunk verified against the
// device's own checksum of what it sent (computed as it copies, where the
// backend can), and saves the resource tables (stream/event/notify
// ids and state). Restore re-opens each device, re-claims the same ids, puts
// every allocation back at its address and verifies both the backup image
// and the copy. A failed Backup keeps the previous backup and the state
// LOCKED; a failed Restore keeps the backup and the state BACKED_UP, so it
// can be retried (CONTRACT items 17, 18).
//
// Snapshot operations are serialised. A snapshot call made from inside a
// stage callback returns its operation's failure code instead of
// deadlocking (CONTRACT item 21). GetState never blocks.
#ifndef ASCENDCL_SNAPSHOT_COORDINATOR_H_
#define ASCENDCL_SNAPSHOT_COORDINATOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "device/base/mutex.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "runtime/runtime.h"
#include "snapshot/callback_registry.h"

namespace ascend::snapshot {

// What a Backup saved.
struct SavedAllocation {
  device::DeviceAddr addr = 0;
  uint64_t size = 0;
  std::vector<uint64_t> chunk_checksums;
  std::unique_ptr<uint8_t[]> bytes;
};
struct DeviceImage {
  int32_t device_id = 0;
  std::vector<SavedAllocation> allocations;
  rt::ResourceTables tables;
};
struct BackupImage {
  std::vector<DeviceImage> devices;
  uint64_t total_bytes() const;
};

class Coordinator {
 public:
  struct Options {
    // Bytes per verified copy chunk (one checksum each in the image).
    // snapshot_benchmark's sweep measures 64 KiB to 1 MiB within noise of
    // each other now that copies are verified in cache; 1 MiB keeps the
    // per-chunk overhead and the checksum list small, and a chunk of each
    // worker (both sides) within a many-core machine's share of the LLC.
    uint64_t chunk_bytes = uint64_t{1} << 20;
    // Worker threads for copies; 0 = one per core.
    int workers = 0;
    // Test seam: runs after a successful backup, before BACKUP_POST (e.g.
    // to damage the image and check that Restore refuses it).
    std::function<void(BackupImage&)> after_backup;
  };

  Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
              CallbackRegistry& callbacks, Options options);
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  // The process coordinator (never destroyed) over Runtime::Get() and
  // GlobalState::Get().
  static Coordinator& Get();

  absl::Status Lock();
  absl::Status Unlock();
  absl::Status Backup();
  absl::Status Restore();
  rt::ProcessState GetState() const { return state_.state(); }
  absl::Status RegisterCallback(int32_t stage, rtSnapShotCallBack callback,
                                void* args);
  absl::Status UnregisterCallback(int32_t stage, rtSnapShotCallBack callback);

  // Size of the current backup (0 when none).
  uint64_t backup_bytes() const;

 private:
  absl::Status InvokeStage(int32_t stage) ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::StatusOr<std::unique_ptr<BackupImage>> TakeBackup(
      const std::vector<int32_t>& devices)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::Status BackupDevice(int32_t device_id, DeviceImage& image)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::Status RestoreImage(const BackupImage& image)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  // Hands the health events the backend queued while the process was locked
  // to the runtime, before Restore replaces the device state they describe.
  void ConsumeStaleHealthEvents() ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  absl::Status RestoreDeviceMemory(const DeviceImage& image)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  std::unique_ptr<uint8_t[]> TakeBuffer(uint64_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(op_mu_);
  // Runs fn(i) for i in [0, n) on the worker threads; the first error wins
  // and stops the rest.
  absl::Status ParallelFor(size_t n,
                           const std::function<absl::Status(size_t)>& fn);

  rt::Runtime& runtime_;
  rt::GlobalState& state_;
  CallbackRegistry& callbacks_;
  const Options options_;

  mutable ascend::Mutex op_mu_;
  std::unique_ptr<BackupImage> backup_ ABSL_GUARDED_BY(op_mu_);
  // Buffers of replaced backups, reused by size so a repeated backup does not
  // fault in fresh host pages every time.
  absl::flat_hash_map<uint64_t, std::vector<std::unique_ptr<uint8_t[]>>> spare_
      ABSL_GUARDED_BY(op_mu_);
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_COORDINATOR_H_
