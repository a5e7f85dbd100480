// Memory kinds beyond plain device and pinned host memory: configured
// allocations, managed memory, registered host memory, pointer attributes,
// per-module usage and uncorrectable memory errors (DESIGN.md §5.15). The
// bookkeeping lives in MemoryRegistry (runtime/memory_registry.h).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "runtime/base/error.h"
#include "runtime/memory/memory.h"
#include "runtime/memory/memory_registry.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

// The page size an allocation policy gives a device allocation of `size`
// bytes. Policies outside the enum choose by size, as aclrtMallocWithCfg
// documents (huge pages from 2 MiB).
uint32_t PageSizeFor(uint32_t raw_policy, uint64_t size) {
  constexpr uint32_t kFlagBits = ACL_MEM_TYPE_LOW_BAND_WIDTH |
                                 ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                                 ACL_MEM_ACCESS_USER_SPACE_READONLY;
  const uint32_t base = raw_policy & ~kFlagBits;
  switch (base) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
      // Huge pages are preferred above 1 MiB; the simulator never runs out.
      return size > (1u << 20) ? kPage2M : kPage4K;
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
      return kPage2M;
    case ACL_MEM_MALLOC_NORMAL_ONLY:
    case ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
      return kPage4K;
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
      return kPage1G;
    default:
      return size >= kPage2M ? kPage2M : kPage4K;
  }
}

// A location as the range-attribute queries report it: a device or NUMA id,
// -1 for the host, -2 for none or mixed.
constexpr int32_t kHostLocationId = -1;
constexpr int32_t kInvalidLocationId = -2;

int32_t LocationId(const ManagedLocation& location) {
  switch (location.type) {
    case ACL_MEM_LOCATIONTYPE_DEVICE:
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
      return location.id;
    case ACL_MEM_LOCATIONTYPE_HOST:
      return kHostLocationId;
    default:
      return kInvalidLocationId;
  }
}

// The location every page shares, or an invalid one.
template <typename Get>
ManagedLocation Common(const std::vector<ManagedPage>& pages, Get get) {
  ManagedLocation common = get(pages.front());
  for (const ManagedPage& page : pages) {
    if (get(page) != common) return ManagedLocation{};
  }
  return common;
}

absl::Status WriteInt(void* data, size_t data_size, int32_t value) {
  if (data_size != sizeof(int32_t)) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("dataSize must be 4 for this attribute, not ", data_size));
  }
  std::memcpy(data, &value, sizeof value);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<void*> Memory::MallocWith(uint64_t size, uint32_t raw_policy,
                                         const MallocOptions& options) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "allocation size must be non-zero");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          runtime_.CurrentDevice());
  vmm_.SweepDeferredFrees();
  if (options.device_id.has_value() && *options.device_id != device->id()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("the configured device ", *options.device_id,
                              " is not the current device ", device->id()));
  }
  absl::StatusOr<device::DeviceAddr> addr =
      device->Allocate(size, options.alignment);
  if (!addr.ok()) {
    if (addr.status().code() == absl::StatusCode::kResourceExhausted) {
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   absl::StrCat("device ", device->id(), " cannot allocate ",
                                size, " bytes: ", addr.status().message()));
    }
    return addr.status();
  }
  MemoryRegistry::DeviceBlock block;
  block.size = size;
  block.device_id = device->id();
  block.page_size = options.kind == DeviceMemoryKind::kManaged
                        ? kPage2M
                        : PageSizeFor(raw_policy, size);
  block.module_id = options.module_id;
  block.kind = options.kind;
  {
    // Recorded only while the device is still the opening that allocated:
    // a concurrent reset either dropped the records before this (and the
    // allocation with its device) or drops this one after.
    runtime_.WhileOpen(device, [&] { registry_.AddDevice(*addr, block); });
  }
  return reinterpret_cast<void*>(*addr);
}

