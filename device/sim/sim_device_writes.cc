// SimDevice's write tracking (device_write_tracking.h, DESIGN.md §4.14):
// the tracking periods, and where the device's copy engine and its kernels
// write so that tracked memory takes no fault per page.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "device/sim/internal/device_writes.h"
#include "device/sim/sim_device.h"

namespace ascend::device::sim {

namespace {

// A kernel's write target at least this large has its pages mapped in one
// call before the kernel writes (DESIGN.md §4.14).
constexpr uint64_t kPopulateAtLeast = 64 * 1024;

}  // namespace

std::vector<internal::DeviceWrites::VaMapping> SimDevice::VaMappings() const {
  std::vector<internal::DeviceWrites::VaMapping> out;
  for (const auto& [addr, m] : mappings_) {
    if (m.physical != 0) out.push_back(AsVaMapping(m));
  }
  return out;
}

std::optional<DeviceAddr> SimDevice::WindowAddress(DeviceAddr dst,
                                                   uint64_t size) const {
  if (dst >= memory_->base() && dst < memory_->va_base()) return dst;
  // A mapping of physical memory: the bytes are in the memory window.
  auto it = mappings_.upper_bound(dst);
  if (it == mappings_.begin()) return std::nullopt;
  --it;
  const Mapping& m = it->second;
  if (m.physical == 0 || dst - m.addr >= m.size ||
      size > m.size - (dst - m.addr)) {
    return std::nullopt;  // imported, or across mappings: tracked there
  }
  return m.physical + m.offset + (dst - m.addr);
}

void* SimDevice::WriteTarget(DeviceAddr dst, uint64_t size) {
  if (ABSL_PREDICT_TRUE(!writes_.window_armed()) || size == 0) {
    return AsPointer(dst);
  }
  const std::optional<DeviceAddr> at = WindowAddress(dst, size);
  if (!at.has_value()) return AsPointer(dst);
  uint8_t* alias = memory_->Alias(*at);
  if (alias == nullptr) return AsPointer(dst);
  writes_.Note(*at, size);
  return alias;
}

void* SimDevice::KernelWriteTarget(void* dst, uint64_t size) {
  if (ABSL_PREDICT_TRUE(!writes_.window_armed()) || size == 0) return dst;
  const DeviceAddr addr = reinterpret_cast<DeviceAddr>(dst);
  ReaderMutexLock lock(&mu_);
  // Only what lies in the memory window or one mapping of it: anything else
  // (host memory, across allocations' mappings) keeps its own page tables.
  const bool in_window = addr >= memory_->base() && addr < memory_->va_base() &&
                         size <= memory_->va_base() - addr;
  const bool in_va = addr >= memory_->va_base() &&
                     addr - memory_->va_base() < memory_->va_size();
  if (!in_window && !in_va) return dst;
  const std::optional<DeviceAddr> at = WindowAddress(addr, size);
  if (!at.has_value()) return dst;
  uint8_t* alias = memory_->Alias(*at);
  if (alias == nullptr) return dst;
  // A large range: its alias pages mapped in one call, not a fault each.
  if (size >= kPopulateAtLeast) {
    (void)internal::DeviceMemory::PopulateForWrite(alias, size);
  }
  writes_.Note(*at, size);
  return alias;
}

void SimDevice::PrepareForWrite(DeviceAddr addr, uint64_t size) {
  ReaderMutexLock lock(&mu_);
  if (addr < memory_->base() || addr >= memory_->va_base() ||
      size > memory_->va_base() - addr || size == 0) {
    return;  // only the memory window itself
  }
  // Where VerifiedTarget will write: the window, or the alias while armed.
  uint8_t* target = writes_.window_armed()
                        ? memory_->Alias(addr)
                        : static_cast<uint8_t*>(AsPointer(addr));
  if (target != nullptr) {
    (void)internal::DeviceMemory::PopulateForWrite(target, size);
  }
}

unsigned char* SimDevice::VerifiedTarget(DeviceAddr dst, uint64_t size) {
  // A range below this is not populated here: asking whether it is mapped
  // costs as much as its few faults, and a batch of them is prepared as a
  // whole (PrepareForWrite).
  constexpr uint64_t kPopulateFrom = 64 * 1024;
  const std::optional<DeviceAddr> at = WindowAddress(dst, size);
  if (!at.has_value()) return nullptr;
  // The window takes write-tracking faults while armed; the alias never.
  const bool armed = writes_.window_armed();
  uint8_t* target =
      armed ? memory_->Alias(*at) : static_cast<uint8_t*>(AsPointer(*at));
  if (target == nullptr ||
      (size >= kPopulateFrom &&
       !internal::DeviceMemory::PopulateForWrite(target, size))) {
    return nullptr;
  }
  if (armed) writes_.Note(*at, size);
  return target;
}

std::optional<absl::StatusOr<uint64_t>> SimDevice::WriteThroughFile(
    DeviceAddr dst, const void* src, uint64_t size) {
  const std::optional<DeviceAddr> at = WindowAddress(dst, size);
  if (!at.has_value()) return std::nullopt;
  // Tracking sees no page-table write: the range is recorded as written.
  if (writes_.window_armed()) writes_.Note(*at, size);
  return memory_->WriteFileAndChecksum(*at, src, size);
}

std::string SimDevice::WriteTracking() const {
  return internal::DeviceWrites::Name();
}

absl::StatusOr<std::vector<internal::DeviceWrites::Range>>
SimDevice::TrackedRanges(const std::vector<Allocation>& ranges) const {
  std::vector<internal::DeviceWrites::Range> tracked;
  tracked.reserve(ranges.size());
  for (const Allocation& a : ranges) {
    if (a.addr < memory_->base() ||
        a.addr + a.size > memory_->base() + memory_->size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("[0x", absl::Hex(a.addr), ", +", a.size,
                       ") is not device memory of device ", id()));
    }
    tracked.push_back({a.addr, a.addr + a.size});
  }
  return tracked;
}

