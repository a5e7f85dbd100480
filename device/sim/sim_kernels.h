// The simulator's kernels (DESIGN.md §5.20): the simulated kernel ABI
// (aclsim/aclsim_kernel.h) behind the backend-neutral kernel interface
// (device/kernel.h).
//
// A binary is a host shared object. LoadKernelModule copies its bytes into
// an anonymous memory file and opens that with the dynamic loader (every
// load is its own instance with its own globals; no file is left behind).
// A launch calls the kernel's entry once per block on the device's cores
// (Device::RunBlocks) with the block's aclsimKernelContext; a raised
// exception, a trap or a memory access fault ends the block and the first
// one is the launch's; printf text is kept per block
// (ACLSIM_KERNEL_PRINT_BUFFER bytes each) and handed back block by block.
//
// Thread safety: every function may be called from any thread.
#ifndef ASCENDCL_DEVICE_SIM_SIM_KERNELS_H_
#define ASCENDCL_DEVICE_SIM_SIM_KERNELS_H_

#include <memory>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "aclsim/aclsim_kernel_abi.h"
#include "device/device.h"
#include "device/kernel.h"

namespace ascend::device::sim {

// Backend::LoadKernelModule for the simulator.
absl::StatusOr<std::unique_ptr<KernelModule>> LoadKernelModule(
    absl::string_view image, absl::string_view what);

// A kernel compiled into the program (aclsimRegisterKernel), described as a
// loaded binary's kernel is. kInvalidArgument when `info` is not of this
// ABI version or malformed.
absl::StatusOr<KernelSymbol> DescribeProgramKernel(
    absl::string_view name, aclsimKernelEntry entry,
    const aclsimKernelInfo* info);

// Device::RunKernel for the simulator: the blocks run on `device`'s cores
// (RunBlocks), each calling the entry (an aclsimKernelEntry) with its
// context.
absl::Status RunKernel(Device& device, const KernelLaunch& launch,
                       absl::FunctionRef<bool()> stopping,
                       KernelLaunchResult* result);

}  // namespace ascend::device::sim

#endif  // ASCENDCL_DEVICE_SIM_SIM_KERNELS_H_