absl::StatusOr<void*> Memory::MallocManaged(uint64_t size) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "allocation size must be non-zero");
  }
  if (size > UINT64_MAX - kManagedGranule) {
    return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                 absl::StrCat("cannot allocate ", size, " bytes"));
  }
  const uint64_t rounded =
      (size + kManagedGranule - 1) / kManagedGranule * kManagedGranule;
  MallocOptions options;
  options.kind = DeviceMemoryKind::kManaged;
  options.alignment = kManagedGranule;
  return MallocWith(rounded, ACL_MEM_MALLOC_HUGE_ONLY, options);
}

absl::StatusOr<aclrtPtrAttributes> Memory::PointerAttributes(const void* ptr) {
  aclrtPtrAttributes out;
  std::memset(&out, 0, sizeof out);
  // The backend's address ranges first (lock-free): a device address needs
  // no search of the host tables.
  const std::optional<int32_t> owner =
      runtime_.backend() ? runtime_.backend()->DeviceOwningAddress(Addr(ptr))
                         : std::nullopt;
  const MemoryRegistry::Classified found =
      registry_.Classify(Addr(ptr), owner.has_value());
  switch (found.holder) {
    case MemoryRegistry::Holder::kDevice:
      out.location.type = found.device.block.kind == DeviceMemoryKind::kManaged
                              ? ACL_MEM_LOCATION_TYPE_MANAGED
                              : ACL_MEM_LOCATION_TYPE_DEVICE;
      out.location.id = static_cast<uint32_t>(found.device.block.device_id);
      out.pageSize = found.device.block.page_size;
      return out;
    case MemoryRegistry::Holder::kPinned:
    case MemoryRegistry::Holder::kRegistered:
      out.location.type = ACL_MEM_LOCATION_TYPE_HOST;
      out.pageSize = kPage4K;
      return out;
    case MemoryRegistry::Holder::kNone:
      break;
  }
  if (owner.has_value()) {
    // Device memory the registry does not know (allocated by the device
    // layer directly), or a stale pointer. (A plain copy of the id: gcc 12's
    // -Wmaybe-uninitialized misreads the optional in the tsan build.)
    const int32_t owner_id = owner.value_or(-1);
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(owner_id);
    if (!device || !device->FindAllocation(Addr(ptr)).has_value()) {
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("0x", absl::Hex(Addr(ptr)), " is in device ", owner_id,
                       "'s address space but not in a live "
                       "allocation (freed, or its device was "
                       "reset)"));
    }
    out.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    out.location.id = static_cast<uint32_t>(owner_id);
    out.pageSize = kPage4K;
    return out;
  }
  out.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
  out.pageSize = kPage4K;
  return out;
}

absl::StatusOr<bool> Memory::CheckMemType(void* const* addrs, uint32_t count,
                                          uint32_t mem_type) {
  constexpr uint32_t kKnown =
      ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
  if (count == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "size must be greater than 0");
  }
  if ((mem_type & ~kKnown) != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("memType 0x", absl::Hex(mem_type),
                              " is not a combination of ACL_RT_MEM_TYPE_DEV, "
                              "ACL_RT_MEM_TYPE_DVPP and ACL_RT_MEM_TYPE_RSVD"));
  }
  for (uint32_t i = 0; i < count; ++i) {
    // Addresses of reservations (aclrtReserveMemAddress, mapped or not)
    // match RSVD; device allocations (managed memory is not device memory)
    // match DEV; the simulator has no DVPP memory.
    if (vmm_.Reserved(addrs[i])) {
      if ((mem_type & ACL_RT_MEM_TYPE_RSVD) == 0) return false;
      continue;
    }
    const MemoryRegistry::Classified found =
        registry_.Classify(Addr(addrs[i]), /*device_only=*/true);
    const bool device_memory =
        found.holder == MemoryRegistry::Holder::kDevice &&
        found.device.block.kind != DeviceMemoryKind::kManaged;
    if (!device_memory || (mem_type & ACL_RT_MEM_TYPE_DEV) == 0) return false;
  }
  return true;
}

absl::StatusOr<std::vector<ModuleUsage>> Memory::MemUsage(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  return registry_.Usage(device_id);
}

