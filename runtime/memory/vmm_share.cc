// Sharing device memory between processes (DESIGN.md §5.18): shareable
// handles of physical memory and IPC keys of device memory. The memory of a
// simulated device is a file (memfd); an export publishes that file with the
// range's place in it through the process's fd broker (device/base/
// fd_broker.h), and an import maps the same pages into a reservation of the
// importing process, so both processes see the same bytes.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/fd_broker.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/memory/vmm.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

using device::DeviceAddr;

DeviceAddr Addr(const void* p) { return reinterpret_cast<DeviceAddr>(p); }
void* Ptr(DeviceAddr a) { return reinterpret_cast<void*>(a); }

constexpr absl::string_view kKeyPrefix = "aclsim-ipc-";

// What an export tells the importer besides the file.
struct ShareMetadata {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t inner = 0;
  int32_t device_id = -1;
};

std::string Encode(const ShareMetadata& m) {
  return absl::StrCat(m.offset, " ", m.size, " ", m.inner, " ", m.device_id);
}

absl::StatusOr<ShareMetadata> Decode(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, ' ');
  ShareMetadata m;
  if (parts.size() != 4 || !absl::SimpleAtoi(parts[0], &m.offset) ||
      !absl::SimpleAtoi(parts[1], &m.size) ||
      !absl::SimpleAtoi(parts[2], &m.inner) ||
      !absl::SimpleAtoi(parts[3], &m.device_id) || m.size == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the exporting process sent malformed share metadata");
  }
  return m;
}

// Broker failures in CANN's codes.
absl::Status FetchError(const absl::Status& status, absl::string_view what) {
  const std::string message = absl::StrCat(what, ": ", status.message());
  if (status.code() == absl::StatusCode::kPermissionDenied) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 absl::StrCat(message,
                              " (the exporter's whitelist does not name this "
                              "process: aclrtDeviceGetBareTgid)"));
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID, message);
}

uint64_t Shareable(int32_t pid, uint32_t export_id) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(pid)) << 32) | export_id;
}

absl::StatusOr<std::pair<int32_t, uint32_t>> ParseKey(const std::string& key) {
  if (absl::StartsWith(key, kKeyPrefix)) {
    std::vector<std::string> parts =
        absl::StrSplit(key.substr(kKeyPrefix.size()), '-');
    int32_t pid = 0;
    uint32_t id = 0;
    if (parts.size() == 2 && absl::SimpleAtoi(parts[0], &pid) &&
        absl::SimpleAtoi(parts[1], &id) && pid > 0 && id != 0) {
      return std::make_pair(pid, id);
    }
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("\"", key, "\" is not an IPC memory key"));
}

}  // namespace

void Vmm::LetGoLocked(DeviceTables& tables) {
  for (auto& [handle, r] : tables.physical) {
    if (r.imported_fd >= 0) {
      close(r.imported_fd);
      r.imported_fd = -1;
      ipc::FdBroker::Get().Release(r.owner_pid, r.owner_export);
    }
    if (r.export_id != 0) {
      (void)ipc::FdBroker::Get().Withdraw(r.export_id);
      r.export_id = 0;
    }
  }
}

void Vmm::DropStaleLocked() {
  for (auto it = devices_.begin(); it != devices_.end();) {
    if (it->second.generation != runtime_.DeviceGeneration(it->first)) {
      LetGoLocked(it->second);
      it = devices_.erase(it);
    } else {
      ++it;
    }
  }
  // Keys stay known until aclrtIpcMemClose, which then only forgets them.
  for (auto& [key, r] : ipc_imports_) {
    if (!r.released && r.generation != runtime_.DeviceGeneration(r.device_id)) {
      ipc::FdBroker::Get().Release(r.owner_pid, r.owner_export);
      r.released = true;
    }
  }
  for (auto& [key, r] : ipc_exports_) {
    if (!r.withdrawn &&
        r.generation != runtime_.DeviceGeneration(r.device_id)) {
      (void)ipc::FdBroker::Get().Withdraw(r.export_id);
      r.withdrawn = true;
    }
  }
  // The reset took deferred allocations with the device (its memory file
  // stays with the importers: DeviceMemory::DetachAll).
  auto stale = [this](const auto& r) {
    return r.generation != runtime_.DeviceGeneration(r.device_id);
  };
  closed_exports_.erase(
      std::remove_if(closed_exports_.begin(), closed_exports_.end(), stale),
      closed_exports_.end());
  deferred_frees_.erase(
      std::remove_if(deferred_frees_.begin(), deferred_frees_.end(), stale),
      deferred_frees_.end());
  deferred_count_.store(deferred_frees_.size(), std::memory_order_relaxed);
}

