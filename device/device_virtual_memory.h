// The device interface, virtual memory (see device.h for the whole
// interface): physical allocations, reservations of the device's virtual
// address window, mappings and their access, memory shared with another
// process. A backend that cannot map memory keeps the defaults.
#ifndef ASCENDCL_DEVICE_DEVICE_VIRTUAL_MEMORY_H_
#define ASCENDCL_DEVICE_DEVICE_VIRTUAL_MEMORY_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device_memory.h"

namespace ascend::device {

// Memory of one device shared with another process or mapped at a second
// address: `size` bytes at `offset` (both page-aligned) of the file `fd`;
// the range asked for starts `inner` bytes in. The receiver owns `fd` and
// must close it.
struct SharedMemory {
  int fd = -1;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t inner = 0;
};

// The address window where a reservation may be placed at an address the
// caller chooses (CANN's aclrtReserveMemAddress `expectPtr`: 16 TiB to
// 24 TiB), outside every device's own windows.
inline constexpr DeviceAddr kPlacedVaBegin = DeviceAddr{16} << 40;
inline constexpr DeviceAddr kPlacedVaEnd = DeviceAddr{24} << 40;

// What the mapping device may do with a mapping (Device::SetMappingAccess):
// the values of CANN's aclrtMemAccessFlags.
enum class MemAccess : uint32_t { kNone = 0, kRead = 1, kReadWrite = 3 };

// One mapping of a device's virtual address window (Device::Mappings).
struct Mapping {
  DeviceAddr addr = 0;
  uint64_t size = 0;
  // The physical allocation mapped (Device::AllocatePhysical) and the offset
  // into it; 0 for memory of another process or device (MapShared).
  DeviceAddr physical = 0;
  uint64_t offset = 0;
  // The access the device enforces on it (read-write when mapped).
  MemAccess access = MemAccess::kReadWrite;
};

// Physical allocations, reservations and mappings (Device).
class VirtualMemoryOps {
 public:
  virtual ~VirtualMemoryOps() = default;

  // The granularity of physical allocations, reservations and mappings; 0
  // when the backend cannot map memory (every call below then answers
  // kUnimplemented).
  virtual uint64_t PhysicalGranularity() const { return 0; }
  // Allocates `size` bytes (a multiple of the granularity) of physical
  // memory, zero filled, and returns its id: its address in the device's
  // memory, which nothing but the snapshot should use (the memory is used
  // through mappings). It is also an allocation (Allocations lists it, so
  // the snapshot saves its bytes once however often it is mapped).
  virtual absl::StatusOr<DeviceAddr> AllocatePhysical(uint64_t size) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Re-establishes physical allocation `id` (after Reopen), like AllocateAt.
  virtual absl::Status AllocatePhysicalAt(DeviceAddr id, uint64_t size) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // kFailedPrecondition while it is mapped.
  virtual absl::Status FreePhysical(DeviceAddr id) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Reserves `size` bytes (a multiple of the granularity) of the device's
  // virtual address space, at `at` when not 0 (kAlreadyExists when taken,
  // kInvalidArgument when outside the space or misaligned); `at` may also
  // lie in [kPlacedVaBegin, kPlacedVaEnd), where backends that can place
  // reservations take it. Nothing is accessible until mapped.
  virtual absl::StatusOr<DeviceAddr> ReserveAddress(uint64_t size,
                                                    DeviceAddr at) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Releases the reservation starting at `addr`; kFailedPrecondition while
  // any part of it is mapped.
  virtual absl::Status ReleaseAddress(DeviceAddr addr) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Maps [offset, offset + size) of physical allocation `id` at `addr`,
  // inside one reservation and over nothing mapped (granularity-aligned).
  virtual absl::Status MapPhysical(DeviceAddr addr, uint64_t size,
                                   DeviceAddr id, uint64_t offset) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Maps memory of another process or device (`memory.size` bytes) at
  // `addr`, inside one reservation; the device keeps no copy of the fd.
  virtual absl::Status MapShared(DeviceAddr addr, const SharedMemory& memory) {
    return absl::UnimplementedError("this backend cannot share memory");
  }
  // Unmaps the mapping starting at `addr` (kInvalidArgument when none does).
  virtual absl::Status Unmap(DeviceAddr addr) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Sets what the device may do with the mapping starting at `addr` (a new
  // mapping is read-write): copies, fills and kernels that read memory
  // without read access, or write it without write access, fail
  // (kInvalidArgument for copies; a kernel takes a memory fault). Nothing
  // changes on failure.
  virtual absl::Status SetMappingAccess(DeviceAddr addr, MemAccess access) {
    return absl::UnimplementedError("this backend cannot map memory");
  }
  // Shares [addr, addr + size), inside one live allocation or one mapping of
  // a physical allocation, with another process or address.
  virtual absl::StatusOr<SharedMemory> ShareMemory(DeviceAddr addr,
                                                   uint64_t size) {
    return absl::UnimplementedError("this backend cannot share memory");
  }
  // Every reservation, physical allocation and mapping, ascending.
  virtual std::vector<Allocation> Reservations() const { return {}; }
  virtual std::vector<Allocation> PhysicalAllocations() const { return {}; }
  virtual std::vector<Mapping> Mappings() const { return {}; }
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_VIRTUAL_MEMORY_H_
