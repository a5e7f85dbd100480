// The participant conformance suite over the npu backend and the in-tree
// stand-in driver (two devices, from the BUILD file's environment). The
// stand-in is ours: failing to load it fails the tests.
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "device/npu/npu_backend.h"
#include "testing/fake_driver/fake_hal_client.h"
#include "testing/participant_conformance/participant_conformance.h"

namespace ascend::snapshot::conformance {
namespace {

BackendUnderTest NpuOverStandIn() {
  return {"npu_stand_in",
          []() -> absl::StatusOr<std::unique_ptr<device::Backend>> {
            const char* path = std::getenv("ASCEND_HAL_LIBRARY_PATH");
            if (path == nullptr) {
              return absl::FailedPreconditionError(
                  "ASCEND_HAL_LIBRARY_PATH must name the stand-in driver");
            }
            absl::StatusOr<::ascend::testing::FakeHalClient> hal =
                ::ascend::testing::FakeHalClient::Attach(path);
            if (!hal.ok()) return hal.status();
            absl::Status capacity = hal->SetCapacity(uint64_t{256} << 20, 0);
            if (!capacity.ok()) return capacity;
            return device::npu::CreateNpuBackend();
          }};
}

}  // namespace
}  // namespace ascend::snapshot::conformance

ASCEND_INSTANTIATE_PARTICIPANT_CONFORMANCE_SUITE(
    Npu, ::ascend::snapshot::conformance::NpuOverStandIn());
