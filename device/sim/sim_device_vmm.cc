// The address side of simulated virtual memory (DESIGN.md §5.18, §6.1):
// reservations in the device's virtual address window and in the placed
// window (addresses the program chose), and the access each mapping
// grants, which copies check here and kernels meet in the page tables.
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "device/sim/internal/device_memory.h"
#include "device/sim/internal/range_allocator.h"
#include "device/sim/sim_device.h"

namespace ascend::device::sim {

using internal::RangeAllocator;

absl::Status SimDevice::CheckMapped(DeviceAddr addr, uint64_t size,
                                    absl::string_view what, Use use) const {
  std::optional<Allocation> run = FindRun(addr);
  if (!run.has_value() || size > run->size - (addr - run->addr)) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " range [0x", absl::Hex(addr), ", +", size,
        ") is not inside one live allocation or mapped run of simulated "
        "device ",
        id()));
  }
  if (use == Use::kRefer) return absl::OkStatus();
  const auto needed = static_cast<uint32_t>(
      use == Use::kRead ? MemAccess::kRead : MemAccess::kReadWrite);
  // The mappings the range covers (a run is adjacent mappings).
  const uint64_t end = addr + std::max<uint64_t>(size, 1);
  auto it = mappings_.upper_bound(addr);
  if (it != mappings_.begin()) --it;
  for (; it != mappings_.end() && it->first < end; ++it) {
    const Mapping& m = it->second;
    if (m.addr + m.size <= addr) continue;
    if ((static_cast<uint32_t>(m.access) & needed) != needed) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " range [0x", absl::Hex(addr), ", +", size,
                       ") meets the mapping at 0x", absl::Hex(m.addr),
                       ", which device ", id(), " may not ",
                       use == Use::kRead ? "read" : "write", " (its access is ",
                       m.access == MemAccess::kNone ? "none" : "read-only",
                       ": aclrtMemSetAccess)"));
    }
  }
  return absl::OkStatus();
}

std::optional<RangeAllocator::Block> SimDevice::FindReservation(
    DeviceAddr addr) const {
  if (addr < kPlacedVaBegin || addr >= kPlacedVaEnd) {
    return va_ranges_.Find(addr);
  }
  MutexLock lock(&slot_->placed_mu);
  auto it = slot_->placed.upper_bound(addr);
  if (it == slot_->placed.begin()) return std::nullopt;
  --it;
  if (!it->second.live || addr - it->first >= it->second.size) {
    return std::nullopt;
  }
  return RangeAllocator::Block{it->first, it->second.size, it->second.size};
}

absl::StatusOr<DeviceAddr> SimDevice::ReserveAddress(uint64_t size,
                                                     DeviceAddr at) {
  const uint64_t granularity = PhysicalGranularity();
  if (granularity == 0) {
    return absl::UnimplementedError("simulated device memory is not shareable");
  }
  if (size == 0 || size % granularity != 0 || at % granularity != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("reservation of ", size, " bytes at 0x", absl::Hex(at),
                     " is not aligned to ", granularity));
  }
  WriterMutexLock lock(&mu_);
  if (at == 0) return va_ranges_.Allocate(size, granularity);
  if (at >= kPlacedVaBegin && at < kPlacedVaEnd) return ReservePlaced(size, at);
  ASCEND_RETURN_IF_ERROR(va_ranges_.AllocateAt(at, size));
  return at;
}

absl::StatusOr<DeviceAddr> SimDevice::ReservePlaced(uint64_t size,
                                                    DeviceAddr at) {
  if (size > kPlacedVaEnd - at) {
    return absl::InvalidArgumentError(
        absl::StrCat("reservation [0x", absl::Hex(at), ", +", size,
                     ") runs past the end of the placed window"));
  }
  MutexLock lock(&slot_->placed_mu);
  std::map<DeviceAddr, DeviceSlot::Placed>& placed = slot_->placed;
  auto next = placed.lower_bound(at);
  // A reservation a re-open dropped, put back exactly (a restore).
  if (next != placed.end() && next->first == at && next->second.size == size &&
      !next->second.live) {
    next->second.live = true;
    return at;
  }
  const bool meets_next = next != placed.end() && next->first < at + size;
  const bool meets_prev =
      next != placed.begin() &&
      std::prev(next)->first + std::prev(next)->second.size > at;
  if (meets_next || meets_prev) {
    return absl::AlreadyExistsError(
        absl::StrCat("[0x", absl::Hex(at), ", +", size,
                     ") overlaps a reservation of device ", id()));
  }
  // The process's address space says whether anything else holds it.
  ASCEND_RETURN_IF_ERROR(internal::DeviceMemory::PlaceAt(at, size));
  placed[at] = DeviceSlot::Placed{size, true};
  return at;
}

