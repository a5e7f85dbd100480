// Virtual memory management (DESIGN.md §5.18): physical allocations,
// reservations of device address space, mappings of the one into the other,
// access rights, and the snapshot participant that brings them all back.
//
//   Vmm& vmm = Memory::Of(runtime)->vmm();
//   ASCEND_ASSIGN_OR_RETURN(void* va, vmm.Reserve(64 << 20, nullptr, 0));
//   ASCEND_ASSIGN_OR_RETURN(void* handle, vmm.MallocPhysical(2 << 20, prop));
//   ASCEND_RETURN_IF_ERROR(vmm.Map(va, 2 << 20, 0, handle));
//
// The device does the address work (Device::ReserveAddress, MapPhysical, ...);
// this layer owns what CANN's API adds on top: handles (aclrtDrvMemHandle)
// that never repeat, the properties a physical allocation was made with,
// reference counts (aclrtMemRetainAllocationHandle; aclrtFreePhysical of a
// mapped allocation frees it when its last mapping goes), access rights, and
// the records the snapshot needs, which are keyed by the device opening they
// were made on (a device reset drops them with the device).
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_RUNTIME_MEMORY_VMM_H_
#define ASCENDCL_RUNTIME_MEMORY_VMM_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "runtime/base/handle.h"
#include "runtime/snapshot_participant.h"

namespace ascend::rt {

class Runtime;

class Vmm {
 public:
  explicit Vmm(Runtime& runtime) : runtime_(runtime) {}
  Vmm(const Vmm&) = delete;
  Vmm& operator=(const Vmm&) = delete;

