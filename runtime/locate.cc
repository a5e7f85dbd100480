// Where a pointer lives, whether peer access is enabled, and records made
// while a device is open: the core's answers to the families (DESIGN.md
// §1.7).
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

std::vector<std::shared_ptr<device::Device>> Runtime::OpenDeviceObjects()
    const {
  std::vector<std::shared_ptr<device::Device>> open;
  ascend::MutexLock lock(&mu_);
  for (const DeviceEntry& entry : devices_) {
    if (entry.device) open.push_back(entry.device);
  }
  return open;
}

Runtime::Location Runtime::Locate(const void* ptr) const {
  return LocateIn(OpenDeviceObjects(), ptr);
}

Runtime::Location Runtime::LocateIn(
    const std::vector<std::shared_ptr<device::Device>>& open,
    const void* ptr) const {
  for (const auto& device : open) {
    if (auto allocation = device->FindAllocation(Addr(ptr))) {
      return Location{device, *allocation, std::nullopt};
    }
  }
  // Not in a live allocation: a pointer inside a device's address space was
  // freed, or belongs to a device that was reset. Treating it as host memory
  // would write through it (a crash, or a write into a freed block that the
  // next allocation hands out dirty).
  Location host;
  if (backend_) host.stale_device = backend_->DeviceOwningAddress(Addr(ptr));
  return host;
}

bool Runtime::PeerAccessEnabled(int32_t a, int32_t b) const {
  ascend::MutexLock lock(&mu_);
  return devices_[a].peers.contains(b) || devices_[b].peers.contains(a);
}

bool Runtime::WhileOpen(const std::shared_ptr<device::Device>& device,
                        const std::function<void()>& fn) const {
  if (device == nullptr) return false;
  ascend::MutexLock lock(&mu_);
  const int32_t id = device->id();
  if (id < 0 || id >= device_count_ || devices_[id].device != device) {
    return false;
  }
  fn();
  return true;
}

}  // namespace ascend::rt
