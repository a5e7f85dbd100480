// Address bookkeeping for one simulated device: which parts of the device's
// address range [base, base + capacity) are allocated, free, or reserved.
//
//   RangeAllocator ranges(base, capacity);
//   absl::StatusOr<uint64_t> addr = ranges.Allocate(4096, 512);
//   ranges.ReserveAll();               // Reopen: allocations become reserved
//   ranges.AllocateAt(*addr, 4096);    // ... and can be put back exactly
//
// Policy:
//  * Sizes are rounded up to kGranularity (512 B, the allocation granularity
//    of Ascend devices) and every block starts on a kGranularity boundary, so
//    the effective alignment is max(alignment, 512).
//  * Allocate is best-fit over the free segments (smallest segment that fits,
//    lowest address among equals); freed blocks coalesce with free
//    neighbours, so fragmentation only comes from live blocks.
//  * Reserved segments (allocations dropped by ReserveAll) are never handed
//    out by Allocate and do not count as free; AllocateAt may take any range
//    that is entirely free or reserved. They stay reserved until taken back or
//    Reset.
//
// Not thread-safe: the owning device serialises calls.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_RANGE_ALLOCATOR_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_RANGE_ALLOCATOR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device::sim::internal {

class RangeAllocator {
 public:
  static constexpr uint64_t kGranularity = 512;

  struct Block {
    uint64_t addr = 0;
    uint64_t size = 0;    // as requested
    uint64_t extent = 0;  // size rounded up to kGranularity: what it occupies
  };

  // `base` and `capacity` must be multiples of kGranularity and
  // base + capacity must not overflow.
  RangeAllocator(uint64_t base, uint64_t capacity);

  RangeAllocator(const RangeAllocator&) = delete;
  RangeAllocator& operator=(const RangeAllocator&) = delete;

  // Where Allocate(size, alignment) would place a block, without placing it.
  // kInvalidArgument: size 0 or alignment not a power of two;
  // kResourceExhausted: no free segment fits.
  absl::StatusOr<uint64_t> FindFit(uint64_t size, uint64_t alignment) const;
  // Checks that AllocateAt(addr, size) would succeed. kInvalidArgument: size 0,
  // `addr` not a multiple of kGranularity, or the range leaves the device;
  // kAlreadyExists: part of the range is allocated.
  absl::Status CheckAllocateAt(uint64_t addr, uint64_t size) const;

  absl::StatusOr<uint64_t> Allocate(uint64_t size, uint64_t alignment);
  absl::Status AllocateAt(uint64_t addr, uint64_t size);
  // Frees the block starting exactly at `addr` (kInvalidArgument otherwise)
  // and returns it.
  absl::StatusOr<Block> Free(uint64_t addr);

  // The live block whose requested range [addr, addr + size) holds `addr`.
  std::optional<Block> Find(uint64_t addr) const;
  // Every live block in ascending address order.
  std::vector<Block> Blocks() const;

  // Turns every live block into a reserved segment.
  void ReserveAll();
  // Forgets every block and reservation: the whole range is free.
  void Reset();

  // Changes with every block placed or freed, ReserveAll and Reset; never
  // the same value in two allocators of a process (so a value seen once
  // identifies these blocks exactly).
  uint64_t version() const { return version_; }
  uint64_t base() const { return base_; }
  uint64_t capacity() const { return capacity_; }
  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t reserved_bytes() const { return reserved_bytes_; }
  uint64_t allocated_bytes() const {
    return capacity_ - free_bytes_ - reserved_bytes_;
  }
  // Number of maximal free / reserved segments (for tests of coalescing).
  size_t free_segment_count() const { return free_by_size_.size(); }
  size_t segment_count() const { return segments_.size(); }

 private:
  struct Segment {
    uint64_t size = 0;
    bool reserved = false;
  };

  // Inserts an unallocated segment, merging it with adjacent segments of the
  // same kind.
  void InsertSegment(uint64_t addr, uint64_t size, bool reserved);
  void EraseSegment(std::map<uint64_t, Segment>::iterator it);
  void AddSegment(uint64_t addr, uint64_t size, bool reserved);
  // A version no allocator of this process had.
  static uint64_t NextVersion();

  const uint64_t base_;
  const uint64_t capacity_;
  uint64_t free_bytes_ = 0;
  uint64_t reserved_bytes_ = 0;
  // Unallocated segments by start address; adjacent segments of the same
  // kind are always merged.
  std::map<uint64_t, Segment> segments_;
  // The free (not reserved) segments as (size, addr), for best-fit.
  std::set<std::pair<uint64_t, uint64_t>> free_by_size_;
  // Live blocks by start address.
  std::map<uint64_t, Block> blocks_;
  uint64_t version_ = NextVersion();
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_RANGE_ALLOCATOR_H_
