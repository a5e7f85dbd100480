#include "device/sim/sim_device.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "device/device.h"
#include "device/sim/internal/range_allocator.h"
#include "device/sim/sim_kernels.h"

namespace ascend::device::sim {
namespace {

// A kernel's write target at least this large has its pages mapped in one
// call before the kernel writes (DESIGN.md §4.14).
constexpr uint64_t kPopulateAtLeast = 64 * 1024;

using internal::RangeAllocator;

void* AsPointer(DeviceAddr addr) { return reinterpret_cast<void*>(addr); }

uint64_t Extent(uint64_t size) {
  return (size + RangeAllocator::kGranularity - 1) &
         ~(RangeAllocator::kGranularity - 1);
}

enum class CopyFault { kNone, kFail, kCorrupt };

// Consumes the device's pending one-shot copy fault, if any. The relaxed
// loads keep the common path to two plain reads.
CopyFault TakeCopyFault(DeviceSlot& slot) {
  if (ABSL_PREDICT_FALSE(slot.fail_next_copy.load(std::memory_order_relaxed)) &&
      slot.fail_next_copy.exchange(false)) {
    return CopyFault::kFail;
  }
  if (ABSL_PREDICT_FALSE(
          slot.corrupt_next_copy.load(std::memory_order_relaxed)) &&
      slot.corrupt_next_copy.exchange(false)) {
    return CopyFault::kCorrupt;
  }
  return CopyFault::kNone;
}

absl::Status InjectedCopyFailure(int32_t device_id) {
  return absl::DataLossError(absl::StrCat(
      "copy on simulated device ", device_id, " failed (injected fault)"));
}

// The copy itself: memmove, then the injected corruption if any.
void Move(void* dst, const void* src, uint64_t size, CopyFault fault) {
  std::memmove(dst, src, size);
  if (ABSL_PREDICT_FALSE(fault == CopyFault::kCorrupt)) {
    static_cast<unsigned char*>(dst)[size / 2] ^= 0xFF;
  }
}

// Whether [a, a + a_size) and [b, b + b_size) share a byte.
bool Overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  return a < b + b_size && b < a + a_size;
}

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

}  // namespace

SimDevice::SimDevice(std::shared_ptr<DeviceSlot> slot, uint64_t capacity,
                     uint32_t max_ids_per_kind, uint32_t max_streams,
                     uint32_t max_notifies)
    : slot_(std::move(slot)),
      memory_(slot_->published_memory.load(std::memory_order_acquire)),
      ranges_(memory_->base(), capacity),
      va_ranges_(memory_->va_base(), memory_->va_size()),
      writes_(memory_->base(), memory_->size()) {
  {
    MutexLock lock(&slot_->writes_mu);
    slot_->writes = &writes_;
  }
  MutexLock lock(&ids_mu_);
  for (int kind = 0; kind < kResourceKindCount; ++kind) {
    uint32_t limit = max_ids_per_kind;
    if (kind == static_cast<int>(ResourceKind::kStream)) {
      limit = std::min(limit, max_streams);
    } else if (kind == static_cast<int>(ResourceKind::kNotify)) {
      limit = std::min(limit, max_notifies);
    }
    ids_.push_back(std::make_unique<internal::IdAllocator>(limit));
  }
}

SimDevice::~SimDevice() {
  {
    MutexLock lock(&slot_->writes_mu);
    slot_->writes = nullptr;
  }
  {
    WriterMutexLock lock(&mu_);
    ranges_.Reset();
    va_ranges_.Reset();
    mappings_.clear();
    runs_.clear();
    physical_.clear();
    {
      // The placed window's addresses go back to the process.
      MutexLock placed_lock(&slot_->placed_mu);
      for (const auto& [addr, p] : slot_->placed) {
        internal::DeviceMemory::Unplace(addr, p.size);
      }
      slot_->placed.clear();
    }
    // Memory another process imported stays with that process until it
    // lets go, as a device's physical memory does.
    if (!shared_.load(std::memory_order_relaxed) ||
        !memory_->DetachAll().ok()) {
      memory_->ReleaseAll();
    }
  }
  ClearErrors(*slot_);
  MutexLock lock(&slot_->mu);
  slot_->open = false;
}

absl::StatusOr<DeviceAddr> SimDevice::Allocate(uint64_t size,
                                               uint64_t alignment) {
  WriterMutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(const uint64_t addr,
                          ranges_.FindFit(size, alignment));
  ASCEND_RETURN_IF_ERROR(memory_->Commit(addr, Extent(size)));
  absl::Status placed = ranges_.AllocateAt(addr, size);
  if (!placed.ok()) {
    memory_->Release(addr, Extent(size));
    return placed;
  }
  return addr;
}

