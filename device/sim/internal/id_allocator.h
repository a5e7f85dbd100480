// Numeric resource ids of one kind on one simulated device (stream, event or
// notify ids): hands out the lowest free id in [0, limit), and lets a caller
// claim a specific id (to re-establish ids after a Reopen).
//
//   IdAllocator ids(/*limit=*/1024);
//   absl::StatusOr<uint32_t> id = ids.Allocate();   // 0, then 1, ...
//   ids.Release(*id);
//   absl::Status claimed = ids.Claim(7);            // exactly 7
//
// Free ids are kept as maximal intervals, so every operation is O(log n) in
// the number of holes. Not thread-safe: the owning device serialises calls.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_ID_ALLOCATOR_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_ID_ALLOCATOR_H_

#include <cstdint>
#include <map>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device::sim::internal {

class IdAllocator {
 public:
  explicit IdAllocator(uint32_t limit);

  IdAllocator(const IdAllocator&) = delete;
  IdAllocator& operator=(const IdAllocator&) = delete;

  // The lowest free id; kResourceExhausted when all `limit` ids are taken.
  absl::StatusOr<uint32_t> Allocate();
  // Takes exactly `id`: kAlreadyExists when taken, kInvalidArgument when
  // id >= limit.
  absl::Status Claim(uint32_t id);
  // Returns `id` to the pool; releasing a free or out-of-range id does
  // nothing.
  void Release(uint32_t id);
  // Every id free again.
  void Reset();

  bool IsTaken(uint32_t id) const;
  uint32_t limit() const { return limit_; }
  uint32_t used() const { return used_; }

 private:
  // Removes `id` from the free interval `interval` (which holds it).
  void Take(std::map<uint32_t, uint32_t>::iterator interval, uint32_t id);

  const uint32_t limit_;
  uint32_t used_ = 0;
  // Free ids as [first, last] intervals keyed by first; never adjacent.
  std::map<uint32_t, uint32_t> free_;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_ID_ALLOCATOR_H_
