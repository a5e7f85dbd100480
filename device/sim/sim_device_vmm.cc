// SimDevice's virtual memory (device_virtual_memory.h, DESIGN.md §5.18,
// §6.1): physical allocations, mappings and memory shared with another
// process; the address side, reservations in the device's virtual address
// window and in the placed window (addresses the program chose); and the
// access each mapping grants, which copies check here and kernels meet in
// the page tables.
#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

#include "absl/base/optimization.h"
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

// --- Virtual memory --------------------------------------------------------
//
// Physical memory is a block of the device's memory window (so it counts
// against the device's memory and the snapshot's "memory" participant saves
// it once, as an allocation); a mapping maps the same pages of the window's
// file at an address of the virtual address window.

uint64_t SimDevice::PhysicalGranularity() const {
  return memory_->shareable() ? internal::DeviceMemory::kChunkSize : 0;
}

std::optional<Allocation> SimDevice::FindRun(DeviceAddr addr) const {
  auto it = runs_.upper_bound(addr);
  if (it == runs_.begin()) return std::nullopt;
  --it;
  if (addr - it->first >= it->second) return std::nullopt;
  return Allocation{it->first, it->second};
}

void SimDevice::AddRun(DeviceAddr addr, uint64_t size) {
  const std::optional<RangeAllocator::Block> reservation =
      FindReservation(addr);
  uint64_t begin = addr;
  uint64_t end = addr + size;
  auto next = runs_.find(end);
  if (next != runs_.end() && reservation.has_value() &&
      next->first < reservation->addr + reservation->size) {
    end += next->second;
    runs_.erase(next);
  }
  auto it = runs_.lower_bound(addr);
  if (it != runs_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == addr && reservation.has_value() &&
        prev->first >= reservation->addr) {
      begin = prev->first;
      runs_.erase(prev);
    }
  }
  runs_[begin] = end - begin;
}

void SimDevice::RemoveRun(DeviceAddr addr, uint64_t size) {
  std::optional<Allocation> run = FindRun(addr);
  if (!run.has_value()) return;
  runs_.erase(run->addr);
  if (addr > run->addr) runs_[run->addr] = addr - run->addr;
  const uint64_t run_end = run->addr + run->size;
  if (addr + size < run_end) runs_[addr + size] = run_end - (addr + size);
}

absl::Status SimDevice::CheckMappable(DeviceAddr addr, uint64_t size) const {
  const uint64_t granularity = internal::DeviceMemory::kChunkSize;
  if (size == 0 || addr % granularity != 0 || size % granularity != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mapping [0x", absl::Hex(addr), ", +", size,
        ") is empty or not aligned to the granularity ", granularity));
  }
  std::optional<RangeAllocator::Block> reservation = FindReservation(addr);
  if (!reservation.has_value() ||
      size > reservation->size - (addr - reservation->addr)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mapping [0x", absl::Hex(addr), ", +", size,
        ") is not inside one reservation of simulated device ", id()));
  }
  auto it = mappings_.lower_bound(addr);
  if (it != mappings_.begin()) {
    auto before = std::prev(it);
    if (before->first + before->second.size > addr) it = before;
  }
  if (it != mappings_.end() && it->first < addr + size) {
    return absl::AlreadyExistsError(
        absl::StrCat("[0x", absl::Hex(addr), ", +", size,
                     ") overlaps the mapping at 0x", absl::Hex(it->first)));
  }
  return absl::OkStatus();
}

absl::Status SimDevice::CommitBlock(DeviceAddr addr, uint64_t size) {
  ASCEND_RETURN_IF_ERROR(memory_->Commit(addr, Extent(size)));
  absl::Status placed = ranges_.AllocateAt(addr, size);
  if (!placed.ok()) memory_->Release(addr, Extent(size));
  return placed;
}

absl::StatusOr<DeviceAddr> SimDevice::AllocatePhysical(uint64_t size) {
  const uint64_t granularity = PhysicalGranularity();
  if (granularity == 0) {
    return absl::UnimplementedError(
        "simulated device memory is not shareable on this host (no memfd)");
  }
  if (size == 0 || size % granularity != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "physical size ", size, " is not a multiple of ", granularity));
  }
  WriterMutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(const uint64_t addr,
                          ranges_.FindFit(size, granularity));
  ASCEND_RETURN_IF_ERROR(CommitBlock(addr, size));
  physical_[addr] = 0;
  return addr;
}

absl::Status SimDevice::AllocatePhysicalAt(DeviceAddr id, uint64_t size) {
  if (PhysicalGranularity() == 0) {
    return absl::UnimplementedError("simulated device memory is not shareable");
  }
  WriterMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(ranges_.CheckAllocateAt(id, size));
  ASCEND_RETURN_IF_ERROR(CommitBlock(id, size));
  physical_[id] = 0;
  return absl::OkStatus();
}

absl::Status SimDevice::FreePhysical(DeviceAddr id) {
  WriterMutexLock lock(&mu_);
  auto it = physical_.find(id);
  if (it == physical_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "no physical allocation 0x", absl::Hex(id), " on device ", this->id()));
  }
  if (it->second != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("physical allocation 0x", absl::Hex(id), " is mapped ",
                     it->second, " time(s)"));
  }
  ASCEND_ASSIGN_OR_RETURN(const RangeAllocator::Block block, ranges_.Free(id));
  physical_.erase(it);
  memory_->Release(block.addr, block.extent);
  writes_.Note(block.addr, block.extent);
  if (ABSL_PREDICT_FALSE(
          slot_->any_memory_error.load(std::memory_order_relaxed))) {
    TakeErrors(*slot_, block.addr, block.extent);
  }
  return absl::OkStatus();
}

