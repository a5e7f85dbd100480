// Task memory and the memory epoch (runtime/memory/memory.h): whether a
// located pointer's range is live device memory, the checked
// reads and writes of device memory that built-in tasks, kernels, models and
// device writes make, and the epoch every device-memory write bumps, which
// value waits poll (DESIGN.md §1.7, §5.15).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

bool RangeInAllocation(const Runtime::Location& where, const void* ptr,
                       uint64_t size) {
  if (where.device == nullptr) return false;
  const uint64_t p = Addr(ptr);
  const device::Allocation& a = where.allocation;
  // No overflow for huge sizes.
  return p >= a.addr && size <= a.size && p - a.addr <= a.size - size;
}

absl::Status RejectStale(const Runtime::Location& where, const void* ptr,
                         absl::string_view what) {
  if (!where.stale_device) return absl::OkStatus();
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat(what, " 0x", absl::Hex(Addr(ptr)), " is in device ",
                            *where.stale_device,
                            "'s address space but not in a live allocation "
                            "(freed, or its device was reset)"));
}

void Memory::MemoryWritten() {
  ascend::MutexLock lock(&epoch_mu_);
  ++memory_epoch_;
}

uint64_t Memory::MemoryEpoch() {
  ascend::MutexLock lock(&epoch_mu_);
  return memory_epoch_;
}

void Memory::AwaitMemoryWrite(uint64_t seen, absl::Duration timeout) {
  std::pair<Memory*, uint64_t> args(this, seen);
  ascend::MutexLock lock(&epoch_mu_);
  epoch_mu_.AwaitWithTimeout(
      absl::Condition(
          +[](std::pair<Memory*, uint64_t>* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            return a->first->memory_epoch_ != a->second;
          },
          &args),
      timeout);
}

absl::Status Memory::CheckTaskMemory(const void* ptr, uint64_t bytes,
                                     int32_t device_id,
                                     absl::string_view what) {
  Runtime::Location where = runtime_.Locate(ptr);
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

absl::StatusOr<std::vector<uint8_t>> Memory::ReadTaskMemory(
    const void* ptr, uint64_t bytes, int32_t device_id,
    absl::string_view what) {
  ASCEND_RETURN_IF_ERROR(CheckTaskMemory(ptr, bytes, device_id, what));
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) return Error(ACL_ERROR_RT_PARAM_INVALID, "device closed");
  std::vector<uint8_t> data(bytes);
  ASCEND_RETURN_IF_ERROR(device->CopyFromDevice(data.data(), Addr(ptr), bytes));
  return data;
}

absl::Status Memory::WriteTaskMemory(void* ptr,
                                     const std::vector<uint8_t>& data,
                                     int32_t device_id,
                                     absl::string_view what) {
  ASCEND_RETURN_IF_ERROR(CheckTaskMemory(ptr, data.size(), device_id, what));
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) return Error(ACL_ERROR_RT_PARAM_INVALID, "device closed");
  ASCEND_RETURN_IF_ERROR(
      device->CopyToDevice(Addr(ptr), data.data(), data.size()));
  MemoryWritten();
  return absl::OkStatus();
}

}  // namespace ascend::rt