absl::StatusOr<ManagedLocation> Memory::CheckManagedLocation(
    const aclrtMemManagedLocation& location, bool for_prefetch) const {
  int32_t raw_type;
  std::memcpy(&raw_type, &location.type, sizeof raw_type);
  switch (raw_type) {
    case ACL_MEM_LOCATIONTYPE_DEVICE:
      if (location.id < 0 || location.id >= runtime_.DeviceCount()) {
        return Error(
            ACL_ERROR_RT_PARAM_INVALID,
            absl::StrCat("location device ", location.id, " does not exist"));
      }
      return ManagedLocation{ACL_MEM_LOCATIONTYPE_DEVICE, location.id};
    case ACL_MEM_LOCATIONTYPE_HOST:
      return ManagedLocation{ACL_MEM_LOCATIONTYPE_HOST, 0};
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
      // The simulated host is one NUMA node, 0.
      if (location.id != 0) {
        return Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("host NUMA node ", location.id,
                                  " does not exist (the simulated host has "
                                  "node 0 only)"));
      }
      return ManagedLocation{ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0};
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
      return ManagedLocation{ACL_MEM_LOCATIONTYPE_HOST_NUMA, 0};
    default:
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat(for_prefetch ? "prefetch" : "advise",
                                " location type ", raw_type,
                                " is not a valid aclrtMemManagedLocationType"));
  }
}

absl::Status Memory::ManagedAdvise(const void* ptr, uint64_t size,
                                   aclrtMemManagedAdviseType advise,
                                   const aclrtMemManagedLocation& location) {
  if (size % kManagedGranule != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("size ", size, " is not a multiple of 2 MiB"));
  }
  ManagedLocation where;
  if (advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION ||
      advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
      advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY) {
    ASCEND_ASSIGN_OR_RETURN(where, CheckManagedLocation(location, false));
  }
  return registry_.Advise(Addr(ptr), size, advise, where);
}

absl::Status Memory::ManagedGetAttr(aclrtMemManagedRangeAttribute attribute,
                                    const void* ptr, size_t size, void* data,
                                    size_t data_size) {
  ASCEND_ASSIGN_OR_RETURN(std::vector<ManagedPage> pages,
                          registry_.ManagedPages(Addr(ptr), size));
  auto preferred = [](const ManagedPage& p) { return p.preferred; };
  auto prefetched = [](const ManagedPage& p) { return p.last_prefetch; };
  switch (attribute) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
      return WriteInt(
          data, data_size,
          std::all_of(pages.begin(), pages.end(),
                      [](const ManagedPage& p) { return p.read_mostly; })
              ? 1
              : 0);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
      return WriteInt(data, data_size, LocationId(Common(pages, preferred)));
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
      return WriteInt(data, data_size, LocationId(Common(pages, prefetched)));
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
      return WriteInt(data, data_size, Common(pages, preferred).type);
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
      return WriteInt(data, data_size, Common(pages, prefetched).type);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: {
      const ManagedLocation common =
          attribute == ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID
              ? Common(pages, preferred)
              : Common(pages, prefetched);
      const bool has_id = common.type == ACL_MEM_LOCATIONTYPE_DEVICE ||
                          common.type == ACL_MEM_LOCATIONTYPE_HOST_NUMA;
      return WriteInt(data, data_size, has_id ? common.id : kInvalidLocationId);
    }
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      if (data_size == 0 || data_size % sizeof(int32_t) != 0) {
        return Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("dataSize ", data_size,
                                  " is not a non-zero multiple of 4"));
      }
      // The locations advised for every page of the range.
      std::vector<ManagedLocation> common = pages.front().accessed_by;
      for (const ManagedPage& page : pages) {
        common.erase(std::remove_if(common.begin(), common.end(),
                                    [&](const ManagedLocation& l) {
                                      return std::find(page.accessed_by.begin(),
                                                       page.accessed_by.end(),
                                                       l) ==
                                             page.accessed_by.end();
                                    }),
                     common.end());
      }
      const size_t slots = data_size / sizeof(int32_t);
      for (size_t i = 0; i < slots; ++i) {
        const int32_t id =
            i < common.size() ? LocationId(common[i]) : kInvalidLocationId;
        std::memcpy(static_cast<char*>(data) + i * sizeof id, &id, sizeof id);
      }
      return absl::OkStatus();
    }
  }
  return Error(ACL_ERROR_INVALID_PARAM,
               absl::StrCat("unknown range attribute ", attribute));
}