absl::Status SimDevice::MapPhysical(DeviceAddr addr, uint64_t size,
                                    DeviceAddr id, uint64_t offset) {
  WriterMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckMappable(addr, size));
  auto physical = physical_.find(id);
  if (physical == physical_.end()) {
    return absl::NotFoundError(
        absl::StrCat("no physical allocation 0x", absl::Hex(id)));
  }
  const std::optional<RangeAllocator::Block> block = ranges_.Find(id);
  if (!block.has_value() || offset > block->size ||
      size > block->size - offset ||
      offset % internal::DeviceMemory::kChunkSize != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("[", offset, ", +", size,
                     ") is not inside physical allocation 0x", absl::Hex(id)));
  }
  ASCEND_RETURN_IF_ERROR(
      memory_->MapVa(addr, size, id - memory_->base() + offset));
  mappings_[addr] = Mapping{addr, size, id, offset};
  writes_.MappingAdded(AsVaMapping(mappings_[addr]));
  AddRun(addr, size);
  ++physical->second;
  return absl::OkStatus();
}

absl::Status SimDevice::MapShared(DeviceAddr addr, const SharedMemory& memory) {
  WriterMutexLock lock(&mu_);
  const uint64_t granularity = internal::DeviceMemory::kChunkSize;
  const uint64_t span =
      (memory.size + granularity - 1) / granularity * granularity;
  ASCEND_RETURN_IF_ERROR(CheckMappable(addr, span));
  if (memory.fd < 0 || memory.size == 0) {
    return absl::InvalidArgumentError("no shared memory to map");
  }
  ASCEND_RETURN_IF_ERROR(
      memory_->MapVa(addr, memory.size, memory.offset, memory.fd));
  mappings_[addr] = Mapping{addr, memory.size, /*physical=*/0, memory.offset};
  AddRun(addr, memory.size);
  return absl::OkStatus();
}

absl::Status SimDevice::Unmap(DeviceAddr addr) {
  WriterMutexLock lock(&mu_);
  auto it = mappings_.find(addr);
  if (it == mappings_.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no mapping starts at 0x", absl::Hex(addr), " on device ", id()));
  }
  if (it->second.physical != 0)
    writes_.MappingRemoving(AsVaMapping(it->second));
  memory_->UnmapVa(addr, it->second.size);
  RemoveRun(addr, it->second.size);
  if (it->second.physical != 0) {
    auto physical = physical_.find(it->second.physical);
    if (physical != physical_.end() && physical->second > 0) {
      --physical->second;
    }
  }
  mappings_.erase(it);
  return absl::OkStatus();
}

absl::StatusOr<SharedMemory> SimDevice::ShareMemory(DeviceAddr addr,
                                                    uint64_t size) {
  if (!memory_->shareable()) {
    return absl::UnimplementedError("simulated device memory is not shareable");
  }
  ReaderMutexLock lock(&mu_);
  uint64_t file_offset = 0;
  if (ranges_.Find(addr).has_value()) {
    ASCEND_RETURN_IF_ERROR(CheckRange(addr, size, "shared", Use::kRefer));
    file_offset = addr - memory_->base();
  } else {
    auto it = mappings_.upper_bound(addr);
    if (it == mappings_.begin()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "0x", absl::Hex(addr), " is not device memory of device ", id()));
    }
    --it;
    const Mapping& m = it->second;
    if (addr - m.addr >= m.size || size > m.size - (addr - m.addr)) {
      return absl::InvalidArgumentError(
          absl::StrCat("[0x", absl::Hex(addr), ", +", size,
                       ") is not inside one mapping of device ", id()));
    }
    if (m.physical == 0) {
      return absl::FailedPreconditionError(
          "memory imported from elsewhere cannot be shared again");
    }
    file_offset = m.physical - memory_->base() + m.offset + (addr - m.addr);
  }
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  SharedMemory shared;
  shared.offset = file_offset / page * page;
  shared.inner = file_offset - shared.offset;
  shared.size =
      (shared.inner + std::max<uint64_t>(size, 1) + page - 1) / page * page;
  shared_.store(true, std::memory_order_relaxed);
  // The other process writes it through its own page tables.
  writes_.NoteExported(memory_->base() + shared.offset, shared.size);
  shared.fd = fcntl(memory_->fd(), F_DUPFD_CLOEXEC, 0);
  if (shared.fd < 0) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot duplicate the device memory file: ", std::strerror(errno)));
  }
  return shared;
}

std::vector<Allocation> SimDevice::PhysicalAllocations() const {
  ReaderMutexLock lock(&mu_);
  std::vector<Allocation> out;
  for (const auto& [id, mapped] : physical_) {
    std::optional<RangeAllocator::Block> block = ranges_.Find(id);
    if (block.has_value()) out.push_back(Allocation{id, block->size});
  }
  return out;
}

std::vector<Mapping> SimDevice::Mappings() const {
  ReaderMutexLock lock(&mu_);
  std::vector<Mapping> out;
  for (const auto& [addr, m] : mappings_) out.push_back(m);
  return out;
}

}  // namespace ascend::device::sim
