// NpuDevice's memory and copies (device_memory.h): drvMemAlloc-style
// allocations through the HAL, copies, fills and checksums, AllocateAt after
// Reopen, and copies between two devices.
#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "device/npu/internal/hal_error.h"
#include "device/npu/internal/npu_device.h"
#include "glog/logging.h"

namespace ascend::device::npu::internal {
namespace {

// aclrtMalloc's default policy (ACL_MEM_MALLOC_HUGE_FIRST): huge pages first
// above 1 MiB, normal pages otherwise and as the fallback.
constexpr uint64_t kHugeFirstThreshold = 1ULL << 20;
// CANN passes alignment exponent 9 (512 B); larger requests raise it.
constexpr uint64_t kMinAlignExponent = 9;
// The flag's alignment field has 5 bits.
constexpr uint64_t kMaxAlignExponent = 31;

DVdeviceptr HostAddr(const void* p) {
  return static_cast<DVdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

// The entry of `map` containing `addr`, or end().
AllocationMap::const_iterator Containing(const AllocationMap& map,
                                         DeviceAddr addr) {
  auto it = map.upper_bound(addr);
  if (it == map.begin()) return map.end();
  --it;
  return addr - it->first < it->second ? it : map.end();
}

bool Overlaps(const AllocationMap& map, DeviceAddr addr, uint64_t size) {
  auto it = map.lower_bound(addr + size);  // first entry starting past the end
  if (it == map.begin()) return false;
  --it;
  return it->first + it->second > addr;
}

// Checks that [addr, addr + size) lies inside one allocation of `slot` and
// returns the bytes from `addr` to the end of that allocation (the
// destination capacity drvMemcpy/drvMemsetD8 take).
absl::StatusOr<uint64_t> CheckRange(const DeviceSlot& slot, DeviceAddr addr,
                                    uint64_t size)
    ABSL_SHARED_LOCKS_REQUIRED(slot.mu) {
  ASCEND_RETURN_IF_ERROR(CheckOpen(slot));
  auto it = Containing(slot.allocations, addr);
  if (it == slot.allocations.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("0x", absl::Hex(addr),
                     " is not in a live allocation of npu device ", slot.id));
  }
  const uint64_t capacity = it->first + it->second - addr;
  if (size > capacity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "range 0x", absl::Hex(addr), "+", size,
        " runs past the end of its allocation (", capacity, " bytes left)"));
  }
  return capacity;
}

absl::Status CheckHostPointer(const void* p) {
  if (p != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError("host pointer is null");
}

}  // namespace

absl::StatusOr<DeviceAddr> NpuDevice::Allocate(uint64_t size,
                                               uint64_t alignment) {
  if (size == 0) return absl::InvalidArgumentError("allocation size is 0");
  if (!absl::has_single_bit(alignment)) {
    return absl::InvalidArgumentError(
        absl::StrCat("alignment ", alignment, " is not a power of two"));
  }
  const uint64_t exponent = std::max<uint64_t>(
      kMinAlignExponent, static_cast<uint64_t>(absl::countr_zero(alignment)));
  if (exponent > kMaxAlignExponent) {
    return absl::InvalidArgumentError(absl::StrCat(
        "alignment ", alignment, " exceeds the driver's maximum 2^31"));
  }
  const unsigned long long flag =
      MEM_DEV | MEM_TYPE_HBM | MEM_SET_ALIGN_SIZE(exponent) |
      HAL_ABI_MODULE_ID(HAL_ABI_MODULE_APP) | NODE_TO_DEVICE(slot_.driver_id);

  WriterMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckOpen(slot_));
  void* p = nullptr;
  drvError_t err = DRV_ERROR_NONE;
  if (size > kHugeFirstThreshold) {
    err = api().halMemAlloc(&p, size, flag | MEM_PAGE_HUGE);
    if (err != DRV_ERROR_NONE) {
      VLOG(1) << "npu device " << slot_.id << ": huge-page allocation of "
              << size << " bytes failed ("
              << DriverStatus("halMemAlloc", err).message()
              << "); retrying with normal pages";
      p = nullptr;
    }
  }
  if (p == nullptr) err = api().halMemAlloc(&p, size, flag);
  if (err != DRV_ERROR_NONE) {
    return DriverStatus(absl::StrCat("halMemAlloc(", size, " bytes, flag 0x",
                                     absl::Hex(flag), ")"),
                        err);
  }
  const DeviceAddr addr = HostAddr(p);
  if (addr == 0 || addr % alignment != 0) {
    (void)api().halMemFree(p);
    return absl::InternalError(absl::StrCat("halMemAlloc returned 0x",
                                            absl::Hex(addr),
                                            ", not aligned to ", alignment));
  }
  // Device memory is not zeroed by the driver; the interface promises zeros.
  err = api().drvMemsetD8(addr, size, 0, size);
  if (err != DRV_ERROR_NONE) {
    (void)api().halMemFree(p);
    return DriverStatus("drvMemsetD8 (zero fill)", err);
  }
  slot_.allocations.emplace(addr, size);
  return addr;
}

