#include "device/builtin_backends.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/backend_registry.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "device/npu/npu_backend.h"
#include "device/sim/sim_backend.h"

namespace ascend::device {

absl::Status RegisterBuiltinBackends(BackendRegistry& registry) {
  ASCEND_RETURN_IF_ERROR(registry.Register(
      sim::kSimBackendName, []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return sim::CreateSimBackend();
      }));
  // Real Ascend hardware through libascend_hal.so, loaded at run time.
  return registry.Register(npu::kNpuBackendName,
                           []() -> absl::StatusOr<std::unique_ptr<Backend>> {
                             return npu::CreateNpuBackend();
                           });
}

absl::StatusOr<std::unique_ptr<Backend>> CreateBackendFromEnvironment() {
  BackendRegistry registry;
  ASCEND_RETURN_IF_ERROR(RegisterBuiltinBackends(registry));
  return registry.CreateFromEnvironment();
}

}  // namespace ascend::device