absl::Status Memory::ManagedPrefetch(const void* const* ptrs,
                                     const size_t* sizes, size_t count,
                                     const aclrtMemManagedLocation* locations,
                                     const size_t* location_starts,
                                     size_t location_count, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (location_count == 0 || location_count > count ||
      location_starts[0] != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "prefetch location indexes must start at 0 and number at "
                 "most the ranges");
  }
  std::vector<ManagedLocation> where(count);
  for (size_t k = 0; k < location_count; ++k) {
    const size_t begin = location_starts[k];
    const size_t end = k + 1 < location_count ? location_starts[k + 1] : count;
    if (begin >= end || end > count) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("prefetch location index ", k, " (", begin,
                                ") must be below the next index and the "
                                "range count"));
    }
    ASCEND_ASSIGN_OR_RETURN(const ManagedLocation location,
                            CheckManagedLocation(locations[k], true));
    for (size_t i = begin; i < end; ++i) where[i] = location;
  }
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] == 0 || sizes[i] % kManagedGranule != 0) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("prefetch size ", sizes[i],
                                " is not a non-zero multiple of 2 MiB"));
    }
    ASCEND_RETURN_IF_ERROR(registry_.CheckManaged(Addr(ptrs[i]), sizes[i]));
  }
  // Everything validated: record the request (what the last-prefetch
  // attributes report) and order a task on the stream. Moving the pages is
  // a no-op here: simulated device memory is host memory, resident for both.
  for (size_t i = 0; i < count; ++i) {
    ASCEND_RETURN_IF_ERROR(
        registry_.RecordPrefetch(Addr(ptrs[i]), sizes[i], where[i]));
  }
  return runtime_.tasks().Submit(
      TaskKind::kMarker, "aclrtMemManagedPrefetchAsync", std::move(s),
      Task{[] { return absl::OkStatus(); }, nullptr});
}

absl::Status Memory::HostRegister(void* ptr, uint64_t size, uint32_t flags) {
  // 11-02 (aclrtHostRegister, aclrtHostRegisterV2 `ptr`): on a 4 KiB page.
  constexpr uint64_t kRegisterAlignment = 4096;
  if (Addr(ptr) % kRegisterAlignment != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("host address 0x", absl::Hex(Addr(ptr)),
                              " is not aligned to a 4 KiB page"));
  }
  if (size > UINT64_MAX - Addr(ptr)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "host range wraps around");
  }
  if (runtime_.backend() &&
      (runtime_.backend()->DeviceOwningAddress(Addr(ptr)).has_value() ||
       runtime_.backend()
           ->DeviceOwningAddress(Addr(ptr) + size - 1)
           .has_value())) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("0x", absl::Hex(Addr(ptr)),
                              " is device memory, not host memory"));
  }
  const bool pinned = registry_.FindPinned(Addr(ptr)).has_value();
  if ((flags & ACL_HOST_REG_PINNED) != 0 && pinned) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "ACL_HOST_REG_PINNED needs pageable memory, not memory from "
                 "aclrtMallocHost");
  }
  MemoryRegistry::Registration registration;
  registration.size = size;
  registration.flags = flags;
  registration.pinned_by_registration = (flags & ACL_HOST_REG_PINNED) != 0;
  return registry_.Register(Addr(ptr), registration);
}

absl::Status Memory::HostUnregister(void* ptr) {
  return registry_.Unregister(Addr(ptr));
}

