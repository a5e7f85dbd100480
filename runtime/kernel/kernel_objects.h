// The kernel family's objects, shared by its files (not installed, not used
// outside runtime/kernel): loaded binaries, functions, argument lists, the
// launch task and small helpers (DESIGN.md §5.20).
#ifndef ASCENDCL_RUNTIME_KERNEL_KERNEL_OBJECTS_H_
#define ASCENDCL_RUNTIME_KERNEL_KERNEL_OBJECTS_H_

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/device_info/device_settings.h"
#include "runtime/exception_info.h"
#include "runtime/kernel/kernel.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

// A loaded binary, or the program's own kernels (device_id -1).
struct KernelBinary {
  ObjectHandle handle;
  int32_t device_id = -1;
  uint64_t generation = 0;  // the device opening it was loaded on
  std::string image;        // the binary's bytes (host copy)
  uint64_t image_checksum = 0;
  std::unique_ptr<device::KernelModule> module;  // none for the program's
  uint64_t image_addr = 0;  // 0 while a lazy load is not placed (mu_)
  bool cpu_mode = false;
  // Loaded with isLazyLoad: the image goes to device memory with the first
  // function looked up in it (Kernels::PlaceLazyImage; Kernels::mu_).
  bool lazy = false;
  bool placing = false;
  struct Global {
    std::string name;
    const void* initial = nullptr;
    uint64_t addr = 0;
    size_t size = 0;
  };
  std::vector<Global> globals;
  std::vector<void*> functions;                 // handles (Kernels::mu_)
  std::vector<void*> arg_lists;                 // handles (Kernels::mu_)
  aclrtOpExceptionCallback callback = nullptr;  // Kernels::mu_
  void* callback_data = nullptr;                // Kernels::mu_
};

struct KernelFunction {
  ObjectHandle handle;
  std::shared_ptr<KernelBinary> binary;
  std::string name;
  const void* entry = nullptr;
  size_t code_size = 0;
  bool has_params = false;
  std::vector<device::KernelParam> params;
  bool cpu = false;
};

// An aclrtArgsHandle's parameter list.
struct KernelArgList {
  ObjectHandle own_handle;
  void* key = nullptr;  // the handle callers hold
  std::shared_ptr<KernelFunction> function;
  // System-managed memory, or the caller's (aclrtKernelArgsInitByUserMem).
  std::vector<uint8_t> own;
  uint8_t* data = nullptr;
  size_t capacity = 0;  // 0 for own memory: grows
  size_t used = 0;      // parameter bytes
  struct Param {
    uint32_t offset = 0;
    uint32_t size = 0;
    bool place_holder = false;
    // A place-holder's buffer: its own memory, or a place after the
    // parameters in the caller's.
    std::unique_ptr<uint8_t[]> buffer;
    uint8_t* data = nullptr;
    size_t data_size = 0;
  };
  std::vector<Param> params;
  size_t user_data_end = 0;  // end of place-holder buffers in caller memory
  bool finalized = false;
};

namespace kernel_internal {

constexpr uint32_t kMaxBlocks = 65535;
// A timeout at least this long is no timeout: the device's longest
// (DeviceSettings: 254 intervals of 2^32 ns).
constexpr uint64_t kNoTimeoutUs =
    DeviceSettings::kTimeoutIntervalUs * DeviceSettings::kMaxTimeoutIntervals;
constexpr size_t kMaxParams = device::kMaxKernelParams;
// What aclrtKernelArgsGetHandleMemSize answers: the bytes of caller memory
// an argument-list handle occupies (a tag the runtime writes there).
constexpr size_t kArgsHandleBytes = 64;
inline constexpr char kArgsHandleTag[] = "ascendcl kernel argument list";

inline uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

inline size_t AlignUp(size_t value, size_t align) {
  return (value + align - 1) / align * align;
}

// The alignment a parameter of `size` bytes gets: its natural alignment as a
// C struct field would have it, for the scalar and pointer sizes (1, 2, 4,
// 8), and 8 for anything larger (a struct of them).
inline size_t ParamAlign(size_t size) {
  if (size >= 8) return 8;
  size_t align = 1;
  while (align * 2 <= size && size % (align * 2) == 0) align *= 2;
  return align;
}

inline absl::Status NotBinary(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("binHandle 0x", absl::Hex(Addr(handle)),
                            " is not a loaded binary"));
}
inline absl::Status NotFunction(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("funcHandle 0x", absl::Hex(Addr(handle)),
                            " is not a kernel function"));
}
inline absl::Status NotArgs(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("argsHandle 0x", absl::Hex(Addr(handle)),
                            " is not an initialised argument list"));
}

// A backend's answer to a lookup in a binary: kNotFound is the lookup's
// failure, a malformed description an invalid parameter.
inline absl::Status LookupError(const absl::Status& status) {
  if (status.code() == absl::StatusCode::kNotFound) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP, status.message());
  }
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    return Error(ACL_ERROR_INVALID_PARAM, status.message());
  }
  return status;
}

// The code a launch's first failing block failed with.
inline int32_t FaultCode(const device::KernelLaunchResult& result) {
  switch (result.fault) {
    case device::KernelFault::kNone:
      return 0;
    case device::KernelFault::kRaised:
      return result.code == 0 ? ACL_ERROR_RT_AICORE_EXCEPTION
                              : static_cast<int32_t>(result.code);
    case device::KernelFault::kTrap:
      return ACL_ERROR_RT_AICORE_TRAP_EXCEPTION;
    case device::KernelFault::kMemoryFault:
      return ACL_ERROR_RT_AICORE_EXCEPTION;
  }
  return ACL_ERROR_RT_AICORE_EXCEPTION;
}

// A kernel task's exception information and its binary's callback.
struct KernelTask : KernelTaskInfo {
  KernelTask() = default;
  KernelTask(const KernelTask&) = delete;
  KernelTask& operator=(const KernelTask&) = delete;
  // The task ran or was discarded: one launch less in flight.
  ~KernelTask() {
    if (counted) kernels->LaunchDone();
  }
  Kernels* kernels = nullptr;
  bool counted = false;
  std::shared_ptr<KernelFunction> function;
  LaunchArgs args;
  uint32_t blocks = 0;
  uint32_t cores = 1;
  LaunchConfig config;
  std::weak_ptr<device::Device> device;
};

// Fills the place-holder pointers of host arguments now in their final
// place.
inline void FillPlaceHolders(LaunchArgs& args) {
  for (const auto& [addr_offset, data_offset] : args.place_holders) {
    uint8_t* data = args.bytes.data() + data_offset;
    std::memcpy(args.bytes.data() + addr_offset, &data, sizeof data);
  }
}

}  // namespace kernel_internal

using namespace kernel_internal;  // NOLINT: this family's private header

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_KERNEL_KERNEL_OBJECTS_H_
