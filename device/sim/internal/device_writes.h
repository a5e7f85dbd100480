// Which bytes of one simulated device's memory were written since a point in
// time (DESIGN.md §4.14), whoever wrote them:
//  * anything writing through the device's memory window or a mapping of
//    its virtual address window (kernels on the simulated cores, host code,
//    the device's own copies) is seen by the page tables (WriteTracker);
//  * what changes memory without writing through them (a free, a discard,
//    a mapping about to go away) is noted by the device (Note);
//  * memory handed to another process is written by that process through
//    its own page tables: it counts as written, always (NoteExported).
//
//   DeviceWrites writes(memory_base, memory_size);
//   RETURN_IF_ERROR(writes.Start(ranges, va_mappings));   // a new period
//   ... kernels, copies, frees ...
//   ASSIGN_OR_RETURN(auto written, writes.Written(va_mappings));
//
// Thread safety: every method may be called from any thread. Start and
// Written must not race with writers if their answer is to be exact (a
// snapshot calls them with every stream drained).
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_WRITES_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_WRITES_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/base/mutex.h"
#include "device/sim/internal/write_tracker.h"

namespace ascend::device::sim::internal {

class DeviceWrites {
 public:
  // [begin, end) of device memory.
  struct Range {
    uint64_t begin = 0;
    uint64_t end = 0;
    friend bool operator==(const Range& a, const Range& b) {
      return a.begin == b.begin && a.end == b.end;
    }
  };
  // A mapping of the virtual address window: `size` bytes at `va` show the
  // device memory at `memory`.
  struct VaMapping {
    uint64_t va = 0;
    uint64_t size = 0;
    uint64_t memory = 0;
  };

  // Tracks the memory window [base, base + size).
  DeviceWrites(uint64_t base, uint64_t size);
  DeviceWrites(const DeviceWrites&) = delete;
  DeviceWrites& operator=(const DeviceWrites&) = delete;
  ~DeviceWrites();

  // Starts a new period over `ranges` (ascending, disjoint, inside the
  // window), with `mappings` the virtual address mappings of device memory
  // alive now. kUnavailable when this process cannot track writes (said
  // once in the log); nothing is tracked then.
  absl::Status Start(const std::vector<Range>& ranges,
                     const std::vector<VaMapping>& mappings);
  // The parts of the period's ranges written since Start, ascending and
  // disjoint, page-granular; `mappings` as alive now. A second call reports
  // at least as much as the first. kFailedPrecondition without a period.
  absl::StatusOr<std::vector<Range>> Written(
      const std::vector<VaMapping>& mappings);

  // Written and Start in one step that writers running meanwhile (kernels,
  // peers) cannot fall between: what the ending period saw written,
  // including what was written while the new period started; every write
  // after is in the new one. What mappings of the virtual address window
  // show counts as written in the new period as well. kFailedPrecondition
  // without a period.
  absl::StatusOr<std::vector<Range>> Restart(
      const std::vector<Range>& ranges, const std::vector<VaMapping>& mappings);

  // Whether a period runs (a relaxed read: writers that record what they
  // write check it before each write).
  bool active() const { return active_.load(std::memory_order_relaxed); }
  // Whether writes through the memory window take a write-tracking fault
  // now (a period runs and no LoseAll since): writers that can avoid the
  // window avoid it then.
  bool window_armed() const {
    return window_armed_.load(std::memory_order_relaxed);
  }

  // The device changed [addr, addr + size) without writing through its
  // page tables (a free, a discard, a write through another mapping).
  // Cheap when no period runs.
  void Note(uint64_t addr, uint64_t size);
  // Every tracked byte counts as written (a memory loss).
  void NoteAll();
  // NoteAll, and the memory window stops being tracked until the next
  // Start, so that rewriting all of it (a memory loss repopulating it, a
  // Restore refilling it) takes no write-tracking faults.
  void LoseAll();
  // [addr, addr + size) was handed to another process: it counts as
  // written in every period from now on.
  void NoteExported(uint64_t addr, uint64_t size);
  // A mapping of the virtual address window was made, or is about to be
  // dropped: the writes through it are kept.
  void MappingAdded(const VaMapping& mapping);
  void MappingRemoving(const VaMapping& mapping);

  // WriteTracker::kName.
  static const char* Name() { return WriteTracker::kName; }

 private:
  absl::Status EnsureTracker() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Start; with `rearmed_written`, the pages its re-arming scan found
  // written are appended there.
  absl::Status StartLocked(const std::vector<Range>& ranges,
                           const std::vector<VaMapping>& mappings,
                           std::vector<Range>* rearmed_written)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<std::vector<Range>> WrittenLocked(
      const std::vector<VaMapping>& mappings)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds what was written through `mapping` to noted_.
  void CollectMapping(const VaMapping& mapping)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const uint64_t base_;
  const uint64_t size_;
  // Whether a period runs: the cheap test of Note.
  std::atomic<bool> active_{false};
  std::atomic<bool> window_armed_{false};

  Mutex mu_;
  std::unique_ptr<WriteTracker> tracker_ ABSL_GUARDED_BY(mu_);
  bool unavailable_ ABSL_GUARDED_BY(mu_) = false;
  bool window_registered_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<Range> tracked_ ABSL_GUARDED_BY(mu_);
  std::vector<Range> noted_ ABSL_GUARDED_BY(mu_);
  std::vector<Range> exported_ ABSL_GUARDED_BY(mu_);
  bool all_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_WRITES_H_
