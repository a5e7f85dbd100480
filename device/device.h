// The device interface: what the runtime needs from an accelerator, and what
// every backend (`sim`, `npu`) implements. Nothing here knows about ACL.
//
//   std::unique_ptr<Backend> backend = ...;           // see backend_registry.h
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Device> dev, backend->Open(0));
//   ASCEND_ASSIGN_OR_RETURN(DeviceAddr buf, dev->Allocate(4096, 32));
//   ASCEND_RETURN_IF_ERROR(dev->CopyToDevice(buf, host, 4096));
//
// Errors are absl::Status with canonical codes; the runtime maps them to ACL
// codes in one place:
//   kInvalidArgument   bad address/range/size, address not in an allocation
//   kOutOfRange        device id out of range
//   kResourceExhausted out of device memory or ids
//   kAlreadyExists     AllocateAt/ClaimId on a taken range/id
//   kFailedPrecondition device not open / open twice
//   kUnimplemented     the backend or its driver lacks the operation
//   kDataLoss          a copy failed (e.g. an injected fault); a read of a
//                      range hit by an uncorrectable memory error carries
//                      the payload IsMemoryError() tests
//   kUnavailable       the driver library is missing
//
// Thread safety: every method may be called concurrently from any thread.
#ifndef ASCENDCL_DEVICE_DEVICE_H_
#define ASCENDCL_DEVICE_DEVICE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device/kernel.h"

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

// Kinds of numeric resource ids a device hands out: one id space each. A new
// kind goes before kCount; every table sized by kinds uses kResourceKindCount
// (and static_asserts it where the size is written out).
enum class ResourceKind : int {
  kStream = 0,
  kEvent = 1,
  kNotify = 2,
  kCntNotify = 3,
  kCount
};
inline constexpr int kResourceKindCount =
    static_cast<int>(ResourceKind::kCount);

// Faults a backend can simulate (only `sim` implements them).
enum class Fault : int {
  kMemoryLoss = 0,        // every allocation's contents read as zero
  kNextCopyFails = 1,     // the next copy on the device returns kDataLoss
  kNextCopyCorrupts = 2,  // the next copy on the device flips one byte
  // A range of device memory is hit by an uncorrectable error (UCE): reads
  // of it fail until it is repaired. Needs a range: Backend::InjectRangeFault.
  kMemoryError = 3,
};

// The payload that tells a read of a range with an uncorrectable memory error
// (Fault::kMemoryError) from other failed copies.
inline constexpr absl::string_view kMemoryErrorPayload =
    "ascend.device/memory-error";

inline absl::Status MemoryErrorStatus(absl::string_view message) {
  absl::Status status = absl::DataLossError(message);
  status.SetPayload(kMemoryErrorPayload, absl::Cord("1"));
  return status;
}

inline bool IsMemoryError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kDataLoss &&
         status.GetPayload(kMemoryErrorPayload).has_value();
}

// Something the device reports asynchronously (read by the runtime's health
// monitor thread).
struct HealthEvent {
  int32_t device_id = -1;
  std::string description;
  bool device_abnormal = false;  // true until the next Reopen
  // When the condition arose: an event older than the device's current
  // opening describes an earlier one (the device was reset since).
  absl::Time raised = absl::InfinitePast();
};

// One device opened by this process. Owned by the runtime; destroying it
// closes the device and releases every allocation and id.
class Device {
 public:
  virtual ~Device() = default;

  virtual int32_t id() const = 0;

  // --- Memory -------------------------------------------------------------
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

  // --- Resource ids -------------------------------------------------------
  virtual absl::StatusOr<uint32_t> AllocateId(ResourceKind kind) = 0;
  // Claims exactly `id` (after a re-open): kAlreadyExists when taken.
  virtual absl::Status ClaimId(ResourceKind kind, uint32_t id) = 0;
  virtual void ReleaseId(ResourceKind kind, uint32_t id) = 0;
  // How many ids of `kind` AllocateId can still hand out; nullopt when the
  // backend cannot tell.
  virtual std::optional<uint32_t> FreeIdCount(ResourceKind kind) const {
    return std::nullopt;
  }

