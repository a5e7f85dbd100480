#include "runtime/memory/memory_registry.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/mutex.h"
#include "runtime/base/error.h"

namespace ascend::rt {

template <typename Map>
typename Map::const_iterator MemoryRegistry::Containing(const Map& map,
                                                        uint64_t addr) {
  auto it = map.upper_bound(addr);
  if (it == map.begin()) return map.end();
  --it;
  const uint64_t size = [&] {
    if constexpr (std::is_same_v<typename Map::mapped_type, uint64_t>) {
      return it->second;
    } else {
      return it->second.size;
    }
  }();
  return addr - it->first < size ? it : map.end();
}

void MemoryRegistry::ChargeLocked(int32_t device_id, uint16_t module_id,
                                  int64_t delta) {
  ModuleUsage& usage = usage_[{device_id, module_id}];
  usage.module_id = module_id;
  usage.current_bytes += static_cast<uint64_t>(delta);
  usage.peak_bytes = std::max(usage.peak_bytes, usage.current_bytes);
}

void MemoryRegistry::AddDevice(uint64_t addr, const DeviceBlock& block) {
  ascend::MutexLock lock(&mu_);
  device_[addr] = block;
  if (block.kind == DeviceMemoryKind::kManaged) {
    const size_t pages = static_cast<size_t>(
        (block.size + kManagedGranule - 1) / kManagedGranule);
    managed_[addr].pages.assign(pages, ManagedPage{});
  }
  ChargeLocked(block.device_id, block.module_id,
               static_cast<int64_t>(block.size));
}

std::optional<MemoryRegistry::DeviceBlock> MemoryRegistry::RemoveDevice(
    uint64_t addr) {
  ascend::MutexLock lock(&mu_);
  auto it = device_.find(addr);
  if (it == device_.end()) return std::nullopt;
  DeviceBlock block = it->second;
  device_.erase(it);
  managed_.erase(addr);
  ChargeLocked(block.device_id, block.module_id,
               -static_cast<int64_t>(block.size));
  return block;
}

void MemoryRegistry::DropDevice(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  for (auto it = device_.begin(); it != device_.end();) {
    if (it->second.device_id == device_id) {
      managed_.erase(it->first);
      it = device_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& [key, usage] : usage_) {
    if (key.first == device_id) usage.current_bytes = 0;
  }
}

std::optional<MemoryRegistry::DeviceFind> MemoryRegistry::FindDevice(
    uint64_t addr) const {
  ascend::MutexLock lock(&mu_);
  auto it = Containing(device_, addr);
  if (it == device_.end()) return std::nullopt;
  return DeviceFind{it->first, it->second};
}

std::vector<ModuleUsage> MemoryRegistry::Usage(int32_t device_id) const {
  std::vector<ModuleUsage> usage;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [key, value] : usage_) {
      if (key.first == device_id) usage.push_back(value);
    }
  }
  std::stable_sort(usage.begin(), usage.end(),
                   [](const ModuleUsage& a, const ModuleUsage& b) {
                     return a.current_bytes > b.current_bytes;
                   });
  return usage;
}

absl::StatusOr<std::pair<uint64_t, size_t>> MemoryRegistry::ManagedRangeLocked(
    uint64_t addr, uint64_t size) const {
  auto it = Containing(device_, addr);
  if (it == device_.end() || it->second.kind != DeviceMemoryKind::kManaged) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("0x", absl::Hex(addr),
                              " is not in memory from aclrtMemAllocManaged"));
  }
  const uint64_t offset = addr - it->first;
  const uint64_t extent = managed_.at(it->first).pages.size() * kManagedGranule;
  if (size == 0 || size > extent - offset) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("range [0x", absl::Hex(addr), ", +", size,
                              ") is not inside one managed allocation"));
  }
  return std::make_pair(it->first,
                        static_cast<size_t>(offset / kManagedGranule));
}

absl::Status MemoryRegistry::CheckManaged(uint64_t addr, uint64_t size) const {
  ascend::MutexLock lock(&mu_);
  return ManagedRangeLocked(addr, size).status();
}

