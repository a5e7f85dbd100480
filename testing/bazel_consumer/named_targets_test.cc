// Uses the individual targets other Bazel projects ask for by name
// (@ascendcl//runtime:global_state, //snapshot:snapshot_coordinator,
// //snapshot:callback_manager, //device/sim:device_ops, //acl:acl_api): each
// resolves, compiles against its headers and links. Exit status 0 is a pass.
#include <cstdio>
#include <memory>

#include "acl/acl.h"
#include "device/sim/sim_backend.h"
#include "runtime/global_state.h"
#include "snapshot/callback_registry.h"
#include "snapshot/coordinator.h"  // the coordinator target compiles

namespace {

uint32_t OnStage(int32_t, void*) { return 0; }

}  // namespace

int main() {
  // A private gate: RUNNING until someone locks it.
  ascend::rt::GlobalState state(ascend::rt::GlobalState::Options{});
  if (state.state() != ascend::rt::ProcessState::kRunning) {
    std::fprintf(stderr, "FAIL: a new GlobalState is not RUNNING\n");
    return 1;
  }
  // The simulator backend on its own.
  ascend::device::sim::SimConfig config;
  config.device_count = 1;
  auto backend = ascend::device::sim::CreateSimBackend(config);
  if (!backend.ok() || (*backend)->DeviceCount() != 1) {
    std::fprintf(stderr, "FAIL: CreateSimBackend\n");
    return 1;
  }
  // A stage-callback registry (//snapshot:callback_manager).
  ascend::snapshot::CallbackRegistry registry;
  if (!registry.Register(0, &OnStage, nullptr).ok() ||
      registry.Register(0, &OnStage, nullptr).ok()) {
    std::fprintf(stderr, "FAIL: CallbackRegistry\n");
    return 1;
  }
  // The C API through //acl:acl_api.
  uint32_t devices = 0;
  if (aclrtGetDeviceCount(&devices) != ACL_SUCCESS || devices == 0) {
    std::fprintf(stderr, "FAIL: aclrtGetDeviceCount\n");
    return 1;
  }
  std::printf("named_targets_test: PASS\n");
  return 0;
}
