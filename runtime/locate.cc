// Where a pointer lives, peer access between devices and the memory epoch:
// the core's answers to the memory family and to built-in tasks (DESIGN.md
// §1.7).
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
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

bool Runtime::RangeInAllocation(const Location& where, const void* ptr,
                                uint64_t size) {
  if (where.device == nullptr) return false;
  const uint64_t p = Addr(ptr);
  const device::Allocation& a = where.allocation;
  // No overflow for huge sizes.
  return p >= a.addr && size <= a.size && p - a.addr <= a.size - size;
}

absl::Status Runtime::RejectStale(const Location& where, const void* ptr,
                                  absl::string_view what) {
  if (!where.stale_device) return absl::OkStatus();
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat(what, " 0x", absl::Hex(Addr(ptr)), " is in device ",
                            *where.stale_device,
                            "'s address space but not in a live allocation "
                            "(freed, or its device was reset)"));
}

absl::StatusOr<bool> Runtime::PeerAccessStatus(int32_t device_id,
                                               int32_t peer) const {
  if (device_id < 0 || device_id >= device_count_ || peer < 0 ||
      peer >= device_count_) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("device ids ", device_id, " and ", peer,
                              " must lie in [0, ", device_count_, ")"));
  }
  if (device_id == peer) return false;
  // One-directional (04 device management, aclrtDeviceEnablePeerAccess):
  // device_id enabled access to peer; peer enabling device_id is the other
  // direction.
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].peers.contains(peer);
}

bool Runtime::PeerAccessEnabled(int32_t a, int32_t b) const {
  ascend::MutexLock lock(&mu_);
  return devices_[a].peers.contains(b) || devices_[b].peers.contains(a);
}

void Runtime::MemoryWritten() {
  ascend::MutexLock lock(&epoch_mu_);
  ++memory_epoch_;
}

uint64_t Runtime::MemoryEpoch() {
  ascend::MutexLock lock(&epoch_mu_);
  return memory_epoch_;
}

void Runtime::AwaitMemoryWrite(uint64_t seen, absl::Duration timeout) {
  std::pair<Runtime*, uint64_t> args(this, seen);
  ascend::MutexLock lock(&epoch_mu_);
  epoch_mu_.AwaitWithTimeout(
      absl::Condition(
          +[](std::pair<Runtime*, uint64_t>* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            return a->first->memory_epoch_ != a->second;
          },
          &args),
      timeout);
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

absl::Status Runtime::CheckTaskMemory(const void* ptr, uint64_t bytes,
                                      int32_t device_id,
                                      absl::string_view what) {
  Location where = Locate(ptr);
  if (!RangeInAllocation(where, ptr, bytes)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " 0x", absl::Hex(Addr(ptr)), " (", bytes,
                              " bytes) is not in a live device allocation"));
  }
  if (where.device->id() != device_id) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " is on device ", where.device->id(),
                              ", the stream on device ", device_id));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> Runtime::ReadTaskMemory(
    const void* ptr, uint64_t bytes, int32_t device_id,
    absl::string_view what) {
  ASCEND_RETURN_IF_ERROR(CheckTaskMemory(ptr, bytes, device_id, what));
  std::shared_ptr<device::Device> device = DeviceObject(device_id);
  if (!device) return Error(ACL_ERROR_RT_PARAM_INVALID, "device closed");
  std::vector<uint8_t> data(bytes);
  ASCEND_RETURN_IF_ERROR(device->CopyFromDevice(data.data(), Addr(ptr), bytes));
  return data;
}

absl::Status Runtime::WriteTaskMemory(void* ptr,
                                      const std::vector<uint8_t>& data,
                                      int32_t device_id,
                                      absl::string_view what) {
  ASCEND_RETURN_IF_ERROR(CheckTaskMemory(ptr, data.size(), device_id, what));
  std::shared_ptr<device::Device> device = DeviceObject(device_id);
  if (!device) return Error(ACL_ERROR_RT_PARAM_INVALID, "device closed");
  ASCEND_RETURN_IF_ERROR(
      device->CopyToDevice(Addr(ptr), data.data(), data.size()));
  MemoryWritten();
  return absl::OkStatus();
}

}  // namespace ascend::rt