absl::StatusOr<void*> Memory::HostDevicePointer(void* ptr) {
  if (!registry_.FindRegistration(Addr(ptr)).has_value()) {
    return Error(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                 absl::StrCat("0x", absl::Hex(Addr(ptr)),
                              " is not in a registered host range"));
  }
  // Simulated device memory shares the host's address space: the device
  // reaches a registered range at its host address.
  return ptr;
}

absl::StatusOr<std::vector<device::Allocation>> Memory::MemoryErrors(
    int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not set"));
  }
  return device->MemoryErrors();
}

absl::Status Memory::RepairMemoryErrors(
    int32_t device_id, const std::vector<device::Allocation>& ranges) {
  ASCEND_ASSIGN_OR_RETURN(std::vector<device::Allocation> errors,
                          MemoryErrors(device_id));
  // Every range must name a current error, so nothing is repaired when one
  // does not.
  for (const device::Allocation& range : ranges) {
    const bool known = std::any_of(
        errors.begin(), errors.end(), [&](const device::Allocation& e) {
          return range.size != 0 && range.addr < e.addr + e.size &&
                 e.addr < range.addr + range.size;
        });
    if (!known) {
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("[0x", absl::Hex(range.addr), ", +", range.size,
                       ") is not a memory error of device ", device_id));
    }
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not set"));
  }
  for (const device::Allocation& range : ranges) {
    absl::Status repaired = device->RepairMemoryErrors(range.addr, range.size);
    // An earlier range of the list may have repaired this one's error.
    if (!repaired.ok() && repaired.code() != absl::StatusCode::kNotFound) {
      return repaired;
    }
  }
  MemoryWritten();
  return absl::OkStatus();
}

absl::Status Memory::InjectMemoryError(int32_t device_id, const void* ptr,
                                       uint64_t size) {
  if (!runtime_.backend())
    return Error(ACL_ERROR_INVALID_PARAM, "no device backend");
  if (device_id < 0 || device_id >= runtime_.DeviceCount()) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("device ", device_id, " does not exist"));
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  std::optional<device::Allocation> allocation;
  if (device) allocation = device->FindAllocation(Addr(ptr));
  if (!allocation || size == 0 || size > allocation->size ||
      Addr(ptr) - allocation->addr > allocation->size - size) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("[0x", absl::Hex(Addr(ptr)), ", +", size,
                              ") is not inside a live allocation of device ",
                              device_id));
  }
  return runtime_.backend()->InjectRangeFault(
      device_id, device::Fault::kMemoryError, Addr(ptr), size);
}

absl::StatusOr<std::pair<void*, uint64_t>> Memory::AllocationRange(
    const void* ptr) {
  Runtime::Location where = runtime_.Locate(ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, ptr, "address"));
  if (!where.device) {
    // Page-locked host blocks from aclrtMallocHost(WithCfg) answer too (the
    // scenario table of 11-04, aclrtMemGetAddressRange).
    const std::optional<MemoryRegistry::HostFind> pinned =
        registry_.FindPinned(Addr(ptr));
    if (pinned && Addr(ptr) - pinned->base < pinned->size) {
      return std::make_pair(reinterpret_cast<void*>(pinned->base),
                            pinned->size);
    }
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("0x", absl::Hex(Addr(ptr)),
                              " is neither device memory nor a host block "
                              "from aclrtMallocHost of this process"));
  }
  return std::make_pair(reinterpret_cast<void*>(where.allocation.addr),
                        where.allocation.size);
}

absl::Status Memory::PrepareP2PMap(const void* ptr, uint64_t size,
                                   int32_t peer) {
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(peer));
  Runtime::Location where = runtime_.Locate(ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, ptr, "devPtr"));
  if (!where.device || !RangeInAllocation(where, ptr, size) || size == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("[0x", absl::Hex(Addr(ptr)), ", +", size,
                              ") is not inside one device allocation"));
  }
  const int32_t owner = where.device->id();
  if (owner == peer) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("dstDevId ", peer, " owns the memory itself"));
  }
  if (!runtime_.PeerAccessEnabled(owner, peer)) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("peer access between devices ", owner, " and ", peer,
                     " is not enabled (aclrtDeviceEnablePeerAccess)"));
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
