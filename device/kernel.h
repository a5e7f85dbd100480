// Kernels as the runtime sees them on any backend (DESIGN.md §5.20): a
// loaded kernel module (Backend::LoadKernelModule) answers its kernels by
// name or entry address with their parameter layout and lists its device
// globals; a device runs a kernel's blocks (Device::RunKernel). How a
// backend's binaries are laid out, how a kernel is called and how it raises
// exceptions or prints is the backend's own (the simulator's ABI:
// aclsim/aclsim_kernel.h, implemented in //device/sim:kernels). Nothing here
// knows about ACL.
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<KernelModule> module,
//                           backend.LoadKernelModule(bytes, "vadd.so"));
//   ASCEND_ASSIGN_OR_RETURN(KernelSymbol vadd, module->FindKernel("vadd"));
//   KernelLaunch launch{vadd.entry, args, /*blocks=*/8, /*block_offset=*/0,
//                       /*cores=*/8};
//   KernelLaunchResult result;
//   ASCEND_RETURN_IF_ERROR(device.RunKernel(launch, never_stop, &result));
//
// Thread safety: a module's const methods may be called from any thread;
// SetGlobalAddress is called while the module is placed, before it is
// shared.
#ifndef ASCENDCL_DEVICE_KERNEL_H_
#define ASCENDCL_DEVICE_KERNEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ascend::device {

// The most parameters a kernel may describe (and an argument list hold).
inline constexpr size_t kMaxKernelParams = 128;

// One parameter of a kernel: its byte offset in the argument bytes and its
// size.
struct KernelParam {
  uint32_t offset = 0;
  uint32_t size = 0;
};

// A kernel of a module (or one compiled into the program).
struct KernelSymbol {
  // The code the device's cores run: what RunKernel takes and what the
  // kernel is known by (its address).
  const void* entry = nullptr;
  size_t code_size = 0;     // 0: unknown
  bool has_params = false;  // the module describes its parameters
  std::vector<KernelParam> params;
};

// A device global of a module: `size` bytes, placed in device memory by the
// caller with the initial bytes copied there.
struct KernelGlobal {
  std::string name;
  const void* initial = nullptr;  // host bytes (null: none); the symbol
  size_t size = 0;
};

// A loaded kernel binary. Destroying it unloads the code: the caller keeps
// it alive while a launch of one of its kernels may run.
class KernelModule {
 public:
  virtual ~KernelModule() = default;

  // The kernel `name`. With `exact` the symbol of exactly that name (a CPU
  // function), else the backend's entry for the kernel of that name.
  // kNotFound when there is none; kInvalidArgument when the module's
  // description of it is malformed (the message says how).
  virtual absl::StatusOr<KernelSymbol> FindKernel(absl::string_view name,
                                                  bool exact = false) const = 0;
  // The name of the kernel whose entry is at `entry` (what FindKernel takes);
  // kNotFound when `entry` is no kernel's entry.
  virtual absl::StatusOr<std::string> KernelNameAt(uint64_t entry) const = 0;

  // The module's device globals, in a fixed order.
  virtual const std::vector<KernelGlobal>& Globals() const = 0;
  // Tells the kernels where global `index` of Globals() lives on the device.
  virtual void SetGlobalAddress(size_t index, uint64_t device_addr) = 0;
};

// One launch of a kernel: `blocks` calls of `entry`, block indexes
// [block_offset, block_offset + blocks), on up to `cores` cores.
struct KernelLaunch {
  const void* entry = nullptr;  // KernelSymbol::entry
  void* args = nullptr;         // the argument bytes (host or device memory)
  uint32_t blocks = 0;
  uint32_t block_offset = 0;
  uint32_t cores = 1;
};

// How a launch's first failing block failed.
enum class KernelFault : uint8_t {
  kNone = 0,
  kRaised = 1,       // the kernel raised an exception (`code`, 0: none given)
  kTrap = 2,         // a trap instruction
  kMemoryFault = 3,  // an access to memory that is not mapped
};

// What a launch did.
struct KernelLaunchResult {
  KernelFault fault = KernelFault::kNone;  // the first one in the launch
  uint32_t code = 0;                       // kRaised: the kernel's code
  uint32_t block = 0;                      // its block, from 0
  // The blocks' printf text, block by block (empty: none printed).
  std::string output;
};

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_KERNEL_H_
