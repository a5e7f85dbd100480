// Driver error codes (drvError_t) -> absl::Status.
//
// The runtime maps canonical codes to ACL codes in one place
// (runtime/base/error.cc); the device layer cannot carry an exact ACL code.
// Each driver code is therefore mapped to the canonical code whose runtime
// mapping gives the ACL code CANN returns for it (§3 of
// ascend_hal_subset.md) where such a canonical code exists, else to the
// nearest in meaning. The driver code, its name and CANN's ACL code are always
// in the message:
//
//   return DriverStatus("halMemAlloc", err);
//   // -> RESOURCE_EXHAUSTED "halMemAlloc: DRV_ERROR_OUT_OF_MEMORY (driver
//   //    error 6; CANN reports ACL error 207001)"
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ERROR_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ERROR_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ascend::device::npu::internal {

struct DriverErrorMapping {
  int32_t driver_code;
  absl::StatusCode canonical;
  int32_t cann_acl_code;  // what CANN's aclrt* call returns for this code
};

// The rows of §3, in ascending driver code; every code not listed maps like
// `kOtherDriverError`.
absl::Span<const DriverErrorMapping> DriverErrorTable();
inline constexpr DriverErrorMapping kOtherDriverError = {
    -1, absl::StatusCode::kInternal, 507899};

// The mapping for `driver_code` (kOtherDriverError's canonical/ACL code, with
// `driver_code` filled in, for codes outside the table).
DriverErrorMapping MapDriverError(int32_t driver_code);

// The enumerator name ("DRV_ERROR_OUT_OF_MEMORY"), or "unknown driver error".
absl::string_view DriverErrorName(int32_t driver_code);

// OkStatus for DRV_ERROR_NONE, else a status as described above. `call` names
// the driver function.
absl::Status DriverStatus(absl::string_view call, int32_t driver_code);

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ERROR_H_
