// Private to //device/sim: one opened simulated device, and the per-device
// state that outlives it (the reserved memory window and pending faults).
// See sim_backend.h for the behaviour.
#ifndef ASCENDCL_DEVICE_SIM_SIM_DEVICE_H_
#define ASCENDCL_DEVICE_SIM_SIM_DEVICE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/device.h"
#include "device/sim/internal/core_pool.h"
#include "device/sim/internal/device_memory.h"
#include "device/sim/internal/device_writes.h"
#include "device/sim/internal/id_allocator.h"
#include "device/sim/internal/range_allocator.h"

namespace ascend::device::sim {

// What a backend keeps per device id, shared with the device while it is
// open (so either may go first).
struct DeviceSlot {
  DeviceSlot(int32_t id, const void* owner) : id(id), owner(owner) {}

  const int32_t id;
  const void* const owner;  // the backend that made the slot

  Mutex mu;
  bool open ABSL_GUARDED_BY(mu) = false;
  // Reserved at the first Open, then kept for the slot's lifetime.
  std::unique_ptr<internal::DeviceMemory> memory ABSL_GUARDED_BY(mu);
  // `memory`, published for lock-free readers (fault injection,
  // DeviceOwningAddress).
  std::atomic<internal::DeviceMemory*> published_memory{nullptr};

  // One-shot copy faults (see sim_backend.h).
  std::atomic<bool> fail_next_copy{false};
  std::atomic<bool> corrupt_next_copy{false};

  // Ranges hit by an injected uncorrectable memory error (Fault::kMemoryError)
  // and not yet repaired, by base address; `any_memory_error` keeps reads
  // that meet none to one relaxed load. Cleared when the device closes or is
  // re-opened (a snapshot Restore writes the memory again).
  Mutex errors_mu;
  std::vector<Allocation> memory_errors ABSL_GUARDED_BY(errors_mu);
  std::atomic<bool> any_memory_error{false};

  // Memory-loss faults injected so far (a write-tracking period that saw
  // one counts everything as written).
  std::atomic<uint64_t> memory_losses{0};
  // The open device's write tracking, told of a memory loss before the
  // memory is zeroed (DeviceWrites::LoseAll).
  Mutex writes_mu;
  internal::DeviceWrites* writes ABSL_GUARDED_BY(writes_mu) = nullptr;

  // Reservations of the placed window (device.h's kPlacedVaBegin..End) by
  // address: each holds its range of the process's address space
  // (DeviceMemory::PlaceAt) until released or the device closes. `live`
  // is false for one a re-open dropped and a restore has not put back.
  struct Placed {
    uint64_t size = 0;
    bool live = true;
  };
  mutable Mutex placed_mu;
  std::map<DeviceAddr, Placed> placed ABSL_GUARDED_BY(placed_mu);
  // Whether `addr` lies in one of them (the backend's DeviceOwningAddress).
  bool HoldsPlaced(DeviceAddr addr) const {
    MutexLock lock(&placed_mu);
    auto it = placed.upper_bound(addr);
    if (it == placed.begin()) return false;
    --it;
    return addr - it->first < it->second.size;
  }
};

class SimDevice final : public Device {
 public:
  // `slot` must be marked open with its memory reserved (at least
  // `capacity` bytes). Stream (notify) ids are further bounded by
  // `max_streams` (`max_notifies`).
  SimDevice(std::shared_ptr<DeviceSlot> slot, uint64_t capacity,
            uint32_t max_ids_per_kind, uint32_t max_streams,
            uint32_t max_notifies);
  ~SimDevice() override;

  int32_t id() const override { return slot_->id; }
  absl::Status Reopen() override;

  // Memory and copies (sim_device_memory.cc).
  absl::StatusOr<DeviceAddr> Allocate(uint64_t size,
                                      uint64_t alignment) override;
  absl::Status Free(DeviceAddr addr) override;
  std::optional<Allocation> FindAllocation(DeviceAddr addr) const override;
  std::vector<Allocation> Allocations() const override;
  uint64_t AllocationsVersion() const override;
  MemoryInfo GetMemoryInfo() const override;
  absl::Status CopyToDevice(DeviceAddr dst, const void* src,
                            uint64_t size) override;
  absl::Status CopyFromDevice(void* dst, DeviceAddr src,
                              uint64_t size) override;
  absl::Status CopyWithinDevice(DeviceAddr dst, DeviceAddr src,
                                uint64_t size) override;
  absl::Status Fill(DeviceAddr dst, uint8_t value, uint64_t size) override;
  absl::StatusOr<uint64_t> Checksum(DeviceAddr addr, uint64_t size) override;
  absl::StatusOr<uint64_t> CopyFromDeviceWithChecksum(void* dst, DeviceAddr src,
                                                      uint64_t size) override;
  absl::StatusOr<uint64_t> CopyToDeviceWithChecksum(DeviceAddr dst,
                                                    const void* src,
                                                    uint64_t size) override;
  void PrepareForWrite(DeviceAddr addr, uint64_t size) override;
  absl::Status CopyToDeviceWithChecksums(DeviceAddr dst, const void* src,
                                         uint64_t size, uint64_t piece_bytes,
                                         uint64_t* checksums) override;
  std::vector<Allocation> DataRanges(DeviceAddr addr,
                                     uint64_t size) const override;
  absl::Status Discard(DeviceAddr addr, uint64_t size) override;
  void* HostPointer(DeviceAddr addr) override;
  absl::Status AllocateAt(DeviceAddr addr, uint64_t size) override;

