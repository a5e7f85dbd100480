// The npu Device: one device opened through the Ascend driver. Made by the
// npu backend's Open; see device/npu/README.md for the semantics that differ
// from the simulator (AllocateAt, Checksum, HostPointer).
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_NPU_DEVICE_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_NPU_DEVICE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device.h"
#include "device/npu/internal/driver_context.h"

namespace ascend::device::npu::internal {

class NpuDevice final : public Device {
 public:
  // Takes over `slot`, which the caller has opened in the driver and marked
  // `has_handle`.
  NpuDevice(std::shared_ptr<DriverContext> context, DeviceSlot& slot);
  // Closes the device (halDeviceClose, DEV_CLOSE_HOST_DEVICE), which releases
  // every allocation. A driver without halDeviceClose keeps the device open:
  // the allocations are freed one by one and the next Open reuses it.
  ~NpuDevice() override;

  int32_t id() const override { return slot_.id; }

  absl::StatusOr<DeviceAddr> Allocate(uint64_t size,
                                      uint64_t alignment) override;
  absl::Status Free(DeviceAddr addr) override;
  std::optional<Allocation> FindAllocation(DeviceAddr addr) const override;
  std::vector<Allocation> Allocations() const override;
  MemoryInfo GetMemoryInfo() const override;

  absl::Status CopyToDevice(DeviceAddr dst, const void* src,
                            uint64_t size) override;
  absl::Status CopyFromDevice(void* dst, DeviceAddr src,
                              uint64_t size) override;
  absl::Status CopyWithinDevice(DeviceAddr dst, DeviceAddr src,
                                uint64_t size) override;
  absl::Status Fill(DeviceAddr dst, uint8_t value, uint64_t size) override;
  absl::StatusOr<uint64_t> Checksum(DeviceAddr addr, uint64_t size) override;
  void* HostPointer(DeviceAddr addr) override { return nullptr; }

  absl::StatusOr<uint32_t> AllocateId(ResourceKind kind) override;
  absl::Status ClaimId(ResourceKind kind, uint32_t id) override;
  void ReleaseId(ResourceKind kind, uint32_t id) override;

  // halDeviceClose(DEV_CLOSE_HOST_USER) then halDeviceOpen, as CANN's
  // snapshot restore does. The allocations become "dropped": the driver keeps
  // their addresses reserved when they are in its last backup.
  // kUnimplemented (nothing touched) without halDeviceClose.
  absl::Status Reopen() override;
  // Takes back an allocation Reopen dropped, at its address and size,
  // zero-filled. The driver has no fixed-address allocation: the range comes
  // back through halProcessResRestore, either already done by
  // RestoreProcessResources or done here on first need (it re-creates every
  // allocation of the last backup, on every device, so the other devices of
  // that backup must have been re-opened too). kAlreadyExists if the range
  // overlaps a live allocation otherwise; kUnimplemented for a range Reopen
  // did not drop or the last backup does not hold.
  absl::Status AllocateAt(DeviceAddr addr, uint64_t size) override;

  // Copies between two devices of the same backend (drvMemcpy classifies
  // both addresses as device memory).
  static absl::Status CopyPeer(NpuDevice& dst_device, DeviceAddr dst,
                               NpuDevice& src_device, DeviceAddr src,
                               uint64_t size);

  const DriverContext* context() const { return context_.get(); }

 private:
  const HalApi& api() const { return context_->api(); }

  std::shared_ptr<DriverContext> context_;
  DeviceSlot& slot_;
};

// kFailedPrecondition unless `slot` is open in the driver (shared by
// npu_device*.cc).
absl::Status CheckOpen(const DeviceSlot& slot)
    ABSL_SHARED_LOCKS_REQUIRED(slot.mu);

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_NPU_DEVICE_H_
