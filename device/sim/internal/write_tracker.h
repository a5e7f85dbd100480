// Which pages of a process's own mappings were written since a point in
// time, whoever wrote them (a simulated kernel, host code, a copy), with
// userfaultfd write-protection in asynchronous mode and the PAGEMAP_SCAN
// ioctl (DESIGN.md §4.14). No signal handler and no thread: a write to an
// armed page is resolved by the kernel, which marks the page written; a
// scan reports the written pages and arms them again in one call.
//
//   ASSIGN_OR_RETURN(auto tracker, WriteTracker::Create());
//   RETURN_IF_ERROR(tracker->Register(base, size));     // armed
//   ... anything writes ...
//   ASSIGN_OR_RETURN(auto written, tracker->Collect(base, size,
//   /*rearm=*/true));
//
// A range must be registered again after the mapping under it is replaced
// (mmap MAP_FIXED drops the registration with the old mapping). Pages never
// touched are tracked too (UFFD_FEATURE_WP_UNPOPULATED): the first write to
// them counts. Writes through another mapping of the same memory (another
// address, another process) are not seen: they do not touch these page
// tables.
//
// Cost (DESIGN.md §4.14): the first write to each armed page takes a fault in
// the kernel (about 18 us on a VM); a writer that knows its range avoids it
// by writing through another mapping of the same file and recording the
// range itself.
//
// Thread safety: every method may be called from any thread; Collect and
// Arm of overlapping ranges race only in what they report.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_WRITE_TRACKER_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_WRITE_TRACKER_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device::sim::internal {

class WriteTracker {
 public:
  // The mechanism's name, for logs and reports.
  static constexpr const char* kName = "userfaultfd-wp-async+pagemap-scan";

  // kUnavailable when this kernel or this process cannot track writes
  // (userfaultfd refused, asynchronous write-protection or PAGEMAP_SCAN
  // missing), with the reason.
  static absl::StatusOr<std::unique_ptr<WriteTracker>> Create();

  WriteTracker(const WriteTracker&) = delete;
  WriteTracker& operator=(const WriteTracker&) = delete;
  ~WriteTracker();

  // Starts tracking [addr, addr + size) (page-aligned, mapped, private
  // anonymous or shared memory), armed: every page counts as unwritten.
  // With `arm` false only registers it: its pages count as written until
  // armed (so a large window can be registered without the cost of arming
  // pages no one asks about).
  absl::Status Register(uint64_t addr, uint64_t size, bool arm = true);
  // Stops tracking it (before the caller unmaps it, or to re-register after
  // a remap). Unregistering a range that is not registered is no error.
  absl::Status Unregister(uint64_t addr, uint64_t size);

  // Arms [addr, addr + size) (registered): its pages count as unwritten
  // until written again.
  absl::Status Arm(uint64_t addr, uint64_t size);
  // Disarms it: its pages count as written from now on (the kernel's
  // "written" is "not write-protected") until a Collect with `rearm`
  // reports them and arms them again. Writes there still take one fault
  // per page, until the page table is made writable again.
  absl::Status Disarm(uint64_t addr, uint64_t size);

  // The pages of [addr, addr + size) written since they were last armed, as
  // page-aligned [begin, end) ranges in ascending order, adjacent pages
  // merged. `rearm`: those pages are armed again in the same step, so a
  // write after the scan is reported by the next one.
  absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>> Collect(
      uint64_t addr, uint64_t size, bool rearm);

 private:
  WriteTracker(int uffd, int pagemap);
  absl::Status Protect(uint64_t addr, uint64_t size, bool armed);

  const int uffd_;
  const int pagemap_;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_WRITE_TRACKER_H_