bool Vmm::DeferFreeWhileImported(int32_t device_id, device::DeviceAddr addr,
                                 uint64_t size) {
  // A process that never exported IPC memory frees without the lock.
  if (!ipc_exported_.load(std::memory_order_acquire)) return false;
  ascend::MutexLock lock(&mu_);
  SweepLocked();
  const uint64_t generation = runtime_.DeviceGeneration(device_id);
  auto overlaps = [&](const IpcExportRecord& r) {
    return r.device_id == device_id && r.generation == generation &&
           r.addr < addr + size && addr < r.addr + r.size;
  };
  DeferredFree deferred{device_id, generation, addr, {}};
  for (auto& [key, r] : ipc_exports_) {
    if (!overlaps(r) || r.withdrawn) continue;
    (void)ipc::FdBroker::Get().Withdraw(r.export_id);
    r.withdrawn = true;
    if (ipc::FdBroker::Get().ActiveImports(r.export_id) > 0) {
      deferred.export_ids.push_back(r.export_id);
    }
  }
  for (const IpcExportRecord& r : closed_exports_) {
    if (overlaps(r) && ipc::FdBroker::Get().ActiveImports(r.export_id) > 0) {
      deferred.export_ids.push_back(r.export_id);
    }
  }
  if (deferred.export_ids.empty()) return false;
  deferred_frees_.push_back(std::move(deferred));
  deferred_count_.store(deferred_frees_.size(), std::memory_order_relaxed);
  return true;
}

bool Vmm::FreeDeferred(device::DeviceAddr addr) const {
  if (deferred_count_.load(std::memory_order_relaxed) == 0) return false;
  ascend::MutexLock lock(&mu_);
  for (const DeferredFree& d : deferred_frees_) {
    if (d.addr == addr &&
        d.generation == runtime_.DeviceGeneration(d.device_id)) {
      return true;
    }
  }
  return false;
}

void Vmm::SweepDeferredFrees() {
  if (deferred_count_.load(std::memory_order_relaxed) == 0) return;
  ascend::MutexLock lock(&mu_);
  SweepLocked();
}

void Vmm::SweepDeferredFreesLocked() {
  closed_exports_.erase(
      std::remove_if(closed_exports_.begin(), closed_exports_.end(),
                     [](const IpcExportRecord& r) {
                       return ipc::FdBroker::Get().ActiveImports(r.export_id) ==
                              0;
                     }),
      closed_exports_.end());
  for (auto it = deferred_frees_.begin(); it != deferred_frees_.end();) {
    const bool imported = std::any_of(
        it->export_ids.begin(), it->export_ids.end(),
        [](uint32_t id) { return ipc::FdBroker::Get().ActiveImports(id) > 0; });
    if (imported) {
      ++it;
      continue;
    }
    if (std::shared_ptr<device::Device> device =
            runtime_.DeviceObject(it->device_id)) {
      absl::Status freed = device->Free(it->addr);
      if (!freed.ok()) {
        LOG(WARNING) << absl::StrCat("cannot free 0x", absl::Hex(it->addr))
                     << " after its importers let go: " << freed;
      }
    }
    it = deferred_frees_.erase(it);
  }
  deferred_count_.store(deferred_frees_.size(), std::memory_order_relaxed);
}

void Vmm::SweepLocked() {
  DropStaleLocked();
  SweepDeferredFreesLocked();
  for (auto& [device_id, tables] : devices_) {
    if (tables.generation != runtime_.DeviceGeneration(device_id)) continue;
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (!device) continue;
    for (auto it = tables.physical.begin(); it != tables.physical.end();) {
      PhysicalRecord& r = it->second;
      if (r.references == 0 && r.mappings == 0 && r.export_id != 0 &&
          ipc::FdBroker::Get().ActiveImports(r.export_id) == 0) {
        (void)ipc::FdBroker::Get().Withdraw(r.export_id);
        (void)device->FreePhysical(r.id);
        it = tables.physical.erase(it);
      } else {
        ++it;
      }
    }
  }
}

