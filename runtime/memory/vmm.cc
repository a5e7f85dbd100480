// Virtual memory (runtime/memory/vmm.h; DESIGN.md §5.18): physical
// allocations, address reservations, mappings and access. The validation of
// a physical memory property is in vmm_prop.cc, the snapshot participant in
// vmm_participant.cc, sharing between processes in vmm_share.cc.
#include "runtime/memory/vmm.h"

#include <unistd.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/fd_broker.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"

namespace ascend::rt {
namespace {

using device::DeviceAddr;

DeviceAddr Addr(const void* p) { return reinterpret_cast<DeviceAddr>(p); }
void* Ptr(DeviceAddr a) { return reinterpret_cast<void*>(a); }

bool IsAccessFlags(int32_t flags) {
  return flags == ACL_RT_MEM_ACCESS_FLAGS_NONE ||
         flags == ACL_RT_MEM_ACCESS_FLAGS_READ ||
         flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
}

uint64_t RoundUp(uint64_t value, uint64_t granularity) {
  return (value + granularity - 1) / granularity * granularity;
}

// 11-04, aclrtReserveMemAddress `expectPtr`: an address the caller chooses
// lies in 16 TiB to 24 TiB, aligned to 1 GiB when the size is above 1 GiB,
// else to a power of two (the size's, rounded up) — and the whole range in
// the window. OK for an address outside the window (the device decides).
absl::Status CheckPlacedAddress(DeviceAddr at, uint64_t size,
                                uint64_t rounded) {
  if (at < device::kPlacedVaBegin || at >= device::kPlacedVaEnd) {
    return absl::OkStatus();
  }
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  uint64_t alignment = kGiB;
  if (size <= kGiB) {
    alignment = 1;
    while (alignment < size) alignment <<= 1;
  }
  if (at % alignment != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("expectPtr 0x", absl::Hex(at), " for ", size,
                              " bytes must be aligned to ", alignment,
                              " (1 GiB above 1 GiB, else the size's power "
                              "of two)"));
  }
  if (rounded > device::kPlacedVaEnd - at) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("[0x", absl::Hex(at), ", +", rounded,
                              ") runs past 24 TiB, the end of the window "
                              "expectPtr must lie in"));
  }
  return absl::OkStatus();
}

// Device-layer failures in the codes CANN's driver calls answer with.
absl::Status DeviceError(const absl::Status& status, absl::string_view what) {
  std::string message = absl::StrCat(what, ": ", status.message());
  switch (status.code()) {
    case absl::StatusCode::kResourceExhausted:
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION, message);
    case absl::StatusCode::kUnimplemented:
      return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, message);
    default:
      return Error(ACL_ERROR_RT_PARAM_INVALID, message);
  }
}

}  // namespace

device::MemAccess AsMemAccess(uint64_t flags) {
  switch (flags) {
    case ACL_RT_MEM_ACCESS_FLAGS_READ:
      return device::MemAccess::kRead;
    case ACL_RT_MEM_ACCESS_FLAGS_READWRITE:
      return device::MemAccess::kReadWrite;
    default:
      return device::MemAccess::kNone;
  }
}

Vmm::DeviceTables& Vmm::TablesLocked(int32_t device_id, uint64_t generation) {
  DeviceTables& tables = devices_[device_id];
  if (tables.generation != generation) {
    LetGoLocked(tables);
    tables = DeviceTables{};
    tables.generation = generation;
  }
  return tables;
}

Vmm::DeviceTables Vmm::Tables(int32_t device_id) const {
  ascend::MutexLock lock(&mu_);
  auto it = devices_.find(device_id);
  if (it == devices_.end() ||
      it->second.generation != runtime_.DeviceGeneration(device_id)) {
    return DeviceTables{};
  }
  return it->second;
}

absl::StatusOr<Vmm::Found> Vmm::FindHandleLocked(void* handle) {
  for (auto& [device_id, tables] : devices_) {
    if (tables.physical.count(handle) == 0) continue;
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (!device || tables.generation != runtime_.DeviceGeneration(device_id)) {
      break;  // its device was reset: the handle went with it
    }
    return Found{device_id, std::move(device), &tables};
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("0x", absl::Hex(Addr(handle)),
                            " is not a live physical memory handle"));
}

