// The memory participants: "allocations" puts every allocation of a device
// back at its address (zero-filled), and "memory" saves and restores their
// contents. They are two participants so that, on Restore, every address of
// every device is valid again before any data is copied: a copy that fails
// on one device then leaves no dangling pointer on another (an Unlock after
// a failed Restore is legal).
//
// "memory" copies each allocation in chunks of MemoryOptions::chunk_bytes on
// worker threads. Each chunk is verified as it moves: at Backup against the
// device's own checksum of what it sent (computed while it copies, where the
// backend can); at Restore what landed on the device must hash to what
// Backup saw, which checks both the image and the transfer in one pass.
// Buffers of a replaced backup are reused by the next one of the same device
// where sizes match.
#ifndef ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_
#define ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "device/device.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"

namespace ascend::snapshot {

struct MemoryOptions {
  // Bytes per verified copy chunk (one checksum each in the image).
  // snapshot_benchmark's sweep measures 64 KiB to 1 MiB within noise of each
  // other now that copies are verified in cache; 1 MiB keeps the per-chunk
  // overhead and the checksum list small, and a chunk of each worker (both
  // sides) within a many-core machine's share of the LLC.
  uint64_t chunk_bytes = uint64_t{1} << 20;
  // Worker threads for copies; 0 = one per core.
  int workers = 0;
};

namespace internal {
class BufferPool;
}  // namespace internal

// What "memory" saved of one device. Public so tests can damage an image
// and check that Restore refuses it.
class SavedMemory final : public rt::SavedState {
 public:
  struct Allocation {
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    std::vector<uint64_t> chunk_checksums;
    std::unique_ptr<uint8_t[]> bytes;
  };

  SavedMemory(rt::Runtime& runtime, int32_t device_id, MemoryOptions options,
              std::shared_ptr<internal::BufferPool> pool);
  // Hands the buffers to the pool for the device's next backup.
  ~SavedMemory() override;

  absl::Status Restore() const override;
  uint64_t bytes() const override;

  int32_t device_id() const { return device_id_; }
  // In ascending address order.
  std::vector<Allocation>& allocations() { return allocations_; }
  const std::vector<Allocation>& allocations() const { return allocations_; }

 private:
  friend class MemoryParticipant;
  absl::Status Capture(device::Device& device);

  rt::Runtime& runtime_;
  const int32_t device_id_;
  const MemoryOptions options_;
  const std::shared_ptr<internal::BufferPool> pool_;
  std::vector<Allocation> allocations_;
};

std::unique_ptr<rt::SnapshotParticipant> MakeAllocationsParticipant(
    rt::Runtime& runtime);
std::unique_ptr<rt::SnapshotParticipant> MakeMemoryParticipant(
    rt::Runtime& runtime, const MemoryOptions& options);

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_
