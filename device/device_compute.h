// The device interface, compute (see device.h for the whole interface):
// running kernel blocks on the device's cores. Kernel modules and launches
// themselves are described in kernel.h.
#ifndef ASCENDCL_DEVICE_DEVICE_COMPUTE_H_
#define ASCENDCL_DEVICE_DEVICE_COMPUTE_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "device/kernel.h"

namespace ascend::device {

// Kernel execution (Device).
class ComputeOps {
 public:
  virtual ~ComputeOps() = default;

  // Runs body(block) for every block in [0, blocks) on up to `cores` of the
  // device's cores in parallel (the calling thread is one of them) and
  // returns when every call has returned. The simulator's cores are host
  // threads, so `body` is host code (a simulated kernel). kUnimplemented
  // where the backend cannot run host code on its cores (npu).
  virtual absl::Status RunBlocks(uint32_t blocks, uint32_t cores,
                                 absl::FunctionRef<void(uint32_t)> body) {
    return absl::UnimplementedError(
        "this backend cannot run simulated kernels");
  }
  // Runs a kernel of a module this device's backend loaded (or one compiled
  // into the program) for every block of `launch` and returns when every
  // block has returned; `stopping` is asked before each block starts (true:
  // the block is skipped). What the blocks raised and printed goes to
  // `result`; an error status is the launch's own failure. kUnimplemented
  // where the backend runs no kernels (npu).
  virtual absl::Status RunKernel(const KernelLaunch& launch,
                                 absl::FunctionRef<bool()> stopping,
                                 KernelLaunchResult* result) {
    return absl::UnimplementedError("this backend cannot run kernels");
  }
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_DEVICE_COMPUTE_H_
