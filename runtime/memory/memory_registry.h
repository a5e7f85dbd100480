// What the runtime knows about each piece of memory it handed out or was
// told about, beyond what the device layer tracks: the kind of every device
// allocation (plain, managed, task scheduler), its page size and owning
// module, the pinned host allocations, the registered host ranges, the
// advice and prefetch state of managed memory (per 2 MiB page) and the
// per-module usage counts behind aclrtGetMemUsageInfo.
//
// All lookups by address are O(log n) in the number of entries of their
// table (B-tree maps searched with upper_bound). One mutex guards everything
// (ascend::Mutex, which ThreadSanitizer sees; every critical section is a
// few map operations). Used by runtime/memory.cc and
// runtime/memory_kinds.cc (DESIGN.md §5.15).
//
//   MemoryRegistry registry;
//   registry.AddDevice(addr, {size, device, kPage2M, kAppModule, kManaged});
//   std::optional<MemoryRegistry::DeviceFind> found = registry.FindDevice(p);
#ifndef ASCENDCL_RUNTIME_MEMORY_MEMORY_REGISTRY_H_
#define ASCENDCL_RUNTIME_MEMORY_MEMORY_REGISTRY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"

namespace ascend::rt {

enum class DeviceMemoryKind : uint8_t {
  kDevice = 0,         // aclrtMalloc and variants, aclrtMallocWithCfg
  kManaged = 1,        // aclrtMemAllocManaged
  kTaskScheduler = 2,  // aclrtMallocForTaskScheduler
};

// CANN's module id of user applications (the log module APP), charged for
// allocations that name no module.
inline constexpr uint16_t kAppModuleId = 33;
inline constexpr uint32_t kPage4K = 4096;
inline constexpr uint32_t kPage2M = 2u << 20;
inline constexpr uint32_t kPage1G = 1u << 30;
// Managed memory is sized, advised and prefetched in units of 2 MiB.
inline constexpr uint64_t kManagedGranule = 2u << 20;

// A managed-memory location, normalised: type DEVICE (id = device), HOST
// (id ignored, stored 0) or HOST_NUMA (id = node).
struct ManagedLocation {
  aclrtMemManagedLocationType type = ACL_MEM_LOCATIONTYPE_INVALID;
  int32_t id = 0;
  bool operator==(const ManagedLocation& o) const {
    return type == o.type && id == o.id;
  }
  bool operator!=(const ManagedLocation& o) const { return !(*this == o); }
};

// Advice and prefetch state of one 2 MiB page of managed memory.
struct ManagedPage {
  bool read_mostly = false;
  ManagedLocation preferred;
  std::vector<ManagedLocation> accessed_by;  // no duplicates, in set order
  ManagedLocation last_prefetch;
};

struct ModuleUsage {
  uint16_t module_id = 0;
  uint64_t current_bytes = 0;
  uint64_t peak_bytes = 0;
};

class MemoryRegistry {
 public:
  struct DeviceBlock {
    uint64_t size = 0;
    int32_t device_id = 0;
    uint32_t page_size = kPage4K;
    uint16_t module_id = kAppModuleId;
    DeviceMemoryKind kind = DeviceMemoryKind::kDevice;
  };
  struct DeviceFind {
    uint64_t base = 0;
    DeviceBlock block;
  };
  struct HostFind {
    uint64_t base = 0;
    uint64_t size = 0;
  };
  struct Registration {
    uint64_t size = 0;
    uint32_t flags = 0;
    bool pinned_by_registration = false;
  };

  MemoryRegistry() = default;
  MemoryRegistry(const MemoryRegistry&) = delete;
  MemoryRegistry& operator=(const MemoryRegistry&) = delete;

