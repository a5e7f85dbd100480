// The device interface, memory and copies (see device.h for the whole
// interface, its errors and its thread safety): allocations of device memory,
// synchronous copies, fills and checksums, the snapshot's view of what memory
// holds data.
#ifndef ASCENDCL_DEVICE_DEVICE_MEMORY_H_
#define ASCENDCL_DEVICE_DEVICE_MEMORY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device {

// A device virtual address. Never a valid host pointer unless the backend
// says so through Device::HostPointer.
using DeviceAddr = uint64_t;

struct MemoryInfo {
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;
};

struct Allocation {
  DeviceAddr addr = 0;
  uint64_t size = 0;
};

// Device memory and copies: what every backend implements (Device).
class MemoryOps {
 public:
  virtual ~MemoryOps() = default;

  // Allocates `size` bytes aligned to `alignment` (a power of two), zero
  // filled. Addresses stay stable for the allocation's lifetime.
  virtual absl::StatusOr<DeviceAddr> Allocate(uint64_t size,
                                              uint64_t alignment) = 0;
  // Frees an allocation by its base address.
  virtual absl::Status Free(DeviceAddr addr) = 0;
  // The live allocation containing `addr`, if any; for a mapped address of
  // the virtual address window, the run of adjacent mappings holding it
  // inside its reservation (what one copy may cover). Allocations() lists
  // no runs.
  virtual std::optional<Allocation> FindAllocation(DeviceAddr addr) const = 0;
  // Every live allocation, in ascending address order.
  virtual std::vector<Allocation> Allocations() const = 0;
  // A value that changes whenever an allocation is made or freed (never
  // repeating within a process), so that a caller who saw it can tell that
  // Allocations() is still what it was without listing them; 0 where the
  // backend cannot tell.
  virtual uint64_t AllocationsVersion() const { return 0; }
  virtual MemoryInfo GetMemoryInfo() const = 0;

  // Synchronous copies and fill. Device ranges must lie inside one live
  // allocation of this device.
  virtual absl::Status CopyToDevice(DeviceAddr dst, const void* src,
                                    uint64_t size) = 0;
  virtual absl::Status CopyFromDevice(void* dst, DeviceAddr src,
                                      uint64_t size) = 0;
  virtual absl::Status CopyWithinDevice(DeviceAddr dst, DeviceAddr src,
                                        uint64_t size) = 0;
  virtual absl::Status Fill(DeviceAddr dst, uint8_t value, uint64_t size) = 0;

  // Integrity checksum of a device range computed by the device itself (not
  // through a copy), so a corrupted transfer can be detected.
  virtual absl::StatusOr<uint64_t> Checksum(DeviceAddr addr, uint64_t size) = 0;

  // CopyFromDevice that also returns the device's checksum of the source
  // range (what Checksum(src, size) returns for the bytes sent), so the
  // caller can verify its copy; `dst` must not overlap the device range. A
  // backend that can hash while it copies reads the source once; this default
  // copies, then hashes on the device.
  virtual absl::StatusOr<uint64_t> CopyFromDeviceWithChecksum(void* dst,
                                                              DeviceAddr src,
                                                              uint64_t size) {
    absl::Status copied = CopyFromDevice(dst, src, size);
    if (!copied.ok()) return copied;
    return Checksum(src, size);
  }
  // CopyToDevice that also returns the device's checksum of the range after
  // the copy (what landed), so the caller can verify the transfer. A backend
  // that can hash each piece as it lands avoids a second pass over the range.
  virtual absl::StatusOr<uint64_t> CopyToDeviceWithChecksum(DeviceAddr dst,
                                                            const void* src,
                                                            uint64_t size) {
    absl::Status copied = CopyToDevice(dst, src, size);
    if (!copied.ok()) return copied;
    return Checksum(dst, size);
  }

  // A batch of writes (verified copies) is about to cover most of
  // [addr, addr + size), which may span several allocations and the small
  // gaps between them: the backend may map its page tables for writing
  // ahead, in one step, so that the copies take no fault per page. A hint:
  // nothing happens where there is nothing to prepare or the range is not
  // this device's plain memory.
  virtual void PrepareForWrite(DeviceAddr addr, uint64_t size) {}

  // CopyToDeviceWithChecksum of several pieces lying back to back from
  // `dst`: `size` bytes in pieces of `piece_bytes` (the last may be
  // shorter), as one transfer; checksums[i] gets the device's checksum of
  // what landed of piece i. A backend that can hash each piece as it lands
  // pays the per-copy costs once; this default copies piece by piece.
  virtual absl::Status CopyToDeviceWithChecksums(DeviceAddr dst,
                                                 const void* src, uint64_t size,
                                                 uint64_t piece_bytes,
                                                 uint64_t* checksums) {
    if (piece_bytes == 0) {
      return absl::InvalidArgumentError("pieces of 0 bytes");
    }
    const auto* from = static_cast<const uint8_t*>(src);
    for (uint64_t at = 0, i = 0; at < size; at += piece_bytes, ++i) {
      const uint64_t n = size - at < piece_bytes ? size - at : piece_bytes;
      absl::StatusOr<uint64_t> sum =
          CopyToDeviceWithChecksum(dst + at, from + at, n);
      if (!sum.ok()) return sum.status();
      checksums[i] = *sum;
    }
    return absl::OkStatus();
  }

  // The parts of [addr, addr + size) that may hold non-zero bytes, ascending
  // and disjoint: every byte outside them reads as zero (it was never
  // written). The range need not lie in allocations. A backend that cannot
  // tell returns the whole range (this default); the simulator knows which
  // pages were ever touched. The snapshot saves only these parts.
  virtual std::vector<Allocation> DataRanges(DeviceAddr addr,
                                             uint64_t size) const {
    return {Allocation{addr, size}};
  }
  // Makes [addr, addr + size), inside one live allocation, read as zero. A
  // backend that can returns the backing memory instead of writing zeros
  // (the simulator drops the pages); this default fills.
  virtual absl::Status Discard(DeviceAddr addr, uint64_t size) {
    return Fill(addr, 0, size);
  }

  // A host pointer to `addr` when device memory is host-addressable (the
  // simulator), else nullptr. Valid while the allocation lives.
  virtual void* HostPointer(DeviceAddr addr) = 0;

  // Snapshot primitive: re-establishes an allocation at exactly `addr`
  // (zero-filled); fails with kAlreadyExists if any part of the range is in
  // use.
  virtual absl::Status AllocateAt(DeviceAddr addr, uint64_t size) = 0;
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_MEMORY_H_
