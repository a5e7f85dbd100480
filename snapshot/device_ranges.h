// Helpers over ranges of device memory (device::Allocation as [addr,
// addr + size)) that the memory participant's Backup and Restore share.
// Ranges are ascending and disjoint unless said otherwise.
#ifndef ASCENDCL_SNAPSHOT_DEVICE_RANGES_H_
#define ASCENDCL_SNAPSHOT_DEVICE_RANGES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "device/device.h"

namespace ascend::snapshot::internal {

inline uint64_t End(const device::Allocation& a) { return a.addr + a.size; }

// The parts of the sorted, disjoint `ranges` inside [begin, end), from
// ranges[*cursor] on; *cursor advances past ranges that end before `begin`
// (callers ask for ascending, disjoint windows).
template <typename Fn>
void ForEachOverlap(const std::vector<device::Allocation>& ranges,
                    size_t* cursor, uint64_t begin, uint64_t end, Fn&& fn) {
  while (*cursor < ranges.size() && End(ranges[*cursor]) <= begin) ++*cursor;
  for (size_t k = *cursor; k < ranges.size() && ranges[k].addr < end; ++k) {
    const uint64_t b = std::max(begin, ranges[k].addr);
    const uint64_t e = std::min(end, End(ranges[k]));
    if (b < e) fn(b, e);
  }
}

// The device's data ranges over the span of `allocations` (sorted).
inline std::vector<device::Allocation> DataOver(
    const device::Device& device,
    const std::vector<device::Allocation>& allocations) {
  if (allocations.empty()) return {};
  uint64_t hi = 0;
  for (const device::Allocation& a : allocations) hi = std::max(hi, End(a));
  const uint64_t lo = allocations.front().addr;
  return device.DataRanges(lo, hi - lo);
}

// Appends [b, e) to the ascending `ranges`, merging with the last one.
inline void AppendMerged(std::vector<device::Allocation>* ranges, uint64_t b,
                         uint64_t e) {
  if (b >= e) return;
  if (!ranges->empty() && End(ranges->back()) >= b) {
    ranges->back().size =
        std::max(End(ranges->back()), e) - ranges->back().addr;
    return;
  }
  ranges->push_back(device::Allocation{b, e - b});
}

// Whether [begin, end) overlaps one of the ascending, disjoint `ranges`,
// from ranges[*cursor] on; callers ask for ascending windows.
inline bool OverlapsAny(const std::vector<device::Allocation>& ranges,
                        size_t* cursor, uint64_t begin, uint64_t end) {
  while (*cursor < ranges.size() && End(ranges[*cursor]) <= begin) ++*cursor;
  return *cursor < ranges.size() && ranges[*cursor].addr < end;
}

// Whether `a` and `b` hold the same ranges.
inline bool SameRanges(const std::vector<device::Allocation>& a,
                       const std::vector<device::Allocation>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(),
      [](const device::Allocation& x, const device::Allocation& y) {
        return x.addr == y.addr && x.size == y.size;
      });
}

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_DEVICE_RANGES_H_
