// Host-side tables of the numeric resource ids (streams, events, notifies) an
// npu device hands out.
//
// The real driver allocates these ids itself (halResourceIdAlloc and friends),
// but those calls are outside the driver subset this backend uses, so the
// backend keeps one table per kind on the host: lowest free id first, exact
// claims after a re-open, everything dropped on Reopen. Not thread-safe: the
// owning device serialises access.
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_ID_TABLE_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_ID_TABLE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device::npu::internal {

class IdTable {
 public:
  // Ids are in [0, capacity).
  explicit IdTable(uint32_t capacity);

  // The lowest free id; kResourceExhausted when all are taken.
  absl::StatusOr<uint32_t> Allocate();
  // Takes exactly `id`: kAlreadyExists when taken, kInvalidArgument when
  // outside [0, capacity).
  absl::Status Claim(uint32_t id);
  // Frees `id`; unknown ids are ignored.
  void Release(uint32_t id);
  void Clear();

 private:
  std::vector<bool> used_;
  uint32_t in_use_ = 0;
  uint32_t lowest_maybe_free_ = 0;
};

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_ID_TABLE_H_
