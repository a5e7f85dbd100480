// The device conformance suite run against the sim backend, configured as
// the suite asks (device count and a small capacity, so exhaustion is cheap).
#include <memory>

#include "absl/status/statusor.h"
#include "device/device.h"
#include "device/sim/sim_backend.h"
#include "testing/device_conformance/device_conformance.h"

namespace ascend::device::sim {
namespace {

conformance::BackendUnderTest SimUnderTest() {
  return {"sim",
          [](const conformance::BackendOptions& options)
              -> absl::StatusOr<std::unique_ptr<Backend>> {
            SimConfig config;
            config.device_count = options.device_count;
            config.device_memory_bytes = options.device_memory_bytes;
            return CreateSimBackend(config);
          }};
}

}  // namespace
}  // namespace ascend::device::sim

ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    Sim, ::ascend::device::sim::SimUnderTest());
