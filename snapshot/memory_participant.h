// The memory participants: "allocations" puts every allocation of a device
// back at its address, and "memory" saves and restores their contents. They
// are two participants so that, on Restore, every address of every device
// is valid again before any data is copied: a copy that fails on one device
// then leaves no dangling pointer on another (an Unlock after a failed
// Restore is legal).
//
// "memory" saves only the bytes that may hold data: the backend tells which
// parts of an allocation were never written (Device::DataRanges; the
// simulator knows its untouched pages), and those read as zero and are not
// copied. The saved pieces go to one host buffer sized to them, split into
// work items of about MemoryOptions::chunk_bytes (many small allocations
// share an item) copied on worker threads. Each piece is verified as it
// moves: at Backup against the device's own checksum of what it sent; at
// Restore what landed on the device must hash to what Backup saw, which
// checks both the image and the transfer in one pass. On Restore the parts
// not saved are made zero again (Device::Discard) where they hold data.
//
// Host memory: the buffer is mapped fresh for each backup (transparent huge
// pages where the kernel has them; first touch spread over the copy
// workers) and unmapped with the image. A backup larger than the host's
// available memory fails with kResourceExhausted instead of aborting.
#ifndef ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_
#define ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "device/device.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"
#include "snapshot/image_file.h"

namespace ascend::snapshot {

struct MemoryOptions {
  // Bytes per work item (many pieces and small allocations share one).
  // snapshot_benchmark's sweep measures 64 KiB to 1 MiB within noise of
  // each other; 1 MiB keeps a work item of each worker (both sides) within
  // a many-core machine's share of the LLC.
  uint64_t chunk_bytes = uint64_t{1} << 20;
  // The largest verified piece, and the unit an incremental Backup copies
  // or carries over (DESIGN.md §4.14): small enough that scattered writes
  // cost about what they wrote. Pieces are at most chunk_bytes.
  uint64_t piece_bytes = uint64_t{64} << 10;
  // Worker threads for copies; 0 = one per core.
  int workers = 0;
};

namespace internal {
struct Layout;
struct RestorePlan;
struct RestoreSource;
struct Tracking;
}  // namespace internal

// What "memory" saved of one device. Public so tests can damage an image
// and check that Restore refuses it.
class SavedMemory final : public rt::SavedState {
 public:
  // A saved part of an allocation.
  struct Piece {
    size_t allocation = 0;  // index in allocations()
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    uint32_t buffer = 0;  // which host buffer holds it
    uint64_t offset = 0;  // in that buffer
    uint64_t checksum = 0;
  };
  struct Allocation {
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    // Its pieces, pieces()[first_piece, first_piece + piece_count).
    size_t first_piece = 0;
    size_t piece_count = 0;
  };

  SavedMemory(rt::Runtime& runtime, int32_t device_id, MemoryOptions options,
              std::shared_ptr<internal::Tracking> tracking);
  ~SavedMemory() override;

  // Plans the Restore and, before any device is touched, opens and checks
  // the image files (on disk) and reads and verifies every piece it will
  // copy (DESIGN.md §4.9, §4.10).
  absl::Status Prepare() override;
  absl::Status Restore() const override;
  // Host bytes held (every buffer a piece lies in, shared with other
  // backups of the same device where pieces carried over).
  uint64_t bytes() const override;
  // Bytes held in image files (DESIGN.md §4.15), shared likewise.
  uint64_t disk_bytes() const override;
  CopyStats last_copy() const override;

  int32_t device_id() const { return device_id_; }
  // In ascending address order.
  const std::vector<Allocation>& allocations() const;
  const std::vector<Piece>& pieces() const;
  // The saved byte of allocation `index` at `offset`, or null when that byte
  // was not saved (it read as zero) or lies in an image file.
  uint8_t* SavedByte(size_t index, uint64_t offset);
  // The image files the pieces lie in (none when in host memory).
  std::vector<internal::ImageFile*> files() const;

 private:
  friend class MemoryParticipant;
  // Saves `live` (the device's allocations, ascending). `base`: the
  // previous capture of this device, whose pieces not written since
  // (`written`, ascending) carry over; null for a full capture. With
  // `kept` (a pre-copy, running while the process does), an allocation
  // whose copy fails (freed meanwhile, or damaged in transfer) is marked
  // false there instead of failing the capture. `reserve`: a buffer faulted
  // in ahead, used (taken) when the copy fits in it. `rewrite_base`: nothing
  // but the write-tracking period holds `base` (its image was released), so
  // pieces written since may be copied again into its host buffers.
  absl::Status Capture(device::Device& device,
                       const std::vector<device::Allocation>& live,
                       const internal::Layout* base,
                       const std::vector<device::Allocation>* written,
                       std::vector<bool>* kept = nullptr,
                       std::unique_ptr<internal::HostBuffer>* reserve = nullptr,
                       bool rewrite_base = false);
  // Lays out the pieces of `live` over `data`; with a base, pieces carried
  // over from it, and pieces written since that lie in a base buffer
  // `in_place` marks copied again where they were. Returns the bytes to
  // copy into new memory; fills `copy` with every piece to copy and
  // `rewritten` with the bytes copied in place.
  uint64_t Plan(const std::vector<device::Allocation>& live,
                const std::vector<device::Allocation>& data,
                const internal::Layout* base,
                const std::vector<device::Allocation>* written,
                const std::vector<bool>* in_place, std::vector<size_t>* copy,
                uint64_t* rewritten);
  // This capture's layout (shared, not copied, when `keep` is null), or
  // restricted to the allocations `keep` marks.
  std::shared_ptr<const internal::Layout> LayoutOf(
      const std::vector<bool>* keep) const;
  // Takes `base` as this capture, unchanged: nothing was written and no
  // allocation made or freed since it (the Backup costs no work per
  // allocation).
  void AdoptUnchanged(std::shared_ptr<const internal::Layout> base);
  // What was written on `device` since this capture, when the device kept
  // its memory and its write-tracking period is this capture's (an
  // incremental Restore); nullopt otherwise.
  std::optional<std::vector<device::Allocation>> WrittenSince(
      device::Device& device) const;
  // Where the Restore reads the pieces from.
  internal::RestoreSource RestoreSourceOf() const;

  rt::Runtime& runtime_;
  const int32_t device_id_;
  const MemoryOptions options_;
  const std::shared_ptr<internal::Tracking> tracking_;
  // The write-tracking period this capture started (0: none).
  mutable uint64_t period_ = 0;
  // The allocations, their pieces and the buffers holding them; shared
  // with the write-tracking base once the capture is done (never changed
  // after).
  std::shared_ptr<internal::Layout> layout_;
  // Where the image files go (null: host memory), and the files Prepare
  // opened for the Restore that follows, by buffer.
  std::shared_ptr<internal::ImageStore> store_;
  mutable std::vector<std::unique_ptr<internal::ImageFile::Reader>> readers_;
  // The allocations alive at the first Prepare (see SavedState::Prepare).
  std::optional<std::vector<device::Allocation>> live_;
  // The last Prepare's plan, its pieces verified.
  std::unique_ptr<internal::RestorePlan> plan_;
  CopyStats saved_stats_;
  mutable CopyStats restored_stats_;
  mutable bool restored_ = false;
};

std::unique_ptr<rt::SnapshotParticipant> MakeAllocationsParticipant(
    rt::Runtime& runtime);
std::unique_ptr<rt::SnapshotParticipant> MakeMemoryParticipant(
    rt::Runtime& runtime, const MemoryOptions& options);

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_MEMORY_PARTICIPANT_H_
