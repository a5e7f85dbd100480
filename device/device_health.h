// The device interface, health and faults (see device.h for the whole
// interface): the faults a backend can simulate, uncorrectable memory errors,
// and the events a device reports asynchronously.
#ifndef ASCENDCL_DEVICE_DEVICE_HEALTH_H_
#define ASCENDCL_DEVICE_DEVICE_HEALTH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device/device_memory.h"

namespace ascend::device {

// Faults a backend can simulate (only `sim` implements them).
enum class Fault : int {
  kMemoryLoss = 0,        // every allocation's contents read as zero
  kNextCopyFails = 1,     // the next copy on the device returns kDataLoss
  kNextCopyCorrupts = 2,  // the next copy on the device flips one byte
  // A range of device memory is hit by an uncorrectable error (UCE): reads
  // of it fail until it is repaired. Needs a range: Backend::InjectRangeFault.
  kMemoryError = 3,
};

// The payload that tells a read of a range with an uncorrectable memory error
// (Fault::kMemoryError) from other failed copies.
inline constexpr absl::string_view kMemoryErrorPayload =
    "ascend.device/memory-error";

inline absl::Status MemoryErrorStatus(absl::string_view message) {
  absl::Status status = absl::DataLossError(message);
  status.SetPayload(kMemoryErrorPayload, absl::Cord("1"));
  return status;
}

inline bool IsMemoryError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kDataLoss &&
         status.GetPayload(kMemoryErrorPayload).has_value();
}

// Something the device reports asynchronously (read by the runtime's health
// monitor thread).
struct HealthEvent {
  int32_t device_id = -1;
  std::string description;
  bool device_abnormal = false;  // true until the next Reopen
  // When the condition arose: an event older than the device's current
  // opening describes an earlier one (the device was reset since).
  absl::Time raised = absl::InfinitePast();
};

// Uncorrectable memory errors (Fault::kMemoryError) of an open device
// (Device); faults are injected and health events read through the Backend.
class HealthOps {
 public:
  virtual ~HealthOps() = default;

  // The ranges of this opening hit by an uncorrectable error and not yet
  // repaired, ascending. kUnimplemented where the backend cannot tell.
  virtual absl::StatusOr<std::vector<Allocation>> MemoryErrors() const {
    return absl::UnimplementedError(
        "this backend does not report memory errors");
  }
  // Repairs every error range overlapping [addr, addr + size): the range
  // reads again, its contents lost (zero). kNotFound when none overlaps.
  virtual absl::Status RepairMemoryErrors(DeviceAddr addr, uint64_t size) {
    return absl::UnimplementedError("this backend cannot repair memory errors");
  }
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_HEALTH_H_