  // --- Snapshot primitives ------------------------------------------------
  // Closes and re-opens the device: every allocation (and its contents),
  // physical allocation, mapping and id is dropped, but the addresses of the
  // dropped allocations and reservations stay reserved so AllocateAt,
  // AllocatePhysicalAt and ReserveAddress can put them back where they were.
  virtual absl::Status Reopen() = 0;
  // Re-establishes an allocation at exactly `addr` (zero-filled); fails with
  // kAlreadyExists if any part of the range is in use.
  virtual absl::Status AllocateAt(DeviceAddr addr, uint64_t size) = 0;

  // --- Virtual memory: physical allocations, reservations, mappings -------
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

  // --- Kernel execution ---------------------------------------------------
  // Runs body(block) for every block in [0, blocks) on up to `cores` of the
  // device's cores in parallel (the calling thread is one of them) and
  // returns when every call has returned. The simulator's cores are host
  // threads, so `body` is host code (a simulated kernel). kUnimplemented
  // where the backend cannot run host code on its cores (npu).
  virtual absl::Status RunBlocks(uint32_t blocks, uint32_t cores,
                                 absl::FunctionRef<void(uint32_t)> body) {
    return absl::UnimplementedError(
        "this backend cannot run simulated kernels");
  }
  // Runs a kernel of a module this device's backend loaded (or one compiled
  // into the program) for every block of `launch` and returns when every
  // block has returned; `stopping` is asked before each block starts (true:
  // the block is skipped). What the blocks raised and printed goes to
  // `result`; an error status is the launch's own failure. kUnimplemented
  // where the backend runs no kernels (npu).
  virtual absl::Status RunKernel(const KernelLaunch& launch,
                                 absl::FunctionRef<bool()> stopping,
                                 KernelLaunchResult* result) {
    return absl::UnimplementedError("this backend cannot run kernels");
  }

  // --- Uncorrectable memory errors (Fault::kMemoryError) ------------------
  // The ranges of this opening hit by an uncorrectable error and not yet
  // repaired, ascending. kUnimplemented where the backend cannot tell.
  virtual absl::StatusOr<std::vector<Allocation>> MemoryErrors() const {
    return absl::UnimplementedError(
        "this backend does not report memory errors");
  }
  // Repairs every error range overlapping [addr, addr + size): the range
  // reads again, its contents lost (zero). kNotFound when none overlaps.
  virtual absl::Status RepairMemoryErrors(DeviceAddr addr, uint64_t size) {
    return absl::UnimplementedError("this backend cannot repair memory errors");
  }