absl::Status SimDevice::ReleasePlaced(DeviceAddr addr) {
  uint64_t size = 0;
  {
    MutexLock lock(&slot_->placed_mu);
    auto it = slot_->placed.find(addr);
    if (it == slot_->placed.end() || !it->second.live) {
      return absl::InvalidArgumentError(absl::StrCat(
          "0x", absl::Hex(addr), " is not a reservation of device ", id()));
    }
    size = it->second.size;
  }
  auto mapped = mappings_.lower_bound(addr);
  if (mapped != mappings_.end() && mapped->first < addr + size) {
    return absl::FailedPreconditionError(
        absl::StrCat("reservation 0x", absl::Hex(addr),
                     " is still mapped at 0x", absl::Hex(mapped->first)));
  }
  internal::DeviceMemory::Unplace(addr, size);
  MutexLock lock(&slot_->placed_mu);
  slot_->placed.erase(addr);
  return absl::OkStatus();
}

absl::Status SimDevice::ReleaseAddress(DeviceAddr addr) {
  WriterMutexLock lock(&mu_);
  if (addr >= kPlacedVaBegin && addr < kPlacedVaEnd) {
    return ReleasePlaced(addr);
  }
  std::optional<RangeAllocator::Block> block = va_ranges_.Find(addr);
  if (!block.has_value() || block->addr != addr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "0x", absl::Hex(addr), " is not a reservation of device ", id()));
  }
  auto it = mappings_.lower_bound(addr);
  if (it != mappings_.end() && it->first < addr + block->size) {
    return absl::FailedPreconditionError(
        absl::StrCat("reservation 0x", absl::Hex(addr),
                     " is still mapped at 0x", absl::Hex(it->first)));
  }
  return va_ranges_.Free(addr).status();
}

absl::Status SimDevice::SetMappingAccess(DeviceAddr addr, MemAccess access) {
  int prot = PROT_NONE;
  switch (access) {
    case MemAccess::kNone:
      break;
    case MemAccess::kRead:
      prot = PROT_READ;
      break;
    case MemAccess::kReadWrite:
      prot = PROT_READ | PROT_WRITE;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("access ", static_cast<uint32_t>(access),
                       " is not none, read or read-write"));
  }
  // Exclusive: no copy is between its access check and its bytes.
  WriterMutexLock lock(&mu_);
  auto it = mappings_.find(addr);
  if (it == mappings_.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no mapping starts at 0x", absl::Hex(addr), " on device ", id()));
  }
  if (it->second.access == access) return absl::OkStatus();
  // The page tables are the kernels' check: an access they do not permit
  // is a memory fault.
  ASCEND_RETURN_IF_ERROR(
      internal::DeviceMemory::ProtectVa(addr, it->second.size, prot));
  it->second.access = access;
  return absl::OkStatus();
}

std::vector<Allocation> SimDevice::Reservations() const {
  ReaderMutexLock lock(&mu_);
  std::vector<Allocation> out;
  for (const RangeAllocator::Block& b : va_ranges_.Blocks()) {
    out.push_back(Allocation{b.addr, b.size});
  }
  MutexLock placed_lock(&slot_->placed_mu);
  for (const auto& [addr, p] : slot_->placed) {
    if (p.live) out.push_back(Allocation{addr, p.size});
  }
  std::sort(
      out.begin(), out.end(),
      [](const Allocation& a, const Allocation& b) { return a.addr < b.addr; });
  return out;
}

}  // namespace ascend::device::sim