absl::Status NpuDevice::Free(DeviceAddr addr) {
  WriterMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckOpen(slot_));
  auto it = slot_.allocations.find(addr);
  if (it == slot_.allocations.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "0x", absl::Hex(addr),
        " is not the base of a live allocation of npu device ", slot_.id));
  }
  const drvError_t err = api().halMemFree(reinterpret_cast<void*>(addr));
  if (err != DRV_ERROR_NONE) return DriverStatus("halMemFree", err);
  slot_.allocations.erase(it);
  slot_.dropped.erase(addr);
  return absl::OkStatus();
}

std::optional<Allocation> NpuDevice::FindAllocation(DeviceAddr addr) const {
  ReaderMutexLock lock(&slot_.mu);
  auto it = Containing(slot_.allocations, addr);
  if (it == slot_.allocations.end()) return std::nullopt;
  return Allocation{it->first, it->second};
}

std::vector<Allocation> NpuDevice::Allocations() const {
  ReaderMutexLock lock(&slot_.mu);
  std::vector<Allocation> out;
  out.reserve(slot_.allocations.size());
  for (const auto& [addr, size] : slot_.allocations) {
    out.push_back(Allocation{addr, size});
  }
  return out;
}

MemoryInfo NpuDevice::GetMemoryInfo() const {
  // HBM first (910B/910_93/950/cloud); DDR-only chips answer NOT_SUPPORT.
  MemInfo info = {};
  drvError_t err =
      api().halMemGetInfo(slot_.driver_id, MEM_INFO_TYPE_HBM_SIZE, &info);
  if (err == DRV_ERROR_NOT_SUPPORT) {
    info = {};
    err = api().halMemGetInfo(slot_.driver_id, MEM_INFO_TYPE_DDR_SIZE, &info);
  }
  if (err != DRV_ERROR_NONE) {
    LOG(WARNING) << "npu device " << slot_.id << ": "
                 << DriverStatus("halMemGetInfo", err) << "; reporting 0 bytes";
    return MemoryInfo{};
  }
  // As CANN's aclrtGetMemInfo(ACL_HBM_MEM / ACL_DDR_MEM): normal + huge.
  MemoryInfo out;
  out.total_bytes = info.phy_info.total + info.phy_info.huge_total;
  out.free_bytes = info.phy_info.free + info.phy_info.huge_free;
  return out;
}

absl::Status NpuDevice::CopyToDevice(DeviceAddr dst, const void* src,
                                     uint64_t size) {
  if (size == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(CheckHostPointer(src));
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_ASSIGN_OR_RETURN(const uint64_t capacity,
                          CheckRange(slot_, dst, size));
  return DriverStatus("drvMemcpy (host to device)",
                      api().drvMemcpy(dst, capacity, HostAddr(src), size));
}

absl::Status NpuDevice::CopyFromDevice(void* dst, DeviceAddr src,
                                       uint64_t size) {
  if (size == 0) return absl::OkStatus();
  ASCEND_RETURN_IF_ERROR(CheckHostPointer(dst));
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckRange(slot_, src, size).status());
  return DriverStatus("drvMemcpy (device to host)",
                      api().drvMemcpy(HostAddr(dst), size, src, size));
}

absl::Status NpuDevice::CopyWithinDevice(DeviceAddr dst, DeviceAddr src,
                                         uint64_t size) {
  if (size == 0) return absl::OkStatus();
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_ASSIGN_OR_RETURN(const uint64_t capacity,
                          CheckRange(slot_, dst, size));
  ASCEND_RETURN_IF_ERROR(CheckRange(slot_, src, size).status());
  if (dst == src) return absl::OkStatus();
  return DriverStatus("drvMemcpy (device to device)",
                      api().drvMemcpy(dst, capacity, src, size));
}

absl::Status NpuDevice::Fill(DeviceAddr dst, uint8_t value, uint64_t size) {
  if (size == 0) return absl::OkStatus();
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_ASSIGN_OR_RETURN(const uint64_t capacity,
                          CheckRange(slot_, dst, size));
  return DriverStatus("drvMemsetD8",
                      api().drvMemsetD8(dst, capacity, value, size));
}