  // Virtual memory (sim_device_vmm.cc).
  uint64_t PhysicalGranularity() const override;
  absl::StatusOr<DeviceAddr> AllocatePhysical(uint64_t size) override;
  absl::Status AllocatePhysicalAt(DeviceAddr id, uint64_t size) override;
  absl::Status FreePhysical(DeviceAddr id) override;
  absl::StatusOr<DeviceAddr> ReserveAddress(uint64_t size,
                                            DeviceAddr at) override;
  absl::Status ReleaseAddress(DeviceAddr addr) override;
  absl::Status MapPhysical(DeviceAddr addr, uint64_t size, DeviceAddr id,
                           uint64_t offset) override;
  absl::Status MapShared(DeviceAddr addr, const SharedMemory& memory) override;
  absl::Status Unmap(DeviceAddr addr) override;
  absl::Status SetMappingAccess(DeviceAddr addr, MemAccess access) override;
  absl::StatusOr<SharedMemory> ShareMemory(DeviceAddr addr,
                                           uint64_t size) override;
  std::vector<Allocation> Reservations() const override;
  std::vector<Allocation> PhysicalAllocations() const override;
  std::vector<Mapping> Mappings() const override;

  // Compute (sim_device_compute.cc).
  absl::Status RunBlocks(uint32_t blocks, uint32_t cores,
                         absl::FunctionRef<void(uint32_t)> body) override;
  absl::Status RunKernel(const KernelLaunch& launch,
                         absl::FunctionRef<bool()> stopping,
                         KernelLaunchResult* result) override;

  // Write tracking (sim_device_writes.cc).
  std::string WriteTracking() const override;
  absl::Status TrackWrites(const std::vector<Allocation>& ranges) override;
  absl::StatusOr<std::vector<Allocation>> WrittenRanges() override;
  absl::StatusOr<std::vector<Allocation>> RestartWriteTracking(
      const std::vector<Allocation>& ranges) override;
  void* KernelWriteTarget(void* dst, uint64_t size) override;

  // Uncorrectable memory errors (sim_device_health.cc).
  absl::StatusOr<std::vector<Allocation>> MemoryErrors() const override;
  absl::Status RepairMemoryErrors(DeviceAddr addr, uint64_t size) override;

  // Resource ids (sim_device_ids.cc).
  absl::StatusOr<uint32_t> AllocateId(ResourceKind kind) override;
  absl::Status ClaimId(ResourceKind kind, uint32_t id) override;
  void ReleaseId(ResourceKind kind, uint32_t id) override;
  std::optional<uint32_t> FreeIdCount(ResourceKind kind) const override;

  const void* owner() const { return slot_->owner; }

  // Copies between two devices of the same backend (Backend::CopyPeer).
  // Locks both devices in ascending id order, which the analysis cannot
  // follow.
  static absl::Status CopyPeer(SimDevice& dst_device, DeviceAddr dst,
                               SimDevice& src_device, DeviceAddr src,
                               uint64_t size) ABSL_NO_THREAD_SAFETY_ANALYSIS;