  // --- Device allocations ---------------------------------------------------
  // Records a fresh allocation at `addr` (managed ones get their pages) and
  // charges its module.
  void AddDevice(uint64_t addr, const DeviceBlock& block);
  // Forgets the allocation at exactly `addr`; nullopt when none is recorded.
  std::optional<DeviceBlock> RemoveDevice(uint64_t addr);
  // Forgets every allocation of a device that closed (its memory went with
  // it); its modules' current usage drops to zero, peaks stay.
  void DropDevice(int32_t device_id);
  // The recorded allocation containing `addr`.
  std::optional<DeviceFind> FindDevice(uint64_t addr) const;
  // Usage of every module that ever allocated on the device, largest
  // current usage first.
  std::vector<ModuleUsage> Usage(int32_t device_id) const;

  // --- Managed memory -------------------------------------------------------
  // Applies `advise` to the pages of [addr, addr + size), which must lie in
  // one managed allocation (else 107000).
  absl::Status Advise(uint64_t addr, uint64_t size,
                      aclrtMemManagedAdviseType advise,
                      const ManagedLocation& location);
  absl::Status RecordPrefetch(uint64_t addr, uint64_t size,
                              const ManagedLocation& location);
  // The pages of [addr, addr + size) (107000 unless in one managed
  // allocation).
  absl::StatusOr<std::vector<ManagedPage>> ManagedPages(uint64_t addr,
                                                        uint64_t size) const;
  // 107000 unless [addr, addr + size) lies in one managed allocation.
  absl::Status CheckManaged(uint64_t addr, uint64_t size) const;

  // --- Host memory ----------------------------------------------------------
  void AddPinned(uint64_t addr, uint64_t size);
  void RemovePinned(uint64_t addr);
  std::optional<HostFind> FindPinned(uint64_t addr) const;
  // 507910 when the range overlaps a registered one.
  absl::Status Register(uint64_t addr, const Registration& registration);
  // 507911 unless `addr` is the base of a registered range.
  absl::Status Unregister(uint64_t addr);
  // The registered range containing `addr`.
  std::optional<HostFind> FindRegistration(uint64_t addr) const;
  size_t RegistrationCount() const;

  // Which table holds `addr`, under one lock (the pointer-attribute
  // fast path). `device_only`: the backend says `addr` lies in a device's
  // address space, so the host tables need no search. (Without that, all
  // are searched: a backend that cannot tell says nothing.)
  enum class Holder : uint8_t { kNone, kDevice, kPinned, kRegistered };
  struct Classified {
    Holder holder = Holder::kNone;
    DeviceFind device;  // when kDevice
  };
  Classified Classify(uint64_t addr, bool device_only) const;

 private:
  struct ManagedState {
    std::vector<ManagedPage> pages;
  };
  template <typename Map>
  static typename Map::const_iterator Containing(const Map& map, uint64_t addr);
  // The managed allocation holding [addr, addr + size) and the index of the
  // page holding addr.
  absl::StatusOr<std::pair<uint64_t, size_t>> ManagedRangeLocked(
      uint64_t addr, uint64_t size) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ChargeLocked(int32_t device_id, uint16_t module_id, int64_t delta)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable ascend::Mutex mu_;
  // B-trees: a lookup touches a few cache lines even with thousands of
  // entries.
  absl::btree_map<uint64_t, DeviceBlock> device_ ABSL_GUARDED_BY(mu_);
  std::map<uint64_t, ManagedState> managed_ ABSL_GUARDED_BY(mu_);
  absl::btree_map<uint64_t, uint64_t> pinned_ ABSL_GUARDED_BY(mu_);
  absl::btree_map<uint64_t, Registration> registered_ ABSL_GUARDED_BY(mu_);
  // (device, module) -> usage.
  std::map<std::pair<int32_t, uint16_t>, ModuleUsage> usage_
      ABSL_GUARDED_BY(mu_);
};

// The name aclrtGetMemUsageInfo reports for a module id.
std::string ModuleName(uint16_t module_id);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MEMORY_MEMORY_REGISTRY_H_