  // aclrtMemGetAllocationGranularity: the granularity of device `prop`.
  absl::StatusOr<uint64_t> Granularity(const aclrtPhysicalMemProp& prop,
                                       bool recommended) const;
  // aclrtMallocPhysical; `prop` validated by ValidateProp.
  absl::StatusOr<void*> MallocPhysical(uint64_t size,
                                       const aclrtPhysicalMemProp& prop);
  // aclrtFreePhysical: drops one reference; the memory goes when no
  // reference and no mapping is left.
  absl::Status FreePhysical(void* handle);
  // aclrtReserveMemAddress on the current device (size rounded up to the
  // granularity).
  absl::StatusOr<void*> Reserve(uint64_t size, void* expect, uint64_t flags);
  absl::Status Release(void* va);
  // aclrtMapMem / aclrtMemMapNoAccess (`access` is the mapping device's
  // initial right).
  absl::Status Map(void* va, uint64_t size, uint64_t offset, void* handle,
                   uint64_t access = ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  absl::Status Unmap(void* va);
  // aclrtMemSetAccess / aclrtMemGetAccess.
  absl::Status SetAccess(void* va, uint64_t size,
                         const std::vector<aclrtMemAccessDesc>& descs);
  absl::StatusOr<uint64_t> GetAccess(void* va,
                                     const aclrtMemLocation& location) const;
  // aclrtMemRetainAllocationHandle: the handle mapped at `va`, with one
  // more reference (released by aclrtFreePhysical).
  absl::StatusOr<void*> Retain(void* va);
  absl::StatusOr<aclrtPhysicalMemProp> Properties(void* handle) const;
  // Whether `ptr` lies in a reservation of a live device (mapped or not).
  bool Reserved(const void* ptr) const;
  // aclrtMemGetAddressRange for a mapped address: the mapping holding it.
  std::optional<std::pair<void*, uint64_t>> MappingRange(const void* ptr) const;

  // Validates `prop` as aclrtMallocPhysical and the granularity query take
  // it: 100000 with a message naming the bad field, 207000 for memory this
  // simulator does not have (host physical memory, 1 GiB pages).
  absl::Status ValidateProp(const aclrtPhysicalMemProp& prop) const;

  // --- Sharing between processes (vmm_share.cc) ---------------------------
  // aclrtMemExportToShareableHandle: one shareable handle per physical
  // allocation, (pid << 32) | export id; `check_pid`: only whitelisted
  // processes may import it.
  absl::StatusOr<uint64_t> ExportPhysical(void* handle, bool check_pid);
  absl::Status AllowShareablePids(uint64_t shareable,
                                  const std::vector<int32_t>& pids);
  // aclrtMemImportFromShareableHandle: a handle on `device_id` (set in this
  // process) for physical memory another process exported.
  absl::StatusOr<void*> ImportPhysical(uint64_t shareable, int32_t device_id);
  // aclrtIpcMemGetExportKey and the rest of the aclrtIpcMem* family: device
  // memory (an allocation or a mapping) shared under a key.
  absl::StatusOr<std::string> IpcExport(void* ptr, uint64_t size,
                                        bool check_pid);
  absl::Status IpcAllowPids(const std::string& key,
                            const std::vector<int32_t>& pids);
  absl::Status IpcSetAttr(const std::string& key, uint64_t attr);
  // Maps the memory of `key` into a fresh reservation of the current device.
  absl::StatusOr<void*> IpcImport(const std::string& key);
  absl::Status IpcClose(const std::string& key);
  // Why the device cannot be backed up while memory is shared with another
  // process (imported here, or exported and imported there, also memory
  // freed here that another process still imports); OK otherwise.
  absl::Status CheckNotShared(int32_t device_id);

  // aclrtFree of allocation [addr, addr + size) of `device_id`. True when
  // memory of it exported with aclrtIpcMemGetExportKey is still imported by
  // another process: the device keeps the allocation until the last
  // importer lets go (its kernels may still read it, as on hardware, where
  // physical memory goes with its last mapping), and the caller treats it
  // as freed. Its exports are withdrawn either way of a deferral: freed
  // memory cannot be imported anew.
  bool DeferFreeWhileImported(int32_t device_id, device::DeviceAddr addr,
                              uint64_t size);
  // Whether `addr` is an allocation whose free was deferred.
  bool FreeDeferred(device::DeviceAddr addr) const;
  // Frees the deferred allocations no other process imports any more.
  // Costs one atomic load when there is none.
  void SweepDeferredFrees();

  // The snapshot participant ("vmm"): registered before "allocations".
  std::unique_ptr<SnapshotParticipant> MakeParticipant();

  // What this device's opening `generation` holds, for the participant.
  struct PhysicalRecord {
    void* handle = nullptr;
    device::DeviceAddr id = 0;
    uint64_t size = 0;
    aclrtPhysicalMemProp prop{};
    int32_t references = 1;
    uint32_t mappings = 0;
    // Exported to other processes: the broker's export id (0: not).
    uint32_t export_id = 0;
    // Imported from another process (then `id` is 0): the memory file
    // (owned by the record), the allocation's offset in it, its exporter.
    int imported_fd = -1;
    uint64_t imported_offset = 0;
    int32_t owner_pid = 0;
    uint32_t owner_export = 0;
  };
  struct ReservationRecord {
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    uint64_t flags = 0;
  };
  struct MappingRecord {
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    uint64_t offset = 0;
    void* handle = nullptr;
    // Access rights by device id.
    std::map<int32_t, uint64_t> access;
  };
  struct DeviceTables {
    uint64_t generation = 0;
    std::map<void*, PhysicalRecord> physical;  // by handle
    std::map<device::DeviceAddr, ReservationRecord> reservations;
    std::map<device::DeviceAddr, MappingRecord> mappings;
  };
  // A copy of device `device_id`'s tables (empty when it holds none).
  DeviceTables Tables(int32_t device_id) const;

 private:
  // The device's tables for its current opening (stale ones dropped).
  DeviceTables& TablesLocked(int32_t device_id, uint64_t generation)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The device whose tables hold `handle` / reservation or mapping `va`.
  struct Found {
    int32_t device_id = -1;
    std::shared_ptr<device::Device> device;
    DeviceTables* tables = nullptr;
  };
  absl::StatusOr<Found> FindHandleLocked(void* handle)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Found> FindAddressLocked(device::DeviceAddr va)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Frees the device memory of a record with no reference and no mapping.
  absl::Status MaybeFreeLocked(Found& found, void* handle)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Frees what waited for other processes to stop using it, and lets go of
  // what devices reset since took with them (DropStaleLocked).
  void SweepLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SweepDeferredFreesLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A device reset dropped its memory and mappings; what this process held
  // of other processes for it (imported files) is closed and released, and
  // its exports are withdrawn.
  void DropStaleLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Closes, releases and withdraws what `tables` holds of other processes.
  static void LetGoLocked(DeviceTables& tables);

  struct IpcExportRecord {
    int32_t device_id = -1;
    uint64_t generation = 0;
    uint32_t export_id = 0;
    device::DeviceAddr addr = 0;
    uint64_t size = 0;
    uint64_t attr = 0;
    bool withdrawn = false;  // its device was reset
  };
  struct IpcImportRecord {
    int32_t device_id = -1;
    uint64_t generation = 0;
    device::DeviceAddr reservation = 0;
    int32_t owner_pid = 0;
    uint32_t owner_export = 0;
    // Its device was reset: the mapping and the broker's import are gone,
    // only aclrtIpcMemClose is left to forget it.
    bool released = false;
  };

  Runtime& runtime_;
  mutable Mutex mu_;
  std::map<int32_t, DeviceTables> devices_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, IpcExportRecord> ipc_exports_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, IpcImportRecord> ipc_imports_ ABSL_GUARDED_BY(mu_);
  // Exports closed by aclrtIpcMemClose while another process still imported
  // them: an aclrtFree of their memory waits for that process.
  std::vector<IpcExportRecord> closed_exports_ ABSL_GUARDED_BY(mu_);
  // Allocations freed while imported elsewhere (DeferFreeWhileImported).
  struct DeferredFree {
    int32_t device_id = -1;
    uint64_t generation = 0;
    device::DeviceAddr addr = 0;
    std::vector<uint32_t> export_ids;  // still imported when freed
  };
  std::vector<DeferredFree> deferred_frees_ ABSL_GUARDED_BY(mu_);
  std::atomic<size_t> deferred_count_{0};
  // Set by the first aclrtIpcMemGetExportKey (never cleared).
  std::atomic<bool> ipc_exported_{false};
};

// The device access an aclrtMemAccessFlags value grants (none for any value
// but READ and READWRITE); defined in vmm.cc, used by its participant too.
device::MemAccess AsMemAccess(uint64_t flags);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MEMORY_VMM_H_