 private:
  // What a copy does with a range it names: read it, write it, or only
  // refer to it (sharing it).
  enum class Use { kRead, kWrite, kRefer };
  // kInvalidArgument unless [addr, addr + size) lies in one live allocation,
  // or in one run of mappings whose access permits `use`.
  absl::Status CheckRange(DeviceAddr addr, uint64_t size,
                          absl::string_view what, Use use) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // A memory-error status when [addr, addr + size) overlaps a range hit by
  // an uncorrectable error, else OK.
  absl::Status CheckReadable(DeviceAddr addr, uint64_t size) const;
  // kInvalidArgument unless [addr, addr + size) lies in one reservation,
  // every byte of it is mapped (size 0: `addr` is mapped) and the mappings'
  // access permits `use`.
  absl::Status CheckMapped(DeviceAddr addr, uint64_t size,
                           absl::string_view what, Use use) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The live reservation holding `addr`: one of the device's virtual
  // address window or of the placed window.
  std::optional<internal::RangeAllocator::Block> FindReservation(
      DeviceAddr addr) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // ReserveAddress / ReleaseAddress in the placed window.
  absl::StatusOr<DeviceAddr> ReservePlaced(uint64_t size, DeviceAddr at)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status ReleasePlaced(DeviceAddr addr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // kInvalidArgument unless [addr, addr + size) is granularity-aligned,
  // inside one reservation and overlaps no mapping.
  absl::Status CheckMappable(DeviceAddr addr, uint64_t size) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Records a new mapping of [addr, addr + size) in runs_ / drops it.
  void AddRun(DeviceAddr addr, uint64_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveRun(DeviceAddr addr, uint64_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The run holding `addr`, if any.
  std::optional<Allocation> FindRun(DeviceAddr addr) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::Status CommitBlock(DeviceAddr addr, uint64_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<internal::IdAllocator*> Ids(ResourceKind kind)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(ids_mu_);
  // Where the device's own copy engine writes [dst, dst + size) (checked to
  // be device memory): while writes are tracked, the same bytes through the
  // memory file's alias, recorded as written, so the copy takes no
  // write-tracking fault (DESIGN.md §4.14); else the address itself.
  void* WriteTarget(DeviceAddr dst, uint64_t size)
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The memory window's address of [dst, dst + size) (checked to be device
  // memory) when it lies in the window or in one mapping of this device's
  // physical memory; else nullopt (imported memory, across mappings).
  std::optional<DeviceAddr> WindowAddress(DeviceAddr dst, uint64_t size) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Where a verified copy of [dst, dst + size) writes so that it takes no
  // fault per page: the window (or, while writes are tracked, the memory
  // file's alias, the range recorded as written) with its page tables
  // populated in one call. Null where that cannot be done.
  unsigned char* VerifiedTarget(DeviceAddr dst, uint64_t size)
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Writes `size` bytes at `dst` with write(2) into the memory file, not
  // through a mapping (on a VM every first touch of a page through a
  // mapping exits to the hypervisor; the file write takes none), and
  // returns the checksum of what the file then holds there, read back.
  // nullopt where the bytes are not in this device's file or the file
  // refuses the write: the caller then copies through the mapping.
  std::optional<absl::StatusOr<uint64_t>> WriteThroughFile(DeviceAddr dst,
                                                           const void* src,
                                                           uint64_t size)
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // The virtual address mappings of this device's own memory, as write
  // tracking sees them.
  std::vector<internal::DeviceWrites::VaMapping> VaMappings() const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // `ranges` as write tracking takes them; kInvalidArgument for one outside
  // the memory window.
  absl::StatusOr<std::vector<internal::DeviceWrites::Range>> TrackedRanges(
      const std::vector<Allocation>& ranges) const;
  static internal::DeviceWrites::VaMapping AsVaMapping(const Mapping& m) {
    return {m.addr, m.size, m.physical + m.offset};
  }

  const std::shared_ptr<DeviceSlot> slot_;
  internal::DeviceMemory* const memory_;

  // Held shared by copies, fill and checksum (which may run in parallel) and
  // exclusively by whatever changes the allocations. Copies therefore never
  // race with a Free of the memory they touch.
  mutable SharedMutex mu_;
  internal::RangeAllocator ranges_ ABSL_GUARDED_BY(mu_);
  // The virtual address window: reservations.
  internal::RangeAllocator va_ranges_ ABSL_GUARDED_BY(mu_);
  // Physical allocations (blocks of ranges_) by id = address, with the
  // number of mappings of each.
  std::map<DeviceAddr, uint32_t> physical_ ABSL_GUARDED_BY(mu_);
  // Mappings by address.
  std::map<DeviceAddr, Mapping> mappings_ ABSL_GUARDED_BY(mu_);
  // Maximal runs of adjacent mappings inside one reservation (start ->
  // size): what one copy may cover, and what FindAllocation reports for a
  // mapped address.
  std::map<DeviceAddr, uint64_t> runs_ ABSL_GUARDED_BY(mu_);
  // Whether ShareMemory ever handed out the memory file: then closing the
  // device detaches from the file instead of dropping its pages, which
  // other processes may still map (DeviceMemory::DetachAll).
  std::atomic<bool> shared_{false};

  // What was written in the current write-tracking period (DESIGN.md
  // §4.14), and slot_->memory_losses when it began.
  internal::DeviceWrites writes_;
  uint64_t losses_at_start_ ABSL_GUARDED_BY(mu_) = 0;

  // The device's cores, which run kernel blocks (RunBlocks).
  internal::CorePool cores_;

  // Separate so id traffic never waits for a long copy.
  mutable Mutex ids_mu_;
  // One id space per ResourceKind, indexed by kind.
  std::vector<std::unique_ptr<internal::IdAllocator>> ids_
      ABSL_GUARDED_BY(ids_mu_);
};

// Shared by SimDevice's source files (sim_device*.cc).

inline void* AsPointer(DeviceAddr addr) {
  return reinterpret_cast<void*>(addr);
}

// `size` rounded up to the memory window's granularity.
inline uint64_t Extent(uint64_t size) {
  return (size + internal::RangeAllocator::kGranularity - 1) &
         ~(internal::RangeAllocator::kGranularity - 1);
}

// Drops the error ranges overlapping [addr, addr + size); returns them
// (sim_device_health.cc).
std::vector<Allocation> TakeErrors(DeviceSlot& slot, DeviceAddr addr,
                                   uint64_t size);
// Drops every error range (the device closes or is re-opened).
void ClearErrors(DeviceSlot& slot);

}  // namespace ascend::device::sim

#endif  // ASCENDCL_DEVICE_SIM_SIM_DEVICE_H_
