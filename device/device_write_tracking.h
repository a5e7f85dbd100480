// The device interface, write tracking (see device.h for the whole
// interface): which device bytes were written since a point in time, for the
// incremental snapshot (DESIGN.md §4.14).
#ifndef ASCENDCL_DEVICE_DEVICE_WRITE_TRACKING_H_
#define ASCENDCL_DEVICE_DEVICE_WRITE_TRACKING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device_memory.h"

namespace ascend::device {

// Write tracking (Device). A device that cannot track keeps the defaults.
class WriteTrackingOps {
 public:
  virtual ~WriteTrackingOps() = default;

  // The mechanism that tells which device bytes were written, whoever wrote
  // them, or "" when this device cannot tell (every Backup is then full).
  virtual std::string WriteTracking() const { return {}; }
  // Starts a new tracking period over `ranges` (ascending, disjoint, inside
  // live allocations of the memory window): from now on WrittenRanges
  // reports the parts of them written after this call. kUnimplemented or
  // kUnavailable when the device cannot track (then nothing is tracked).
  virtual absl::Status TrackWrites(const std::vector<Allocation>& ranges) {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // The parts of the ranges of the last TrackWrites written since, whoever
  // wrote them (copies, kernels, host code, another process through shared
  // memory, a free, a memory loss), ascending and disjoint; may err towards
  // more. Reading does not start a new period: a second call reports at
  // least as much. kFailedPrecondition when no period is running.
  virtual absl::StatusOr<std::vector<Allocation>> WrittenRanges() {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // WrittenRanges and TrackWrites(ranges) in one step that writers running
  // meanwhile (kernels, host code, peers) cannot fall between: returns what
  // the ending period saw written, including what was written while the new
  // one started, and every later write is in the new period (a pre-copy
  // runs while the process does). May err towards more. kFailedPrecondition
  // when no period is running.
  virtual absl::StatusOr<std::vector<Allocation>> RestartWriteTracking(
      const std::vector<Allocation>& ranges) {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // Where a kernel running on this device writes the `size` bytes at `dst`
  // (a device address as the kernel sees it): a pointer that shows the same
  // bytes, whose writes are recorded as writes to that range without a
  // write-tracking fault per page; `dst` itself when nothing is tracked or
  // the range is not this device's plain memory. Any thread, while the
  // kernel runs.
  virtual void* KernelWriteTarget(void* dst, uint64_t size) { return dst; }
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_WRITE_TRACKING_H_
