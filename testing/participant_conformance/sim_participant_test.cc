// The participant conformance suite over the simulator (two small devices).
#include "device/sim/sim_backend.h"
#include "testing/participant_conformance/participant_conformance.h"

namespace ascend::snapshot::conformance {
namespace {

BackendUnderTest Sim() {
  return {"sim", [] {
            device::sim::SimConfig config;
            config.device_count = 2;
            config.device_memory_bytes = uint64_t{256} << 20;
            return device::sim::CreateSimBackend(config);
          }};
}

}  // namespace
}  // namespace ascend::snapshot::conformance

ASCEND_INSTANTIATE_PARTICIPANT_CONFORMANCE_SUITE(
    Sim, ::ascend::snapshot::conformance::Sim());