absl::StatusOr<uint64_t> NpuDevice::Checksum(DeviceAddr addr, uint64_t size) {
  // The driver subset has no on-device checksum: read the range back
  // (drvMemcpy device to host) and hash it on the host with the shared
  // function, so the value matches device::Checksum of the same bytes.
  if (size == 0) return device::Checksum(nullptr, 0);
  ReaderMutexLock lock(&slot_.mu);
  ASCEND_RETURN_IF_ERROR(CheckRange(slot_, addr, size).status());
  std::unique_ptr<uint8_t[]> scratch(new (std::nothrow) uint8_t[size]);
  if (scratch == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "no host memory for a ", size, "-byte checksum read-back"));
  }
  const drvError_t err =
      api().drvMemcpy(HostAddr(scratch.get()), size, addr, size);
  if (err != DRV_ERROR_NONE) {
    return DriverStatus("drvMemcpy (checksum read-back)", err);
  }
  return device::Checksum(scratch.get(), size);
}

absl::Status NpuDevice::AllocateAt(DeviceAddr addr, uint64_t size) {
  if (size == 0) return absl::InvalidArgumentError("allocation size is 0");
  if (addr + size < addr) {
    return absl::InvalidArgumentError("range wraps around the address space");
  }
  const std::string range = absl::StrCat("0x", absl::Hex(addr), "+", size);
  std::optional<absl::Status> restored;  // set once this call restored
  while (true) {
    {
      WriterMutexLock lock(&slot_.mu);
      ASCEND_RETURN_IF_ERROR(CheckOpen(slot_));
      auto dropped = slot_.dropped.find(addr);
      const bool was_dropped =
          dropped != slot_.dropped.end() && dropped->second == size;
      auto live = slot_.allocations.find(addr);
      if (was_dropped && live != slot_.allocations.end() &&
          live->second == size) {
        // Re-created by halProcessResRestore: take it back, zero-filled as
        // the interface promises (FindAllocation sees the restored bytes).
        const drvError_t err = api().drvMemsetD8(addr, size, 0, size);
        if (err != DRV_ERROR_NONE) return DriverStatus("drvMemsetD8", err);
        slot_.dropped.erase(dropped);
        return absl::OkStatus();
      }
      if (Overlaps(slot_.allocations, addr, size)) {
        return absl::AlreadyExistsError(absl::StrCat(
            "range ", range, " overlaps a live allocation of npu device ",
            slot_.id));
      }
      if (!was_dropped) {
        return absl::UnimplementedError(absl::StrCat(
            "npu device ", slot_.id, ": ", range,
            " is not an allocation that Reopen dropped; the driver has no "
            "fixed-address allocation"));
      }
      if (restored.has_value()) {
        if (!restored->ok()) return *restored;
        return absl::InternalError(
            absl::StrCat("halProcessResRestore did not re-create ", range));
      }
    }
    // Dropped by Reopen and not re-created yet: only the driver's process
    // restore can put it back, and it puts back every allocation of the last
    // backup at once.
    if (!context_->BackupHolds(slot_.id, addr, size)) {
      return absl::UnimplementedError(absl::StrCat(
          "npu device ", slot_.id, ": ", range,
          " is not in the last driver backup, so the driver cannot re-create "
          "it (BackupProcessResources before Reopen)"));
    }
    restored = context_->Restore();
  }
}

absl::Status NpuDevice::CopyPeer(NpuDevice& dst_device, DeviceAddr dst,
                                 NpuDevice& src_device, DeviceAddr src,
                                 uint64_t size) {
  if (&dst_device == &src_device) {
    return dst_device.CopyWithinDevice(dst, src, size);
  }
  if (size == 0) return absl::OkStatus();
  DeviceSlot& first =
      dst_device.id() < src_device.id() ? dst_device.slot_ : src_device.slot_;
  DeviceSlot& second =
      dst_device.id() < src_device.id() ? src_device.slot_ : dst_device.slot_;
  ReaderMutexLock lock_first(&first.mu);
  ReaderMutexLock lock_second(&second.mu);
  dst_device.slot_.mu.AssertReaderHeld();
  src_device.slot_.mu.AssertReaderHeld();
  ASCEND_ASSIGN_OR_RETURN(const uint64_t capacity,
                          CheckRange(dst_device.slot_, dst, size));
  ASCEND_RETURN_IF_ERROR(CheckRange(src_device.slot_, src, size).status());
  return DriverStatus("drvMemcpy (peer)",
                      dst_device.api().drvMemcpy(dst, capacity, src, size));
}

}  // namespace ascend::device::npu::internal
