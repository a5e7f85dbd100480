// SimDevice's memory and copies (device_memory.h): allocations of the
// device's memory window, copies (also between two devices), fills and
// checksums, with the one-shot copy faults a test injects.
#include <algorithm>
#include <cstdint>
#include <cstring>
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
#include "device/checksum.h"
#include "device/device.h"
#include "device/sim/internal/range_allocator.h"
#include "device/sim/sim_device.h"

namespace ascend::device::sim {

namespace {

using internal::RangeAllocator;

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

}  // namespace

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

}  // namespace ascend::device::sim
