#include "device/sim/internal/id_allocator.h"

#include <cstdint>
#include <iterator>
#include <map>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace ascend::device::sim::internal {

IdAllocator::IdAllocator(uint32_t limit) : limit_(limit) { Reset(); }

absl::StatusOr<uint32_t> IdAllocator::Allocate() {
  if (free_.empty()) {
    return absl::ResourceExhaustedError(
        absl::StrCat("all ", limit_, " ids are in use"));
  }
  const uint32_t id = free_.begin()->first;
  Take(free_.begin(), id);
  return id;
}

absl::Status IdAllocator::Claim(uint32_t id) {
  if (id >= limit_) {
    return absl::InvalidArgumentError(
        absl::StrCat("id ", id, " is out of range [0, ", limit_, ")"));
  }
  auto it = free_.upper_bound(id);
  if (it == free_.begin() || std::prev(it)->second < id) {
    return absl::AlreadyExistsError(absl::StrCat("id ", id, " is in use"));
  }
  Take(std::prev(it), id);
  return absl::OkStatus();
}

void IdAllocator::Release(uint32_t id) {
  if (id >= limit_ || !IsTaken(id)) return;
  uint32_t first = id;
  uint32_t last = id;
  auto next = free_.upper_bound(id);
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->second + 1 == id) {
      first = prev->first;
      free_.erase(prev);
    }
  }
  if (next != free_.end() && next->first == id + 1) {
    last = next->second;
    free_.erase(next);
  }
  free_.emplace(first, last);
  --used_;
}

void IdAllocator::Reset() {
  free_.clear();
  used_ = 0;
  if (limit_ > 0) free_.emplace(0, limit_ - 1);
}

bool IdAllocator::IsTaken(uint32_t id) const {
  if (id >= limit_) return false;
  auto it = free_.upper_bound(id);
  return it == free_.begin() || std::prev(it)->second < id;
}

void IdAllocator::Take(std::map<uint32_t, uint32_t>::iterator interval,
                       uint32_t id) {
  const uint32_t first = interval->first;
  const uint32_t last = interval->second;
  free_.erase(interval);
  if (first < id) free_.emplace(first, id - 1);
  if (id < last) free_.emplace(id + 1, last);
  ++used_;
}

}  // namespace ascend::device::sim::internal
