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

// Makes the plan's gaps read as zero where the device says they may hold
// data.
absl::Status ClearGaps(device::Device& device,
                       const std::vector<device::Allocation>& gaps);

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_MEMORY_RESTORE_H_