absl::StatusOr<uint64_t> Vmm::ExportPhysical(void* handle, bool check_pid) {
  ascend::MutexLock lock(&mu_);
  SweepLocked();
  ASCEND_ASSIGN_OR_RETURN(Found found, FindHandleLocked(handle));
  PhysicalRecord& record = found.tables->physical[handle];
  if (record.references == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the physical memory handle was freed");
  }
  if (record.imported_fd >= 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "a handle imported from another process cannot be exported "
                 "again");
  }
  if (record.export_id != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the handle was exported already (one shareable handle per "
                 "physical allocation)");
  }
  absl::StatusOr<device::SharedMemory> shared =
      found.device->ShareMemory(record.id, record.size);
  if (!shared.ok()) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 absl::StrCat("cannot share the physical memory: ",
                              shared.status().message()));
  }
  absl::StatusOr<uint32_t> id = ipc::FdBroker::Get().Publish(
      ipc::ExportKind::kPhysicalMemory, shared->fd,
      Encode(ShareMetadata{shared->offset, record.size, shared->inner,
                           found.device_id}),
      check_pid);
  close(shared->fd);
  if (!id.ok()) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 absl::StrCat("cannot publish the shareable handle: ",
                              id.status().message()));
  }
  record.export_id = *id;
  return Shareable(getpid(), *id);
}

absl::Status Vmm::AllowShareablePids(uint64_t shareable,
                                     const std::vector<int32_t>& pids) {
  ascend::MutexLock lock(&mu_);
  const uint32_t id = static_cast<uint32_t>(shareable);
  bool ours = static_cast<int32_t>(shareable >> 32) == getpid();
  if (ours) {
    ours = false;
    for (auto& [device_id, tables] : devices_) {
      for (auto& [handle, r] : tables.physical) {
        if (r.export_id == id && r.references > 0) ours = true;
      }
    }
  }
  if (!ours) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("shareable handle ", shareable,
                              " was not exported by this process"));
  }
  absl::Status allowed = ipc::FdBroker::Get().AllowPids(id, pids);
  if (!allowed.ok()) return FetchError(allowed, "cannot set the whitelist");
  return absl::OkStatus();
}

absl::StatusOr<void*> Vmm::ImportPhysical(uint64_t shareable,
                                          int32_t device_id) {
  const int32_t pid = static_cast<int32_t>(shareable >> 32);
  const uint32_t id = static_cast<uint32_t>(shareable);
  if (pid <= 0 || id == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(shareable, " is not a shareable handle"));
  }
  if (pid == getpid()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "a shareable handle is imported in another process than the "
                 "one that exported it");
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL,
                 absl::StrCat("device ", device_id,
                              " is not set in this process (aclrtSetDevice)"));
  }
  absl::StatusOr<ipc::Imported> imported =
      ipc::FdBroker::Get().Fetch(pid, id, ipc::ExportKind::kPhysicalMemory);
  if (!imported.ok()) {
    return FetchError(imported.status(),
                      absl::StrCat("cannot import shareable handle ", shareable,
                                   " of process ", pid));
  }
  absl::StatusOr<ShareMetadata> meta = Decode(imported->metadata);
  if (!meta.ok()) {
    close(imported->fd);
    ipc::FdBroker::Get().Release(pid, id);
    return meta.status();
  }
  ascend::MutexLock lock(&mu_);
  void* handle = ObjectHandle().value();
  DeviceTables& tables =
      TablesLocked(device_id, runtime_.DeviceGeneration(device_id));
  PhysicalRecord& record = tables.physical[handle];
  record.handle = handle;
  record.size = meta->size;
  record.prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  record.prop.memAttr = ACL_HBM_MEM_HUGE;
  record.prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  record.prop.location.id = static_cast<uint32_t>(device_id);
  record.imported_fd = imported->fd;
  record.imported_offset = meta->offset + meta->inner;
  record.owner_pid = pid;
  record.owner_export = id;
  return handle;
}