absl::Status SimDevice::AllocateAt(DeviceAddr addr, uint64_t size) {
  WriterMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(ranges_.CheckAllocateAt(addr, size));
  ASCEND_RETURN_IF_ERROR(memory_->Commit(addr, Extent(size)));
  absl::Status placed = ranges_.AllocateAt(addr, size);
  if (!placed.ok()) memory_->Release(addr, Extent(size));
  return placed;
}

absl::Status SimDevice::Free(DeviceAddr addr) {
  WriterMutexLock lock(&mu_);
  if (ABSL_PREDICT_FALSE(physical_.count(addr) != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("0x", absl::Hex(addr),
                     " is physical memory: free it with FreePhysical"));
  }
  ASCEND_ASSIGN_OR_RETURN(const RangeAllocator::Block block,
                          ranges_.Free(addr));
  memory_->Release(block.addr, block.extent);
  writes_.Note(block.addr, block.extent);
  // A later allocation over the same pages starts healthy.
  if (ABSL_PREDICT_FALSE(
          slot_->any_memory_error.load(std::memory_order_relaxed))) {
    TakeErrors(*slot_, block.addr, block.extent);
  }
  return absl::OkStatus();
}

std::optional<Allocation> SimDevice::FindAllocation(DeviceAddr addr) const {
  ReaderMutexLock lock(&mu_);
  std::optional<RangeAllocator::Block> block = ranges_.Find(addr);
  if (!block.has_value()) return FindRun(addr);
  return Allocation{block->addr, block->size};
}

std::vector<Allocation> SimDevice::Allocations() const {
  ReaderMutexLock lock(&mu_);
  std::vector<Allocation> allocations;
  for (const RangeAllocator::Block& block : ranges_.Blocks()) {
    allocations.push_back(Allocation{block.addr, block.size});
  }
  return allocations;
}

uint64_t SimDevice::AllocationsVersion() const {
  ReaderMutexLock lock(&mu_);
  return ranges_.version();
}

MemoryInfo SimDevice::GetMemoryInfo() const {
  ReaderMutexLock lock(&mu_);
  return MemoryInfo{ranges_.capacity(), ranges_.free_bytes()};
}

absl::Status SimDevice::CheckRange(DeviceAddr addr, uint64_t size,
                                   absl::string_view what, Use use) const {
  std::optional<RangeAllocator::Block> block = ranges_.Find(addr);
  if (ABSL_PREDICT_FALSE(!block.has_value() ||
                         size > block->size - (addr - block->addr))) {
    if (!runs_.empty()) return CheckMapped(addr, size, what, use);
    return absl::InvalidArgumentError(absl::StrCat(
        what, " range [0x", absl::Hex(addr), ", +", size,
        ") is not inside one live allocation of simulated device ", id()));
  }
  return absl::OkStatus();
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

absl::Status SimDevice::CopyToDevice(DeviceAddr dst, const void* src,
                                     uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(dst, size, "destination", Use::kWrite));
  if (size == 0) return absl::OkStatus();
  if (src == nullptr) {
    return absl::InvalidArgumentError("host source is null");
  }
  const CopyFault fault = TakeCopyFault(*slot_);
  if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
  Move(WriteTarget(dst, size), src, size, fault);
  return absl::OkStatus();
}

absl::Status SimDevice::CopyFromDevice(void* dst, DeviceAddr src,
                                       uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(src, size, "source", Use::kRead));
  if (size == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(CheckReadable(src, size));
  if (dst == nullptr) {
    return absl::InvalidArgumentError("host destination is null");
  }
  const CopyFault fault = TakeCopyFault(*slot_);
  if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
  Move(dst, AsPointer(src), size, fault);
  return absl::OkStatus();
}

absl::Status SimDevice::CopyWithinDevice(DeviceAddr dst, DeviceAddr src,
                                         uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(dst, size, "destination", Use::kWrite));
  ASCEND_RETURN_IF_ERROR(CheckRange(src, size, "source", Use::kRead));
  if (size == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(CheckReadable(src, size));
  const CopyFault fault = TakeCopyFault(*slot_);
  if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
  Move(WriteTarget(dst, size), AsPointer(src), size, fault);
  return absl::OkStatus();
}