absl::StatusOr<Vmm::Found> Vmm::FindAddressLocked(DeviceAddr va) {
  for (auto& [device_id, tables] : devices_) {
    auto it = tables.reservations.upper_bound(va);
    if (it == tables.reservations.begin()) continue;
    --it;
    if (va - it->first >= it->second.size) continue;
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (!device || tables.generation != runtime_.DeviceGeneration(device_id)) {
      break;
    }
    return Found{device_id, std::move(device), &tables};
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("0x", absl::Hex(va),
                            " is not inside a reservation of a live device"));
}

absl::StatusOr<void*> Vmm::MallocPhysical(uint64_t size,
                                          const aclrtPhysicalMemProp& prop) {
  ASCEND_RETURN_IF_ERROR(ValidateProp(prop));
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "physical size must not be 0");
  }
  const int32_t device_id = static_cast<int32_t>(prop.location.id);
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL,
                 absl::StrCat("device ", device_id,
                              " is not set in this process (aclrtSetDevice)"));
  }
  const uint64_t granularity = device->PhysicalGranularity();
  if (granularity == 0) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "this device backend cannot map memory");
  }
  // CANN rounds a size that is not a multiple of the granularity up.
  const uint64_t rounded = RoundUp(size, granularity);
  ascend::MutexLock lock(&mu_);
  SweepLocked();
  absl::StatusOr<DeviceAddr> id = device->AllocatePhysical(rounded);
  if (!id.ok()) {
    return DeviceError(
        id.status(),
        absl::StrCat("cannot allocate ", rounded,
                     " bytes of physical memory on device ", device_id));
  }
  void* handle = ObjectHandle().value();
  DeviceTables& tables =
      TablesLocked(device_id, runtime_.DeviceGeneration(device_id));
  PhysicalRecord& record = tables.physical[handle];
  record.handle = handle;
  record.id = *id;
  record.size = rounded;
  record.prop = prop;
  return handle;
}

absl::Status Vmm::MaybeFreeLocked(Found& found, void* handle) {
  auto it = found.tables->physical.find(handle);
  if (it == found.tables->physical.end()) return absl::OkStatus();
  PhysicalRecord& record = it->second;
  if (record.references > 0 || record.mappings > 0) return absl::OkStatus();
  if (record.imported_fd >= 0) {
    close(record.imported_fd);
    ipc::FdBroker::Get().Release(record.owner_pid, record.owner_export);
    found.tables->physical.erase(it);
    return absl::OkStatus();
  }
  // Another process still maps it: it goes when that process lets go
  // (SweepLocked), as CANN destroys a shared handle after its last user.
  if (record.export_id != 0 &&
      ipc::FdBroker::Get().ActiveImports(record.export_id) > 0) {
    return absl::OkStatus();
  }
  if (record.export_id != 0) {
    (void)ipc::FdBroker::Get().Withdraw(record.export_id);
  }
  absl::Status freed = found.device->FreePhysical(record.id);
  found.tables->physical.erase(it);
  if (!freed.ok()) return DeviceError(freed, "cannot free physical memory");
  return absl::OkStatus();
}

absl::Status Vmm::FreePhysical(void* handle) {
  ascend::MutexLock lock(&mu_);
  SweepLocked();
  ASCEND_ASSIGN_OR_RETURN(Found found, FindHandleLocked(handle));
  PhysicalRecord& record = found.tables->physical[handle];
  if (record.references == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the physical memory handle was already freed (it stays "
                 "until its last mapping is unmapped)");
  }
  --record.references;
  return MaybeFreeLocked(found, handle);
}

absl::StatusOr<void*> Vmm::Reserve(uint64_t size, void* expect,
                                   uint64_t flags) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "reservation size must not be 0");
  }
  // torch_npu passes 1 (its huge-page flag); both ask for 2 MiB pages.
  if (flags > 1) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("flags ", flags, " is not 0 or 1"));
  }
  ASCEND_ASSIGN_OR_RETURN(const int32_t device_id, runtime_.GetDevice());
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL, "the current device is not open");
  }
  const uint64_t granularity = device->PhysicalGranularity();
  if (granularity == 0) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "this device backend cannot reserve address space");
  }
  const uint64_t rounded = RoundUp(size, granularity);
  if (expect != nullptr && Addr(expect) % granularity != 0) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("expectPtr 0x", absl::Hex(Addr(expect)),
                              " is not aligned to ", granularity));
  }
  ASCEND_RETURN_IF_ERROR(CheckPlacedAddress(Addr(expect), size, rounded));
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<DeviceAddr> va = device->ReserveAddress(rounded, Addr(expect));
  if (!va.ok()) {
    return DeviceError(
        va.status(),
        absl::StrCat("cannot reserve ", rounded,
                     " bytes of address space on device ", device_id));
  }
  DeviceTables& tables =
      TablesLocked(device_id, runtime_.DeviceGeneration(device_id));
  tables.reservations[*va] = ReservationRecord{*va, rounded, flags};
  return Ptr(*va);
}

