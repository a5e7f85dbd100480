// The Restore side of the memory participant (DESIGN.md §4.9, §4.10, §4.14):
// what a Restore of one device's saved memory copies back and what it makes
// zero again, decided from the saved layout, the allocations alive now and
// (incremental Restore) what was written since the capture.
//
//   RestorePlan plan = PlanRestore(saved.allocations(), saved.pieces(),
//                                  live, written);   // nothing touched
//   ... verify the pieces plan.copy names (their sources) ...
//   ClearGaps(device, plan.gaps);  ... copy plan.copy ...
#ifndef ASCENDCL_SNAPSHOT_MEMORY_RESTORE_H_
#define ASCENDCL_SNAPSHOT_MEMORY_RESTORE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "snapshot/host_copy.h"
#include "snapshot/image_file.h"
#include "snapshot/memory_participant.h"

namespace ascend::snapshot::internal {

struct RestorePlan {
  // Per saved allocation: still alive as it was saved (same address and
  // size); the others are not restored.
  std::vector<bool> keep;
  // Incremental: what was written since the capture, when the device kept
  // its memory and tracks writes; then only pieces it touches are copied.
  std::optional<std::vector<device::Allocation>> written;
  // Ranges of live allocations that must read as zero and may not: the
  // parts saved as zero (written since, when incremental) and allocations
  // made since. Ascending.
  std::vector<device::Allocation> gaps;
  // The pieces to copy back (indices into the saved pieces, ascending).
  std::vector<size_t> copy;
  uint64_t copied_bytes = 0;
  // Bytes of kept pieces left as they are (incremental).
  uint64_t unchanged_bytes = 0;
};

// Plans the Restore of `allocations` / `pieces` (a capture's, ascending) onto
// the `live` allocations (ascending). `written`: the ranges written since the
// capture, for an incremental Restore; null for a full one.
RestorePlan PlanRestore(const std::vector<SavedMemory::Allocation>& allocations,
                        const std::vector<SavedMemory::Piece>& pieces,
                        const std::vector<device::Allocation>& live,
                        const std::vector<device::Allocation>* written);

// The indices of `wider` that `narrower` lacks (both ascending).
std::vector<size_t> Missing(const std::vector<size_t>& wider,
                            const std::vector<size_t>& narrower);

// Where a Restore of one device reads its pieces from: the capture's
// buffers and, for those that are image files, their open readers.
struct RestoreSource {
  int32_t device_id = 0;
  const std::vector<SavedMemory::Piece>* pieces = nullptr;
  const std::vector<std::shared_ptr<Extent>>* buffers = nullptr;
  const std::vector<std::unique_ptr<ImageFile::Reader>>* readers = nullptr;
  StagingPool* pool = nullptr;  // null: no image on disk
  MemoryOptions options;
};

// Reads the pieces `copy` names and checks each against its checksum,
// touching no device: kDataLoss for a damaged one (DESIGN.md §4.10).
absl::Status VerifySources(const RestoreSource& source,
                           const std::vector<size_t>& copy);

// Copies the pieces `copy` names to `device`, each verified as it lands
// (a transfer that goes wrong is copied again).
absl::Status CopyToDevice(const RestoreSource& source,
                          const std::vector<size_t>& copy,
                          device::Device& device);

// Makes the plan's gaps read as zero where the device says they may hold
// data.
absl::Status ClearGaps(device::Device& device,
                       const std::vector<device::Allocation>& gaps);

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_MEMORY_RESTORE_H_