// Lock order for two devices: ascending device id, so concurrent peer copies
// in opposite directions cannot deadlock (the locks prefer writers: new
// readers wait behind a waiting writer). The analysis cannot follow the
// conditional locking.
absl::Status SimDevice::CopyPeer(SimDevice& dst_device, DeviceAddr dst,
                                 SimDevice& src_device, DeviceAddr src,
                                 uint64_t size) {
  if (&dst_device == &src_device) {
    return dst_device.CopyWithinDevice(dst, src, size);
  }
  SimDevice& first =
      dst_device.id() < src_device.id() ? dst_device : src_device;
  SimDevice& second = &first == &dst_device ? src_device : dst_device;
  ReaderMutexLock first_lock(&first.mu_);
  ReaderMutexLock second_lock(&second.mu_);
  ASCEND_RETURN_IF_ERROR(
      dst_device.CheckRange(dst, size, "destination", Use::kWrite));
  ASCEND_RETURN_IF_ERROR(
      src_device.CheckRange(src, size, "source", Use::kRead));
  if (size == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(src_device.CheckReadable(src, size));
  CopyFault fault = TakeCopyFault(*dst_device.slot_);
  if (fault == CopyFault::kNone) fault = TakeCopyFault(*src_device.slot_);
  if (fault == CopyFault::kFail) {
    return absl::DataLossError(
        absl::StrCat("peer copy from simulated device ", src_device.id(),
                     " to ", dst_device.id(), " failed (injected fault)"));
  }
  Move(dst_device.WriteTarget(dst, size), AsPointer(src), size, fault);
  return absl::OkStatus();
}

absl::Status SimDevice::Fill(DeviceAddr dst, uint8_t value, uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(dst, size, "fill", Use::kWrite));
  std::memset(WriteTarget(dst, size), value, size);
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> SimDevice::Checksum(DeviceAddr addr, uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(addr, size, "checksum", Use::kRead));
  ASCEND_RETURN_IF_ERROR(CheckReadable(addr, size));
  return device::Checksum(AsPointer(addr), size);
}

// One pass over the source: the device hashes the bytes as it sends them.
// An injected corruption hits the destination afterwards, as a damaged
// transfer would, so the caller's check of its copy sees it.
absl::StatusOr<uint64_t> SimDevice::CopyFromDeviceWithChecksum(void* dst,
                                                               DeviceAddr src,
                                                               uint64_t size) {
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(src, size, "source", Use::kRead));
  if (size != 0 && dst == nullptr) {
    return absl::InvalidArgumentError("host destination is null");
  }
  ASCEND_RETURN_IF_ERROR(CheckReadable(src, size));
  const CopyFault fault = size == 0 ? CopyFault::kNone : TakeCopyFault(*slot_);
  if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
  const uint64_t sum = device::CopyAndChecksum(dst, AsPointer(src), size);
  if (ABSL_PREDICT_FALSE(fault == CopyFault::kCorrupt)) {
    static_cast<unsigned char*>(dst)[size / 2] ^= 0xFF;
  }
  return sum;
}

// Copies and hashes piece by piece, so each piece is hashed while it is
// still in this core's cache. An injected corruption hits the piece that
// holds byte size / 2 after it landed and before it is hashed.
// Verified copies of at least this many bytes go through a mapping whose
// page tables are populated in one call, or else through the memory file
// (SimDevice::VerifiedTarget, WriteThroughFile).
constexpr uint64_t kFileWriteBytes = 64 * 1024;

absl::StatusOr<uint64_t> SimDevice::CopyToDeviceWithChecksum(DeviceAddr dst,
                                                             const void* src,
                                                             uint64_t size) {
  constexpr uint64_t kPiece = 64 * device::kChecksumBlockBytes;
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(dst, size, "destination", Use::kWrite));
  if (size != 0 && src == nullptr) {
    return absl::InvalidArgumentError("host source is null");
  }
  if (size == 0) return device::Checksum(nullptr, 0);
  const CopyFault fault = TakeCopyFault(*slot_);
  if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
  unsigned char* to = nullptr;
  if (fault == CopyFault::kNone && size >= kFileWriteBytes) {
    to = VerifiedTarget(dst, size);
    if (to == nullptr) {
      if (std::optional<absl::StatusOr<uint64_t>> written =
              WriteThroughFile(dst, src, size)) {
        return *std::move(written);
      }
    }
  }
  if (to == nullptr) to = static_cast<unsigned char*>(WriteTarget(dst, size));
  const auto* from = static_cast<const unsigned char*>(src);
  device::ChecksumState state;
  uint64_t offset = 0;
  for (;;) {
    const uint64_t len = std::min(kPiece, size - offset);
    std::memcpy(to + offset, from + offset, len);
    if (ABSL_PREDICT_FALSE(fault == CopyFault::kCorrupt) &&
        size / 2 - offset < len) {
      to[size / 2] ^= 0xFF;
    }
    if (size - offset == len) return state.Finish(to + offset, len);
    state.Update(to + offset, len);
    offset += len;
  }
}