absl::Status Vmm::Release(void* va) {
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found, FindAddressLocked(Addr(va)));
  auto it = found.tables->reservations.find(Addr(va));
  if (it == found.tables->reservations.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "not the start of a reservation (aclrtReserveMemAddress)");
  }
  auto mapped = found.tables->mappings.lower_bound(Addr(va));
  if (mapped != found.tables->mappings.end() &&
      mapped->first < it->first + it->second.size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("the reservation is still mapped at 0x",
                              absl::Hex(mapped->first), " (aclrtUnmapMem)"));
  }
  absl::Status released = found.device->ReleaseAddress(Addr(va));
  if (!released.ok()) return DeviceError(released, "cannot release");
  found.tables->reservations.erase(it);
  return absl::OkStatus();
}

absl::Status Vmm::Map(void* va, uint64_t size, uint64_t offset, void* handle,
                      uint64_t access) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "mapping size must not be 0");
  }
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found where, FindAddressLocked(Addr(va)));
  ASCEND_ASSIGN_OR_RETURN(Found owner, FindHandleLocked(handle));
  PhysicalRecord& record = owner.tables->physical[handle];
  if (record.references == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the physical memory handle was freed");
  }
  if (owner.device_id != where.device_id) {
    return Error(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        absl::StrCat("physical memory of device ", owner.device_id,
                     " mapped into a reservation of device ", where.device_id,
                     " is not simulated (map it on its own device)"));
  }
  const uint64_t granularity = where.device->PhysicalGranularity();
  if (Addr(va) % granularity != 0 || size % granularity != 0 ||
      offset % granularity != 0) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("virPtr, size and offset must be multiples of "
                              "the granularity ",
                              granularity));
  }
  if (offset > record.size || size > record.size - offset) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("[", offset, ", +", size,
                              ") is not inside the physical allocation of ",
                              record.size, " bytes"));
  }
  absl::Status mapped =
      record.imported_fd >= 0
          ? where.device->MapShared(
                Addr(va),
                device::SharedMemory{record.imported_fd,
                                     record.imported_offset + offset, size, 0})
          : where.device->MapPhysical(Addr(va), size, record.id, offset);
  if (!mapped.ok()) return DeviceError(mapped, "cannot map");
  // aclrtMemMapNoAccess: nothing is accessible until aclrtMemSetAccess.
  if (access != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
    absl::Status limited =
        where.device->SetMappingAccess(Addr(va), AsMemAccess(access));
    if (!limited.ok()) {
      (void)where.device->Unmap(Addr(va));
      return DeviceError(limited, "cannot set the mapping's access");
    }
  }
  ++record.mappings;
  MappingRecord& m = where.tables->mappings[Addr(va)];
  m = MappingRecord{Addr(va), size, offset, handle, {}};
  m.access[where.device_id] = access;
  return absl::OkStatus();
}

absl::Status Vmm::Unmap(void* va) {
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found, FindAddressLocked(Addr(va)));
  auto it = found.tables->mappings.find(Addr(va));
  if (it == found.tables->mappings.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "not the start of a mapping (aclrtMapMem)");
  }
  absl::Status unmapped = found.device->Unmap(Addr(va));
  if (!unmapped.ok()) return DeviceError(unmapped, "cannot unmap");
  void* handle = it->second.handle;
  found.tables->mappings.erase(it);
  auto physical = found.tables->physical.find(handle);
  if (physical != found.tables->physical.end()) {
    if (physical->second.mappings > 0) --physical->second.mappings;
    return MaybeFreeLocked(found, handle);
  }
  return absl::OkStatus();
}