absl::Status MemoryRegistry::Advise(uint64_t addr, uint64_t size,
                                    aclrtMemManagedAdviseType advise,
                                    const ManagedLocation& location) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<std::pair<uint64_t, size_t>> range =
      ManagedRangeLocked(addr, size);
  if (!range.ok()) return range.status();
  std::vector<ManagedPage>& pages = managed_[range->first].pages;
  const uint64_t end = addr + size;
  for (size_t i = range->second;
       i < pages.size() && range->first + i * kManagedGranule < end; ++i) {
    ManagedPage& page = pages[i];
    auto& by = page.accessed_by;
    switch (advise) {
      case ACL_MEM_ADVISE_SET_READ_MOSTLY:
        page.read_mostly = true;
        break;
      case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
        page.read_mostly = false;
        break;
      case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
        page.preferred = location;
        break;
      case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        page.preferred = ManagedLocation{};
        break;
      case ACL_MEM_ADVISE_SET_ACCESSED_BY:
        if (std::find(by.begin(), by.end(), location) == by.end()) {
          by.push_back(location);
        }
        break;
      case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
        by.erase(std::remove(by.begin(), by.end(), location), by.end());
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status MemoryRegistry::RecordPrefetch(uint64_t addr, uint64_t size,
                                            const ManagedLocation& location) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<std::pair<uint64_t, size_t>> range =
      ManagedRangeLocked(addr, size);
  if (!range.ok()) return range.status();
  std::vector<ManagedPage>& pages = managed_[range->first].pages;
  const uint64_t end = addr + size;
  for (size_t i = range->second;
       i < pages.size() && range->first + i * kManagedGranule < end; ++i) {
    pages[i].last_prefetch = location;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ManagedPage>> MemoryRegistry::ManagedPages(
    uint64_t addr, uint64_t size) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<std::pair<uint64_t, size_t>> range =
      ManagedRangeLocked(addr, size);
  if (!range.ok()) return range.status();
  const std::vector<ManagedPage>& pages = managed_.at(range->first).pages;
  std::vector<ManagedPage> out;
  const uint64_t end = addr + size;
  for (size_t i = range->second;
       i < pages.size() && range->first + i * kManagedGranule < end; ++i) {
    out.push_back(pages[i]);
  }
  return out;
}

void MemoryRegistry::AddPinned(uint64_t addr, uint64_t size) {
  ascend::MutexLock lock(&mu_);
  pinned_[addr] = size;
}

void MemoryRegistry::RemovePinned(uint64_t addr) {
  ascend::MutexLock lock(&mu_);
  pinned_.erase(addr);
}

std::optional<MemoryRegistry::HostFind> MemoryRegistry::FindPinned(
    uint64_t addr) const {
  ascend::MutexLock lock(&mu_);
  auto it = Containing(pinned_, addr);
  if (it == pinned_.end()) return std::nullopt;
  return HostFind{it->first, it->second};
}

absl::Status MemoryRegistry::Register(uint64_t addr,
                                      const Registration& registration) {
  ascend::MutexLock lock(&mu_);
  // Overlap: the first range at or after addr starts before our end, or the
  // one before addr runs past addr.
  auto next = registered_.lower_bound(addr);
  const bool overlaps_next =
      next != registered_.end() && next->first - addr < registration.size;
  bool overlaps_prev = false;
  if (next != registered_.begin()) {
    auto prev = std::prev(next);
    overlaps_prev = addr - prev->first < prev->second.size;
  }
  if (overlaps_next || overlaps_prev) {
    return Error(
        ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
        absl::StrCat("host range [0x", absl::Hex(addr), ", +",
                     registration.size, ") overlaps a registered range"));
  }
  registered_[addr] = registration;
  return absl::OkStatus();
}

absl::Status MemoryRegistry::Unregister(uint64_t addr) {
  ascend::MutexLock lock(&mu_);
  if (registered_.erase(addr) == 0) {
    return Error(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                 absl::StrCat("0x", absl::Hex(addr),
                              " is not the start of a registered host range"));
  }
  return absl::OkStatus();
}

std::optional<MemoryRegistry::HostFind> MemoryRegistry::FindRegistration(
    uint64_t addr) const {
  ascend::MutexLock lock(&mu_);
  auto it = Containing(registered_, addr);
  if (it == registered_.end()) return std::nullopt;
  return HostFind{it->first, it->second.size};
}

size_t MemoryRegistry::RegistrationCount() const {
  ascend::MutexLock lock(&mu_);
  return registered_.size();
}

MemoryRegistry::Classified MemoryRegistry::Classify(uint64_t addr,
                                                    bool device_only) const {
  Classified out;
  ascend::MutexLock lock(&mu_);
  if (auto it = Containing(device_, addr); it != device_.end()) {
    out.holder = Holder::kDevice;
    out.device = DeviceFind{it->first, it->second};
  } else if (device_only) {
    // Not host memory.
  } else if (Containing(pinned_, addr) != pinned_.end()) {
    out.holder = Holder::kPinned;
  } else if (Containing(registered_, addr) != registered_.end()) {
    out.holder = Holder::kRegistered;
  }
  return out;
}

std::string ModuleName(uint16_t module_id) {
  if (module_id == kAppModuleId) return "APP";
  return absl::StrCat("MODULE_", module_id);
}

}  // namespace ascend::rt
