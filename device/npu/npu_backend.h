// The "npu" device backend: Ascend NPUs driven through the Ascend driver
// library (`libascend_hal.so`), loaded with dlopen at run time and never
// linked at build time. See README.md in this directory.
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Backend> npu, CreateNpuBackend());
//   if (npu->DeviceCount() == 0) { ... no driver or no device ... }
//
// Without a usable driver library (missing file, or one lacking a required
// symbol) the factory still succeeds: the backend logs the reason once
// (glog WARNING), reports 0 devices, and answers Open, BackupProcessResources
// and RestoreProcessResources with kUnavailable carrying that reason (the
// runtime maps it to ACL_ERROR_RT_NO_DEVICE, 207004). Nothing crashes.
//
// Environment:
//   ASCEND_HAL_LIBRARY_PATH  the driver library to load (default
//                            "libascend_hal.so" through the loader's search).
//
// Thread safety: the backend and its devices may be used from any thread.
#ifndef ASCENDCL_DEVICE_NPU_NPU_BACKEND_H_
#define ASCENDCL_DEVICE_NPU_NPU_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device/device.h"

namespace ascend::device::npu {

inline constexpr absl::string_view kNpuBackendName = "npu";

struct NpuBackendOptions {
  // The driver library to dlopen. Empty: $ASCEND_HAL_LIBRARY_PATH when set
  // and non-empty, else "libascend_hal.so".
  std::string library_path;
};

// Makes the npu backend. Always succeeds today (a missing driver yields a
// backend with 0 devices, see above); the StatusOr is the backend factory
// signature.
absl::StatusOr<std::unique_ptr<Backend>> CreateNpuBackend(
    const NpuBackendOptions& options);
absl::StatusOr<std::unique_ptr<Backend>> CreateNpuBackend();

}  // namespace ascend::device::npu

#endif  // ASCENDCL_DEVICE_NPU_NPU_BACKEND_H_