absl::Status Vmm::SetAccess(void* va, uint64_t size,
                            const std::vector<aclrtMemAccessDesc>& descs) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "size must not be 0");
  }
  for (const aclrtMemAccessDesc& d : descs) {
    const int32_t flags = static_cast<int32_t>(d.flags);
    if (!IsAccessFlags(flags)) {
      return Error(
          ACL_ERROR_INVALID_PARAM,
          absl::StrCat("flags ", flags, " is not aclrtMemAccessFlags"));
    }
    if (static_cast<int32_t>(d.location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   "access rights are set for device locations");
    }
    if (d.location.id >= static_cast<uint32_t>(runtime_.DeviceCount())) {
      return Error(
          ACL_ERROR_RT_INVALID_DEVICEID,
          absl::StrCat("location.id ", d.location.id, " is not a device"));
    }
  }
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found, FindAddressLocked(Addr(va)));
  // Every byte of the range must be mapped, by whole mappings.
  std::vector<MappingRecord*> covered;
  DeviceAddr at = Addr(va);
  const DeviceAddr end = Addr(va) + size;
  while (at < end) {
    auto it = found.tables->mappings.find(at);
    if (it == found.tables->mappings.end()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("[0x", absl::Hex(Addr(va)), ", +", size,
                                ") is not a run of whole mappings (0x",
                                absl::Hex(at), " starts none)"));
    }
    covered.push_back(&it->second);
    at += it->second.size;
  }
  if (at != end) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "size ends inside a mapping: set access for whole mappings");
  }
  // The mapping device's own access is enforced by the device (its page
  // tables and copies); the last description for it counts. Should one
  // mapping refuse, those changed before it are put back.
  std::optional<uint64_t> own;
  for (const aclrtMemAccessDesc& d : descs) {
    if (static_cast<int32_t>(d.location.id) == found.device_id) {
      own = static_cast<uint64_t>(d.flags);
    }
  }
  if (own.has_value()) {
    for (size_t i = 0; i < covered.size(); ++i) {
      absl::Status set =
          found.device->SetMappingAccess(covered[i]->addr, AsMemAccess(*own));
      if (set.ok()) continue;
      for (size_t j = 0; j < i; ++j) {
        (void)found.device->SetMappingAccess(
            covered[j]->addr, AsMemAccess(covered[j]->access[found.device_id]));
      }
      return DeviceError(set, "cannot change the mapping's access");
    }
  }
  for (MappingRecord* m : covered) {
    for (const aclrtMemAccessDesc& d : descs) {
      m->access[static_cast<int32_t>(d.location.id)] =
          static_cast<uint64_t>(d.flags);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Vmm::GetAccess(
    void* va, const aclrtMemLocation& location) const {
  if (static_cast<int32_t>(location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 "access rights are kept for device locations");
  }
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found,
                          const_cast<Vmm*>(this)->FindAddressLocked(Addr(va)));
  auto it = found.tables->mappings.upper_bound(Addr(va));
  if (it == found.tables->mappings.begin()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the address is not mapped");
  }
  --it;
  if (Addr(va) - it->first >= it->second.size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the address is not mapped");
  }
  // The mapping device's access: what the device enforces.
  if (static_cast<int32_t>(location.id) == found.device_id) {
    for (const device::Mapping& m : found.device->Mappings()) {
      if (m.addr == it->first) return static_cast<uint64_t>(m.access);
    }
  }
  auto right = it->second.access.find(static_cast<int32_t>(location.id));
  return right == it->second.access.end()
             ? uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE}
             : right->second;
}

absl::StatusOr<void*> Vmm::Retain(void* va) {
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found, FindAddressLocked(Addr(va)));
  auto it = found.tables->mappings.upper_bound(Addr(va));
  if (it == found.tables->mappings.begin() ||
      Addr(va) - std::prev(it)->first >= std::prev(it)->second.size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the address is not mapped");
  }
  void* handle = std::prev(it)->second.handle;
  auto physical = found.tables->physical.find(handle);
  if (physical == found.tables->physical.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the memory mapped there has no handle in this process");
  }
  ++physical->second.references;
  return handle;
}

absl::StatusOr<aclrtPhysicalMemProp> Vmm::Properties(void* handle) const {
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(Found found,
                          const_cast<Vmm*>(this)->FindHandleLocked(handle));
  const PhysicalRecord& record = found.tables->physical.at(handle);
  if (record.references == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the physical memory handle was freed");
  }
  return record.prop;
}

bool Vmm::Reserved(const void* ptr) const {
  ascend::MutexLock lock(&mu_);
  return const_cast<Vmm*>(this)->FindAddressLocked(Addr(ptr)).ok();
}

std::optional<std::pair<void*, uint64_t>> Vmm::MappingRange(
    const void* ptr) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Found> found =
      const_cast<Vmm*>(this)->FindAddressLocked(Addr(ptr));
  if (!found.ok()) return std::nullopt;
  auto it = found->tables->mappings.upper_bound(Addr(ptr));
  if (it == found->tables->mappings.begin()) return std::nullopt;
  --it;
  if (Addr(ptr) - it->first >= it->second.size) return std::nullopt;
  return std::make_pair(Ptr(it->first), it->second.size);
}

}  // namespace ascend::rt