absl::StatusOr<std::string> Vmm::IpcExport(void* ptr, uint64_t size,
                                           bool check_pid) {
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "size must not be 0");
  }
  std::optional<int32_t> device_id =
      runtime_.backend() == nullptr
          ? std::nullopt
          : runtime_.backend()->DeviceOwningAddress(Addr(ptr));
  std::shared_ptr<device::Device> device =
      device_id ? runtime_.DeviceObject(*device_id) : nullptr;
  if (!device) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("0x", absl::Hex(Addr(ptr)),
                              " is not device memory of this process"));
  }
  absl::StatusOr<device::SharedMemory> shared =
      device->ShareMemory(Addr(ptr), size);
  if (!shared.ok()) {
    return Error(shared.status().code() == absl::StatusCode::kUnimplemented
                     ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT
                     : ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("cannot share [0x", absl::Hex(Addr(ptr)), ", +",
                              size, "): ", shared.status().message()));
  }
  absl::StatusOr<uint32_t> id = ipc::FdBroker::Get().Publish(
      ipc::ExportKind::kMemory, shared->fd,
      Encode(ShareMetadata{shared->offset, size, shared->inner, *device_id}),
      check_pid);
  close(shared->fd);
  if (!id.ok()) {
    return Error(
        ACL_ERROR_RT_INTERNAL_ERROR,
        absl::StrCat("cannot publish the IPC memory: ", id.status().message()));
  }
  std::string key = absl::StrCat(kKeyPrefix, getpid(), "-", *id);
  ascend::MutexLock lock(&mu_);
  ipc_exported_.store(true, std::memory_order_release);
  SweepLocked();
  ipc_exports_[key] = IpcExportRecord{
      *device_id, runtime_.DeviceGeneration(*device_id), *id, Addr(ptr), size,
      0};
  return key;
}

absl::Status Vmm::IpcAllowPids(const std::string& key,
                               const std::vector<int32_t>& pids) {
  ascend::MutexLock lock(&mu_);
  auto it = ipc_exports_.find(key);
  if (it == ipc_exports_.end()) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("\"", key, "\" was not exported by this process"));
  }
  absl::Status allowed =
      ipc::FdBroker::Get().AllowPids(it->second.export_id, pids);
  if (!allowed.ok()) return FetchError(allowed, "cannot set the whitelist");
  return absl::OkStatus();
}

absl::Status Vmm::IpcSetAttr(const std::string& key, uint64_t attr) {
  ascend::MutexLock lock(&mu_);
  auto it = ipc_exports_.find(key);
  if (it == ipc_exports_.end()) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("\"", key, "\" was not exported by this process"));
  }
  it->second.attr = attr;
  return absl::OkStatus();
}

absl::StatusOr<void*> Vmm::IpcImport(const std::string& key) {
  ASCEND_ASSIGN_OR_RETURN(const auto owner, ParseKey(key));
  {
    ascend::MutexLock lock(&mu_);
    if (ipc_imports_.count(key) != 0) {
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("\"", key, "\" is imported already in this process"));
    }
  }
  ASCEND_ASSIGN_OR_RETURN(const int32_t device_id, runtime_.GetDevice());
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device || device->PhysicalGranularity() == 0) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "the current device cannot map shared memory");
  }
  absl::StatusOr<ipc::Imported> imported = ipc::FdBroker::Get().Fetch(
      owner.first, owner.second, ipc::ExportKind::kMemory);
  if (!imported.ok()) {
    return FetchError(imported.status(),
                      absl::StrCat("cannot import \"", key, "\""));
  }
  auto release = [&] {
    close(imported->fd);
    ipc::FdBroker::Get().Release(owner.first, owner.second);
  };
  absl::StatusOr<ShareMetadata> meta = Decode(imported->metadata);
  if (!meta.ok()) {
    release();
    return meta.status();
  }
  const uint64_t granularity = device->PhysicalGranularity();
  const uint64_t span = (meta->inner + meta->size + 4095) / 4096 * 4096;
  const uint64_t reserve = (span + granularity - 1) / granularity * granularity;
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<DeviceAddr> va = device->ReserveAddress(reserve, 0);
  if (!va.ok()) {
    release();
    return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                 absl::StrCat("cannot reserve address space for \"", key,
                              "\": ", va.status().message()));
  }
  absl::Status mapped = device->MapShared(
      *va, device::SharedMemory{imported->fd, meta->offset, span, 0});
  if (!mapped.ok()) {
    (void)device->ReleaseAddress(*va);
    release();
    return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                 absl::StrCat("cannot map \"", key, "\": ", mapped.message()));
  }
  close(imported->fd);  // the mapping holds the file
  ipc_imports_[key] =
      IpcImportRecord{device_id, runtime_.DeviceGeneration(device_id), *va,
                      owner.first, owner.second};
  return Ptr(*va + meta->inner);
}

