#include "device/npu/internal/id_table.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ascend::device::npu::internal {

IdTable::IdTable(uint32_t capacity) : used_(capacity, false) {}

absl::StatusOr<uint32_t> IdTable::Allocate() {
  if (in_use_ == used_.size()) {
    return absl::ResourceExhaustedError(
        absl::StrCat("all ", used_.size(), " ids are in use"));
  }
  uint32_t id = lowest_maybe_free_;
  while (used_[id]) ++id;
  used_[id] = true;
  ++in_use_;
  lowest_maybe_free_ = id + 1;
  return id;
}

absl::Status IdTable::Claim(uint32_t id) {
  if (id >= used_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("id ", id, " is outside [0, ", used_.size(), ")"));
  }
  if (used_[id]) {
    return absl::AlreadyExistsError(absl::StrCat("id ", id, " is in use"));
  }
  used_[id] = true;
  ++in_use_;
  return absl::OkStatus();
}

void IdTable::Release(uint32_t id) {
  if (id >= used_.size() || !used_[id]) return;
  used_[id] = false;
  --in_use_;
  lowest_maybe_free_ = std::min(lowest_maybe_free_, id);
}

void IdTable::Clear() {
  std::fill(used_.begin(), used_.end(), false);
  in_use_ = 0;
  lowest_maybe_free_ = 0;
}

}  // namespace ascend::device::npu::internal
