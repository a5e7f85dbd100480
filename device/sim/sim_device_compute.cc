// SimDevice's compute (device_compute.h): kernel blocks run on the
// device's cores, which are host threads.
#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "device/device.h"
#include "device/kernel.h"
#include "device/sim/sim_device.h"
#include "device/sim/sim_kernels.h"

namespace ascend::device::sim {

absl::Status SimDevice::RunBlocks(uint32_t blocks, uint32_t cores,
                                  absl::FunctionRef<void(uint32_t)> body) {
  cores_.Run(blocks, cores, body);
  return absl::OkStatus();
}

absl::Status SimDevice::RunKernel(const KernelLaunch& launch,
                                  absl::FunctionRef<bool()> stopping,
                                  KernelLaunchResult* result) {
  return sim::RunKernel(*this, launch, stopping, result);
}

}  // namespace ascend::device::sim