absl::Status SimDevice::TrackWrites(const std::vector<Allocation>& ranges) {
  WriterMutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(std::vector<internal::DeviceWrites::Range> tracked,
                          TrackedRanges(ranges));
  losses_at_start_ = slot_->memory_losses.load(std::memory_order_acquire);
  return writes_.Start(tracked, VaMappings());
}

absl::StatusOr<std::vector<Allocation>> SimDevice::RestartWriteTracking(
    const std::vector<Allocation>& ranges) {
  // Exclusive: no copy of the runtime's is half done (each notes what it
  // writes before writing it).
  WriterMutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(std::vector<internal::DeviceWrites::Range> tracked,
                          TrackedRanges(ranges));
  if (slot_->memory_losses.load(std::memory_order_acquire) !=
      losses_at_start_) {
    writes_.NoteAll();
  }
  losses_at_start_ = slot_->memory_losses.load(std::memory_order_acquire);
  ASCEND_ASSIGN_OR_RETURN(std::vector<internal::DeviceWrites::Range> written,
                          writes_.Restart(tracked, VaMappings()));
  std::vector<Allocation> out;
  out.reserve(written.size());
  for (const auto& r : written) {
    out.push_back(Allocation{r.begin, r.end - r.begin});
  }
  return out;
}

absl::StatusOr<std::vector<Allocation>> SimDevice::WrittenRanges() {
  ReaderMutexLock lock(&mu_);
  if (slot_->memory_losses.load(std::memory_order_acquire) !=
      losses_at_start_) {
    writes_.NoteAll();
  }
  ASCEND_ASSIGN_OR_RETURN(std::vector<internal::DeviceWrites::Range> written,
                          writes_.Written(VaMappings()));
  std::vector<Allocation> out;
  out.reserve(written.size());
  for (const auto& r : written)
    out.push_back(Allocation{r.begin, r.end - r.begin});
  return out;
}

}  // namespace ascend::device::sim