absl::Status Vmm::IpcClose(const std::string& key) {
  bool imported = false;
  {
    ascend::MutexLock lock(&mu_);
    imported = ipc_imports_.count(key) != 0;
  }
  // Kernels already launched may still read the import: they run first
  // (DESIGN.md §5.20).
  if (imported) {
    runtime_.tasks()
        .Access({HostOp::kTeardown, "aclrtIpcMemClose", nullptr, nullptr,
                 DeviceRange{-1, 0, 0}})
        .IgnoreError();
  }
  ascend::MutexLock lock(&mu_);
  if (auto it = ipc_imports_.find(key); it != ipc_imports_.end()) {
    const IpcImportRecord record = it->second;
    ipc_imports_.erase(it);
    std::shared_ptr<device::Device> device =
        runtime_.DeviceObject(record.device_id);
    // A device reset since dropped the mapping with the device.
    if (device &&
        runtime_.DeviceGeneration(record.device_id) == record.generation) {
      (void)device->Unmap(record.reservation);
      (void)device->ReleaseAddress(record.reservation);
    }
    if (!record.released) {
      ipc::FdBroker::Get().Release(record.owner_pid, record.owner_export);
    }
    return absl::OkStatus();
  }
  if (auto it = ipc_exports_.find(key); it != ipc_exports_.end()) {
    if (!it->second.withdrawn) {
      (void)ipc::FdBroker::Get().Withdraw(it->second.export_id);
    }
    // Closed before its importers closed theirs: an aclrtFree of the memory
    // still waits for them.
    if (it->second.generation ==
            runtime_.DeviceGeneration(it->second.device_id) &&
        ipc::FdBroker::Get().ActiveImports(it->second.export_id) > 0) {
      closed_exports_.push_back(it->second);
    }
    ipc_exports_.erase(it);
    return absl::OkStatus();
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("\"", key,
                            "\" is neither exported nor imported by this "
                            "process"));
}

absl::Status Vmm::CheckNotShared(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  SweepLocked();
  for (const DeferredFree& d : deferred_frees_) {
    if (d.device_id == device_id) {
      return absl::FailedPreconditionError(absl::StrCat(
          "memory freed at 0x", absl::Hex(d.addr), " of device ", device_id,
          " is still imported by another process (aclrtIpcMemClose there)"));
    }
  }
  auto it = devices_.find(device_id);
  if (it != devices_.end() &&
      it->second.generation == runtime_.DeviceGeneration(device_id)) {
    for (const auto& [handle, r] : it->second.physical) {
      if (r.imported_fd >= 0) {
        return absl::FailedPreconditionError(absl::StrCat(
            "device ", device_id, " holds physical memory of process ",
            r.owner_pid,
            " (a snapshot cannot save another process's memory; free the "
            "imported handle first)"));
      }
      if (r.export_id != 0 &&
          ipc::FdBroker::Get().ActiveImports(r.export_id) > 0) {
        return absl::FailedPreconditionError(
            absl::StrCat("physical memory of device ", device_id,
                         " is mapped by another process (shareable handle ",
                         Shareable(getpid(), r.export_id), ")"));
      }
    }
  }
  for (const auto& [key, r] : ipc_imports_) {
    if (r.device_id == device_id &&
        r.generation == runtime_.DeviceGeneration(device_id)) {
      return absl::FailedPreconditionError(
          absl::StrCat("device ", device_id, " maps IPC memory \"", key,
                       "\" of process ", r.owner_pid, " (aclrtIpcMemClose)"));
    }
  }
  for (const auto& [key, r] : ipc_exports_) {
    if (r.device_id == device_id && !r.withdrawn &&
        r.generation == runtime_.DeviceGeneration(device_id) &&
        ipc::FdBroker::Get().ActiveImports(r.export_id) > 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("IPC memory \"", key, "\" of device ", device_id,
                       " is imported by another process"));
    }
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
