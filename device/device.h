// The device interface: what the runtime needs from an accelerator, and what
// every backend (`sim`, `npu`) implements. Nothing here knows about ACL.
// Device composes one interface per concern, each in its own header:
//   device_memory.h          memory and copies (MemoryOps)
//   device_virtual_memory.h  physical memory, reservations, mappings
//                            (VirtualMemoryOps)
//   device_compute.h         kernel execution (ComputeOps)
//   device_write_tracking.h  written ranges for the incremental snapshot
//                            (WriteTrackingOps)
//   device_health.h          faults, memory errors, health events (HealthOps)
//   device_ids.h             stream, event and notify ids (IdOps)
//
//   std::unique_ptr<Backend> backend = ...;           // see backend_registry.h
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Device> dev, backend->Open(0));
//   ASCEND_ASSIGN_OR_RETURN(DeviceAddr buf, dev->Allocate(4096, 32));
//   ASCEND_RETURN_IF_ERROR(dev->CopyToDevice(buf, host, 4096));
//
// Errors are absl::Status with canonical codes; the runtime maps them to ACL
// codes in one place:
//   kInvalidArgument   bad address/range/size, address not in an allocation
//   kOutOfRange        device id out of range
//   kResourceExhausted out of device memory or ids
//   kAlreadyExists     AllocateAt/ClaimId on a taken range/id
//   kFailedPrecondition device not open / open twice
//   kUnimplemented     the backend or its driver lacks the operation
//   kDataLoss          a copy failed (e.g. an injected fault); a read of a
//                      range hit by an uncorrectable memory error carries
//                      the payload IsMemoryError() tests
//   kUnavailable       the driver library is missing
//
// Thread safety: every method may be called concurrently from any thread.
#ifndef ASCENDCL_DEVICE_DEVICE_H_
#define ASCENDCL_DEVICE_DEVICE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device/device_compute.h"
#include "device/device_health.h"
#include "device/device_ids.h"
#include "device/device_memory.h"
#include "device/device_virtual_memory.h"
#include "device/device_write_tracking.h"
#include "device/kernel.h"

namespace ascend::device {

// One device opened by this process. Owned by the runtime; destroying it
// closes the device and releases every allocation and id.
class Device : public MemoryOps,
               public VirtualMemoryOps,
               public ComputeOps,
               public WriteTrackingOps,
               public HealthOps,
               public IdOps {
 public:
  ~Device() override = default;

  virtual int32_t id() const = 0;

  // --- Lifecycle (a snapshot primitive) -----------------------------------
  // Closes and re-opens the device: every allocation (and its contents),
  // physical allocation, mapping and id is dropped, but the addresses of the
  // dropped allocations and reservations stay reserved so AllocateAt,
  // AllocatePhysicalAt and ReserveAddress can put them back where they were.
  virtual absl::Status Reopen() = 0;
};

// A device backend ("driver"). One instance per process, made by the backend
// registry at start-up.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual absl::string_view name() const = 0;
  // Number of devices visible to the process (0 when the driver is missing).
  virtual int32_t DeviceCount() const = 0;
  // SoC name reported for the devices.
  virtual std::string SocName() const = 0;
  // Bytes of device memory of device `id` (whether or not it is open);
  // nullopt when the backend cannot tell without opening it.
  virtual std::optional<uint64_t> DeviceMemoryBytes(int32_t id) const {
    return std::nullopt;
  }
  // Opens device `id` in [0, DeviceCount()).
  virtual absl::StatusOr<std::unique_ptr<Device>> Open(int32_t id) = 0;

  // The device whose device address space holds `addr`, whether or not the
  // address is in a live allocation and whether or not the device is open
  // now (a freed pointer, or one of a closed device, still names its device).
  // nullopt when no device's address space holds `addr` or when the backend
  // cannot tell (its driver does not publish the ranges); the caller must then
  // treat the address as host memory. Never blocks.
  virtual std::optional<int32_t> DeviceOwningAddress(DeviceAddr addr) const = 0;

  // Whether `device` can read and write `peer`'s memory directly.
  virtual bool CanAccessPeer(int32_t device, int32_t peer) const = 0;
  // Copies between two open devices of this backend.
  virtual absl::Status CopyPeer(Device& dst_device, DeviceAddr dst,
                                Device& src_device, DeviceAddr src,
                                uint64_t size) = 0;

  // Driver-level process snapshot (npu: halProcessResBackup/Restore). The
  // simulator keeps no driver-side image: the runtime saves memory itself.
  // Loads a kernel binary (`image`, its bytes; `what` names it in messages).
  // kInvalidArgument when it is no binary of this backend or cannot be
  // loaded, kInternal when the host failed, kUnimplemented where the backend
  // loads no kernels (npu).
  virtual absl::StatusOr<std::unique_ptr<KernelModule>> LoadKernelModule(
      absl::string_view image, absl::string_view what) {
    return absl::UnimplementedError("this backend cannot load kernels");
  }

  virtual absl::Status BackupProcessResources() = 0;
  virtual absl::Status RestoreProcessResources() = 0;

  // Fault injection; kUnimplemented unless the backend simulates faults.
  virtual absl::Status InjectFault(int32_t device_id, Fault fault) = 0;
  // A fault on [addr, addr + size) of an open device (kMemoryError): the
  // caller has checked the range lies in one live allocation of the device.
  // kUnimplemented unless the backend simulates it.
  virtual absl::Status InjectRangeFault(int32_t device_id, Fault fault,
                                        DeviceAddr addr, uint64_t size) {
    return absl::UnimplementedError(
        "this backend does not simulate range faults");
  }

  // Blocks until a health event arrives, `timeout` passes, or
  // InterruptHealthWait is called; nullopt when none arrived.
  virtual std::optional<HealthEvent> WaitHealthEvent(
      absl::Duration timeout) = 0;
  // Wakes a thread blocked in WaitHealthEvent (it returns nullopt).
  virtual void InterruptHealthWait() = 0;
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_H_