  // --- Write tracking (incremental snapshot, DESIGN.md §4.14) -------------
  // The mechanism that tells which device bytes were written, whoever wrote
  // them, or "" when this device cannot tell (every Backup is then full).
  virtual std::string WriteTracking() const { return {}; }
  // Starts a new tracking period over `ranges` (ascending, disjoint, inside
  // live allocations of the memory window): from now on WrittenRanges
  // reports the parts of them written after this call. kUnimplemented or
  // kUnavailable when the device cannot track (then nothing is tracked).
  virtual absl::Status TrackWrites(const std::vector<Allocation>& ranges) {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // The parts of the ranges of the last TrackWrites written since, whoever
  // wrote them (copies, kernels, host code, another process through shared
  // memory, a free, a memory loss), ascending and disjoint; may err towards
  // more. Reading does not start a new period: a second call reports at
  // least as much. kFailedPrecondition when no period is running.
  virtual absl::StatusOr<std::vector<Allocation>> WrittenRanges() {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // WrittenRanges and TrackWrites(ranges) in one step that writers running
  // meanwhile (kernels, host code, peers) cannot fall between: returns what
  // the ending period saw written, including what was written while the new
  // one started, and every later write is in the new period (a pre-copy
  // runs while the process does). May err towards more. kFailedPrecondition
  // when no period is running.
  virtual absl::StatusOr<std::vector<Allocation>> RestartWriteTracking(
      const std::vector<Allocation>& ranges) {
    return absl::UnimplementedError("this backend cannot track writes");
  }
  // Where a kernel running on this device writes the `size` bytes at `dst`
  // (a device address as the kernel sees it): a pointer that shows the same
  // bytes, whose writes are recorded as writes to that range without a
  // write-tracking fault per page; `dst` itself when nothing is tracked or
  // the range is not this device's plain memory. Any thread, while the
  // kernel runs.
  virtual void* KernelWriteTarget(void* dst, uint64_t size) { return dst; }
};

// A device backend ("driver"). One instance per process, made by the backend
// registry at start-up.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual absl::string_view name() const = 0;
  // Number of devices visible to the process (0 when the driver is missing).
  virtual int32_t DeviceCount() const = 0;
  // SoC name reported for the devices.
  virtual std::string SocName() const = 0;
  // Bytes of device memory of device `id` (whether or not it is open);
  // nullopt when the backend cannot tell without opening it.
  virtual std::optional<uint64_t> DeviceMemoryBytes(int32_t id) const {
    return std::nullopt;
  }
  // Opens device `id` in [0, DeviceCount()).
  virtual absl::StatusOr<std::unique_ptr<Device>> Open(int32_t id) = 0;

  // The device whose device address space holds `addr`, whether or not the
  // address is in a live allocation and whether or not the device is open
  // now (a freed pointer, or one of a closed device, still names its device).
  // nullopt when no device's address space holds `addr` or when the backend
  // cannot tell (its driver does not publish the ranges); the caller must then
  // treat the address as host memory. Never blocks.
  virtual std::optional<int32_t> DeviceOwningAddress(DeviceAddr addr) const = 0;

  // Whether `device` can read and write `peer`'s memory directly.
  virtual bool CanAccessPeer(int32_t device, int32_t peer) const = 0;
  // Copies between two open devices of this backend.
  virtual absl::Status CopyPeer(Device& dst_device, DeviceAddr dst,
                                Device& src_device, DeviceAddr src,
                                uint64_t size) = 0;

  // Driver-level process snapshot (npu: halProcessResBackup/Restore). The
  // simulator keeps no driver-side image: the runtime saves memory itself.
  // Loads a kernel binary (`image`, its bytes; `what` names it in messages).
  // kInvalidArgument when it is no binary of this backend or cannot be
  // loaded, kInternal when the host failed, kUnimplemented where the backend
  // loads no kernels (npu).
  virtual absl::StatusOr<std::unique_ptr<KernelModule>> LoadKernelModule(
      absl::string_view image, absl::string_view what) {
    return absl::UnimplementedError("this backend cannot load kernels");
  }

  virtual absl::Status BackupProcessResources() = 0;
  virtual absl::Status RestoreProcessResources() = 0;

  // Fault injection; kUnimplemented unless the backend simulates faults.
  virtual absl::Status InjectFault(int32_t device_id, Fault fault) = 0;
  // A fault on [addr, addr + size) of an open device (kMemoryError): the
  // caller has checked the range lies in one live allocation of the device.
  // kUnimplemented unless the backend simulates it.
  virtual absl::Status InjectRangeFault(int32_t device_id, Fault fault,
                                        DeviceAddr addr, uint64_t size) {
    return absl::UnimplementedError(
        "this backend does not simulate range faults");
  }

  // Blocks until a health event arrives, `timeout` passes, or
  // InterruptHealthWait is called; nullopt when none arrived.
  virtual std::optional<HealthEvent> WaitHealthEvent(
      absl::Duration timeout) = 0;
  // Wakes a thread blocked in WaitHealthEvent (it returns nullopt).
  virtual void InterruptHealthWait() = 0;
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_H_
