// The device conformance suite run against the npu backend over the stand-in
// driver library (//testing/fake_driver). The stand-in has the BUILD file's
// device count; each backend made for the suite gets the requested capacity
// as normal pages only (no huge-page pool), so exhaustion is exact.
// The stand-in is built here, so it must load: RequireAvailable makes a
// missing or wrong library (or too few devices) fail every test, not skip.
#include <cstdlib>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "device/npu/internal/hal_library.h"
#include "device/npu/npu_backend.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/fake_driver/fake_hal_client.h"

namespace ascend::device::npu {
namespace {

conformance::BackendUnderTest NpuOverStandIn() {
  return conformance::RequireAvailable(
      {"npu_stand_in",
       [](const conformance::BackendOptions& options)
           -> absl::StatusOr<std::unique_ptr<Backend>> {
         const std::string path = internal::HalLibrary::DefaultPath();
         ASCEND_ASSIGN_OR_RETURN(testing::FakeHalClient hal,
                                 testing::FakeHalClient::Attach(path));
         ASCEND_RETURN_IF_ERROR(
             hal.SetCapacity(options.device_memory_bytes, 0));
         return CreateNpuBackend();
       }});
}

}  // namespace
}  // namespace ascend::device::npu

ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    Npu, ::ascend::device::npu::NpuOverStandIn());
