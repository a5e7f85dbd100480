// The `sim` device backend: a simulated NPU whose device memory is host
// memory (DESIGN.md §6).
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Backend> backend,
//                           sim::CreateSimBackend());   // reads the env
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Device> dev, backend->Open(0));
//
// Devices. `device_count` devices, each with `device_memory_bytes` of device
// address space, reserved (mmap PROT_NONE, MAP_NORESERVE) when the device is
// first opened and kept, at the same addresses, until the backend and every
// device opened from it are gone. Memory is committed only when touched.
// A DeviceAddr is the host address of the byte: HostPointer returns it, so
// host code (the runtime's host functions) may read and write device memory
// directly. Unallocated device memory is inaccessible (PROT_NONE in 2 MiB
// chunks), so stray accesses fault.
//
// Memory. Sizes are rounded up to 512 B and blocks start on 512 B
// boundaries (so every alignment up to 512 is implied; larger powers of two
// are honoured as asked). Best-fit with coalescing. Fresh allocations are
// zero-filled. GetMemoryInfo reports the capacity and the bytes Allocate can
// still hand out: ranges kept reserved by Reopen are not free. Copies, fill
// and checksum require the device range to lie inside one live allocation
// (its requested size, not the rounding) and run at memcpy speed; copies
// have memmove semantics. A zero-size copy of a valid address does nothing.
// Checksum reads device memory in place (no copy) with the shared
// device::Checksum (device/checksum.h: eight lanes over 1 KiB blocks, near
// memory bandwidth), so it equals the checksum the runtime computes over a
// host copy of the same bytes.
//
// Ids. Per device and ResourceKind, the lowest free id in [0, limit), where
// limit is max_ids_per_kind, and for streams (notifies) the smaller of that
// and max_streams_per_device (max_notifies_per_device); ClaimId of an id >=
// limit is kInvalidArgument. Reopen and closing drop every id.
//
// Reopen drops every allocation, its contents and every id, and keeps the
// dropped ranges reserved until AllocateAt takes them back or the device is
// closed (destroyed).
//
// Faults (InjectFault; any device id in range, open or not; never blocks):
//  * kMemoryLoss: every byte of the device reads as zero at once;
//    allocations stay live; a HealthEvent {id, description,
//    device_abnormal=true} is queued.
//  * kNextCopyFails: the next Copy*/CopyPeer touching the device (as
//    destination, else as source) returns kDataLoss without copying.
//  * kNextCopyCorrupts: the next such copy completes but flips (xor 0xFF) the
//    middle byte of its destination, silently.
// One-shot faults stay pending until a copy consumes them (including across
// Reopen and close); invalid or zero-size copies do not consume them.
//
// Backup/RestoreProcessResources succeed and do nothing: the simulator keeps
// no driver-side image; the runtime saves device memory itself.
// CanAccessPeer is true for any two distinct valid devices; CopyPeer needs
// two devices opened from the same backend.
//
// DeviceOwningAddress knows every device's window: it names the device for
// any address inside it (allocated or not, device open or closed) from the
// device's first Open until the backend is gone. Lock-free.
#ifndef ASCENDCL_DEVICE_SIM_SIM_BACKEND_H_
#define ASCENDCL_DEVICE_SIM_SIM_BACKEND_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device/device.h"

namespace ascend::device::sim {

inline constexpr absl::string_view kSimBackendName = "sim";

struct SimConfig {
  static constexpr int32_t kMaxDeviceCount = 1024;
  static constexpr uint64_t kMaxDeviceMemoryBytes = uint64_t{1} << 44;

  // ACLSIM_DEVICE_COUNT, in [0, kMaxDeviceCount].
  int32_t device_count = 8;
  // ACLSIM_DEVICE_MEMORY_MB (in MiB), per device; a non-zero multiple of
  // 512 B up to kMaxDeviceMemoryBytes.
  uint64_t device_memory_bytes = uint64_t{64} << 30;
  // ACLSIM_SOC_NAME; must not be empty. The default is the exact CANN name
  // of the chip the simulator imitates: frameworks look the name up in fixed
  // tables (torch_npu enables graph capture only for known SoCs).
  std::string soc_name = "Ascend910B1";
  // Ids per device and ResourceKind (not configurable from the environment).
  uint32_t max_ids_per_kind = 65536;
  // Stream ids per device (at most max_ids_per_kind): CANN's documented
  // maximum number of streams of the default SoC, default and internal
  // streams included (aclrtCreateStream; DESIGN.md §6.3).
  uint32_t max_streams_per_device = 1984;
  // Notify ids per device (at most max_ids_per_kind): CANN's documented
  // maximum on Atlas A2 parts (08 notify management, aclrtCreateNotify).
  uint32_t max_notifies_per_device = 8192;

  // The defaults above, overridden by the environment variables named above
  // when they are set and not empty. kInvalidArgument names a malformed or
  // out-of-range variable.
  static absl::StatusOr<SimConfig> FromEnvironment();
};

// The sim backend for `config`; kInvalidArgument when it is out of range.
absl::StatusOr<std::unique_ptr<Backend>> CreateSimBackend(
    const SimConfig& config);
// The sim backend configured from the environment (SimConfig::FromEnvironment).
absl::StatusOr<std::unique_ptr<Backend>> CreateSimBackend();

}  // namespace ascend::device::sim

#endif  // ASCENDCL_DEVICE_SIM_SIM_BACKEND_H_
