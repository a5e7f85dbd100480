// SimDevice's uncorrectable memory errors (device_health.h,
// Fault::kMemoryError): the ranges an injected error hit, which reads check
// and a repair or a free drops.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "device/sim/sim_device.h"

namespace ascend::device::sim {

namespace {

// Whether [a, a + a_size) and [b, b + b_size) share a byte.
bool Overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  return a < b + b_size && b < a + a_size;
}

}  // namespace

// Drops the error ranges overlapping [addr, addr + size); returns them.
std::vector<Allocation> TakeErrors(DeviceSlot& slot, DeviceAddr addr,
                                   uint64_t size) {
  std::vector<Allocation> taken;
  MutexLock lock(&slot.errors_mu);
  std::vector<Allocation>& errors = slot.memory_errors;
  auto kept =
      std::remove_if(errors.begin(), errors.end(), [&](const Allocation& e) {
        if (!Overlaps(e.addr, e.size, addr, size)) {
          return false;
        }
        taken.push_back(e);
        return true;
      });
  errors.erase(kept, errors.end());
  slot.any_memory_error.store(!errors.empty(), std::memory_order_relaxed);
  return taken;
}

void ClearErrors(DeviceSlot& slot) {
  MutexLock lock(&slot.errors_mu);
  slot.memory_errors.clear();
  slot.any_memory_error.store(false, std::memory_order_relaxed);
}

absl::Status SimDevice::CheckReadable(DeviceAddr addr, uint64_t size) const {
  if (ABSL_PREDICT_TRUE(
          !slot_->any_memory_error.load(std::memory_order_relaxed))) {
    return absl::OkStatus();
  }
  MutexLock lock(&slot_->errors_mu);
  for (const Allocation& e : slot_->memory_errors) {
    if (Overlaps(e.addr, e.size, addr, size)) {
      return MemoryErrorStatus(absl::StrCat(
          "read of [0x", absl::Hex(addr), ", +", size,
          ") meets an uncorrectable memory error at [0x", absl::Hex(e.addr),
          ", +", e.size, ") of simulated device ", id()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Allocation>> SimDevice::MemoryErrors() const {
  MutexLock lock(&slot_->errors_mu);
  std::vector<Allocation> errors = slot_->memory_errors;
  std::sort(
      errors.begin(), errors.end(),
      [](const Allocation& a, const Allocation& b) { return a.addr < b.addr; });
  return errors;
}

absl::Status SimDevice::RepairMemoryErrors(DeviceAddr addr, uint64_t size) {
  ReaderMutexLock lock(&mu_);
  std::vector<Allocation> repaired = TakeErrors(*slot_, addr, size);
  if (repaired.empty()) {
    return absl::NotFoundError(absl::StrCat("no memory error overlaps [0x",
                                            absl::Hex(addr), ", +", size,
                                            ") on simulated device ", id()));
  }
  // The bad bytes are gone: the repaired range reads as zero.
  for (const Allocation& e : repaired) {
    if (ranges_.Find(e.addr).has_value()) {
      memory_->Discard(e.addr, e.size);
      writes_.Note(e.addr, e.size);
    }
  }
  return absl::OkStatus();
}

}  // namespace ascend::device::sim