// One transfer of several pieces, each hashed as it lands, as above.
absl::Status SimDevice::CopyToDeviceWithChecksums(DeviceAddr dst,
                                                  const void* src,
                                                  uint64_t size,
                                                  uint64_t piece_bytes,
                                                  uint64_t* checksums) {
  {
    ReaderMutexLock lock(&mu_);
    ASCEND_RETURN_IF_ERROR(CheckRange(dst, size, "destination", Use::kWrite));
    unsigned char* to = size > 0 && src != nullptr && piece_bytes > 0
                            ? VerifiedTarget(dst, size)
                            : nullptr;
    if (to != nullptr) {
      const CopyFault fault = TakeCopyFault(*slot_);
      if (fault == CopyFault::kFail) return InjectedCopyFailure(id());
      const auto* from = static_cast<const unsigned char*>(src);
      for (uint64_t at = 0, i = 0; at < size; at += piece_bytes, ++i) {
        const uint64_t n = std::min(piece_bytes, size - at);
        Move(to + at, from + at, n,
             size / 2 - at < n ? fault : CopyFault::kNone);
        checksums[i] = device::Checksum(to + at, n);
      }
      return absl::OkStatus();
    }
  }
  // Nothing to copy, or no mapping to copy through: piece by piece.
  return Device::CopyToDeviceWithChecksums(dst, src, size, piece_bytes,
                                           checksums);
}

// Pages never touched (or dropped) read as zero: the host kernel knows
// which pages the device's window has.
std::vector<Allocation> SimDevice::DataRanges(DeviceAddr addr,
                                              uint64_t size) const {
  std::vector<Allocation> ranges;
  const uint64_t base = memory_->base();
  const uint64_t end = base + memory_->size();
  // Outside the window nothing is device memory; clip to it.
  const uint64_t from = std::max<uint64_t>(addr, base);
  const uint64_t to = std::min<uint64_t>(addr + size, end);
  if (from >= to) return ranges;
  for (const auto& [b, e] : memory_->PresentRanges(from, to - from)) {
    ranges.push_back(Allocation{b, e - b});
  }
  return ranges;
}

absl::Status SimDevice::Discard(DeviceAddr addr, uint64_t size) {
  // Shared: like Fill, it only changes bytes of a live allocation.
  ReaderMutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(CheckRange(addr, size, "discard", Use::kWrite));
  memory_->Discard(addr, size);
  writes_.Note(addr, size);
  return absl::OkStatus();
}

void* SimDevice::HostPointer(DeviceAddr addr) {
  // Mapped memory is reached through the checked copies only: its access
  // can change (SetMappingAccess) while a caller still holds a pointer.
  ReaderMutexLock lock(&mu_);
  return ranges_.Find(addr).has_value() ? AsPointer(addr) : nullptr;
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

absl::Status SimDevice::Reopen() {
  {
    WriterMutexLock lock(&mu_);
    // The dropped allocations stay reserved for AllocateAt, and their pages
    // stay resident (device memory does not go away when a device is
    // re-opened): putting them back costs no page faults, and their old
    // contents are never visible to a fresh allocation.
    ranges_.ReserveAll();
    // Page tables go with the device: every mapping is dropped, and the
    // reservations stay reserved until put back.
    for (const auto& [addr, m] : mappings_) {
      if (m.physical != 0) writes_.MappingRemoving(AsVaMapping(m));
      memory_->UnmapVa(addr, m.size);
    }
    mappings_.clear();
    runs_.clear();
    physical_.clear();
    va_ranges_.ReserveAll();
    {
      // Placed reservations keep their addresses until put back.
      MutexLock placed_lock(&slot_->placed_mu);
      for (auto& [addr, p] : slot_->placed) p.live = false;
    }
    memory_->ForgetCommits();
  }
  ClearErrors(*slot_);
  MutexLock lock(&ids_mu_);
  for (auto& ids : ids_) ids->Reset();
  return absl::OkStatus();
}

// --- Write tracking (DESIGN.md §4.14) ---------------------------------------

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
  const std::optional<DeviceAddr> at = WindowAddress(dst, size);
  if (!at.has_value()) return nullptr;
  // The window takes write-tracking faults while armed; the alias never.
  const bool armed = writes_.window_armed();
  uint8_t* target =
      armed ? memory_->Alias(*at) : static_cast<uint8_t*>(AsPointer(*at));
  // A range below kFileWriteBytes is not populated here: asking whether it
  // is mapped costs as much as its few faults, and a batch of them is
  // prepared as a whole (PrepareForWrite).
  if (target == nullptr ||
      (size >= kFileWriteBytes &&
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

absl::Status SimDevice::RunBlocks(uint32_t blocks, uint32_t cores,
                                  absl::FunctionRef<void(uint32_t)> body) {
  cores_.Run(blocks, cores, body);
  return absl::OkStatus();
}

absl::Status SimDevice::RunKernel(const KernelLaunch& launch,
                                  absl::FunctionRef<bool()> stopping,
                                  KernelLaunchResult* result) {
  return sim::RunKernel(*this, launch, stopping, result);
}

}  // namespace ascend::device::sim
