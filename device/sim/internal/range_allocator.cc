#include "device/sim/internal/range_allocator.h"

#include <atomic>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace ascend::device::sim::internal {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// `v` rounded up to a multiple of the power of two `align`; nullopt on
// overflow.
std::optional<uint64_t> RoundUp(uint64_t v, uint64_t align) {
  const uint64_t mask = align - 1;
  if (v > kMax - mask) return std::nullopt;
  return (v + mask) & ~mask;
}

}  // namespace

RangeAllocator::RangeAllocator(uint64_t base, uint64_t capacity)
    : base_(base), capacity_(capacity) {
  Reset();
}

absl::StatusOr<uint64_t> RangeAllocator::FindFit(uint64_t size,
                                                 uint64_t alignment) const {
  if (size == 0) {
    return absl::InvalidArgumentError("allocation size must not be 0");
  }
  if (!IsPowerOfTwo(alignment)) {
    return absl::InvalidArgumentError(
        absl::StrCat("alignment ", alignment, " is not a power of two"));
  }
  const std::optional<uint64_t> extent = RoundUp(size, kGranularity);
  if (!extent.has_value() || *extent > free_bytes_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("out of device memory: ", size, " bytes requested, ",
                     free_bytes_, " free"));
  }
  const uint64_t align = alignment > kGranularity ? alignment : kGranularity;
  for (auto it = free_by_size_.lower_bound({*extent, 0});
       it != free_by_size_.end(); ++it) {
    const auto [segment_size, segment_addr] = *it;
    const std::optional<uint64_t> aligned = RoundUp(segment_addr, align);
    if (aligned.has_value() && *aligned - segment_addr <= segment_size &&
        segment_size - (*aligned - segment_addr) >= *extent) {
      return *aligned;
    }
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "out of device memory: no free range of ", size, " bytes aligned to ",
      align, " (", free_bytes_, " bytes free, fragmented)"));
}

absl::Status RangeAllocator::CheckAllocateAt(uint64_t addr,
                                             uint64_t size) const {
  if (size == 0) {
    return absl::InvalidArgumentError("allocation size must not be 0");
  }
  if (addr % kGranularity != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "address 0x", absl::Hex(addr), " is not a multiple of ", kGranularity));
  }
  if (addr < base_ || addr - base_ >= capacity_ ||
      size > capacity_ - (addr - base_)) {
    return absl::InvalidArgumentError(
        absl::StrCat("range [0x", absl::Hex(addr), ", +", size,
                     ") is not inside the device's address range"));
  }
  // base_ + capacity_ is a multiple of kGranularity, so the rounded extent
  // stays inside the device too.
  const uint64_t end = addr + *RoundUp(size, kGranularity);
  auto it = segments_.upper_bound(addr);
  if (it == segments_.begin()) {
    return absl::AlreadyExistsError(
        absl::StrCat("address 0x", absl::Hex(addr), " is in use"));
  }
  --it;
  uint64_t covered = addr;
  while (covered < end) {
    if (it == segments_.end() || it->first > covered ||
        it->first + it->second.size <= covered) {
      return absl::AlreadyExistsError(absl::StrCat(
          "range [0x", absl::Hex(addr), ", +", size,
          ") overlaps a live allocation at 0x", absl::Hex(covered)));
    }
    covered = it->first + it->second.size;
    ++it;
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> RangeAllocator::Allocate(uint64_t size,
                                                  uint64_t alignment) {
  absl::StatusOr<uint64_t> addr = FindFit(size, alignment);
  if (!addr.ok()) return addr.status();
  absl::Status placed = AllocateAt(*addr, size);
  if (!placed.ok()) return placed;
  return *addr;
}

absl::Status RangeAllocator::AllocateAt(uint64_t addr, uint64_t size) {
  absl::Status status = CheckAllocateAt(addr, size);
  if (!status.ok()) return status;
  const uint64_t extent = *RoundUp(size, kGranularity);
  const uint64_t end = addr + extent;
  auto it = std::prev(segments_.upper_bound(addr));
  uint64_t covered = addr;
  while (covered < end) {
    const uint64_t start = it->first;
    const uint64_t stop = start + it->second.size;
    const bool reserved = it->second.reserved;
    auto next = std::next(it);
    EraseSegment(it);
    // What the block does not take stays what it was; its neighbours are
    // the block itself, so no merging is needed.
    if (start < addr) AddSegment(start, addr - start, reserved);
    if (stop > end) AddSegment(end, stop - end, reserved);
    covered = stop;
    it = next;
  }
  blocks_.emplace(addr, Block{addr, size, extent});
  version_ = NextVersion();
  return absl::OkStatus();
}

absl::StatusOr<RangeAllocator::Block> RangeAllocator::Free(uint64_t addr) {
  auto it = blocks_.find(addr);
  if (it == blocks_.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "0x", absl::Hex(addr), " is not the base of a live allocation"));
  }
  const Block block = it->second;
  blocks_.erase(it);
  InsertSegment(block.addr, block.extent, /*reserved=*/false);
  version_ = NextVersion();
  return block;
}

std::optional<RangeAllocator::Block> RangeAllocator::Find(uint64_t addr) const {
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return std::nullopt;
  --it;
  if (addr - it->first >= it->second.size) return std::nullopt;
  return it->second;
}

std::vector<RangeAllocator::Block> RangeAllocator::Blocks() const {
  std::vector<Block> blocks;
  blocks.reserve(blocks_.size());
  for (const auto& [addr, block] : blocks_) blocks.push_back(block);
  return blocks;
}

void RangeAllocator::ReserveAll() {
  for (const auto& [addr, block] : blocks_) {
    InsertSegment(block.addr, block.extent, /*reserved=*/true);
  }
  blocks_.clear();
  version_ = NextVersion();
}

uint64_t RangeAllocator::NextVersion() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void RangeAllocator::Reset() {
  segments_.clear();
  free_by_size_.clear();
  blocks_.clear();
  free_bytes_ = 0;
  reserved_bytes_ = 0;
  version_ = NextVersion();
  if (capacity_ > 0) AddSegment(base_, capacity_, /*reserved=*/false);
}

void RangeAllocator::InsertSegment(uint64_t addr, uint64_t size,
                                   bool reserved) {
  auto next = segments_.lower_bound(addr);
  if (next != segments_.begin()) {
    auto prev = std::prev(next);
    if (prev->second.reserved == reserved &&
        prev->first + prev->second.size == addr) {
      addr = prev->first;
      size += prev->second.size;
      EraseSegment(prev);
    }
  }
  if (next != segments_.end() && next->second.reserved == reserved &&
      next->first == addr + size) {
    size += next->second.size;
    EraseSegment(next);
  }
  AddSegment(addr, size, reserved);
}

void RangeAllocator::EraseSegment(std::map<uint64_t, Segment>::iterator it) {
  if (it->second.reserved) {
    reserved_bytes_ -= it->second.size;
  } else {
    free_bytes_ -= it->second.size;
    free_by_size_.erase({it->second.size, it->first});
  }
  segments_.erase(it);
}

void RangeAllocator::AddSegment(uint64_t addr, uint64_t size, bool reserved) {
  segments_.emplace(addr, Segment{size, reserved});
  if (reserved) {
    reserved_bytes_ += size;
  } else {
    free_bytes_ += size;
    free_by_size_.emplace(size, addr);
  }
}

}  // namespace ascend::device::sim::internal
