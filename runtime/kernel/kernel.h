// Kernels (DESIGN.md §5.20): binaries, functions, argument lists, launches,
// and the snapshot participant for kernel binaries.
//
//   Kernels& kernels = *Kernels::Of(runtime);
//   ASCEND_ASSIGN_OR_RETURN(void* bin, kernels.LoadFile("vadd.so", nullptr));
//   ASCEND_ASSIGN_OR_RETURN(void* fn, kernels.Function(bin, "vadd"));
//   ASCEND_RETURN_IF_ERROR(kernels.Launch(fn, 8, stream, {}, args));
//
// What a binary is, how its kernels are called and how they raise
// exceptions or print is the backend's (device/kernel.h; the simulator's
// ABI is aclsim/aclsim_kernel.h, implemented in device/sim): the backend
// loads a binary's bytes into a kernel module (Backend::LoadKernelModule)
// that answers kernels by name or entry with their parameter layout and
// lists the binary's device globals. The runtime keeps the host copy of the
// bytes, copies the image into device memory of the current device
// (aclrtBinaryGetDevAddress) and places the device globals there too.
// Kernels compiled into the program (aclsimRegisterKernel, described by the
// backend for the ACL layer) go into one process-wide "program" binary that
// has no device and launches on every device.
//
// A launch is a stream task. When it runs, the device runs its blocks
// (Device::RunKernel); a raised exception (or a contained trap) fails the
// task with its code and the exception information names the function and
// its arguments; the blocks' printf text is written to stdout, block by
// block, before the task ends.
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_RUNTIME_KERNEL_KERNEL_H_
#define ASCENDCL_RUNTIME_KERNEL_KERNEL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "device/kernel.h"
#include "runtime/family.h"
#include "runtime/snapshot_participant.h"
#include "runtime/task_path.h"

namespace ascend::rt {

class Runtime;
struct KernelBinary;
struct KernelFunction;
struct KernelArgList;

// What aclrtLaunchKernelCfg's attributes ask of a launch.
struct LaunchConfig {
  uint32_t block_offset = 0;  // ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET
  bool vector_cores = false;  // ENGINE_TYPE: ACL_RT_ENGINE_TYPE_AIV
  uint64_t timeout_us = 0;    // TIMEOUT / TIMEOUT_US; 0: the device's
  uint8_t sched_mode = 0;     // SCHEM_MODE (kept; one scheduler here)
};

// A launch's arguments: bytes copied at enqueue (host arguments), or device
// memory the kernel reads when it runs (aclrtLaunchKernel's argsData).
struct LaunchArgs {
  std::vector<uint8_t> bytes;
  // Pointer fields to point at a place in `bytes` once copied:
  // (offset of the pointer, offset of the data).
  std::vector<std::pair<uint32_t, uint32_t>> place_holders;
  void* device = nullptr;  // non-null: device arguments of `device_size`
  size_t device_size = 0;
};

// What aclrtFunctionGet* and aclrtGetFunction* report of a function.
struct FunctionInfo {
  std::string name;
  void* binary = nullptr;
  void* entry = nullptr;  // the host code the cores run
  size_t code_size = 0;   // the entry symbol's size (0: unknown)
  bool has_params = false;
  std::vector<device::KernelParam> params;
  bool cpu = false;  // registered with aclrtRegisterCpuFunc
};

class Memory;

class Kernels final : public Family {
 public:
  explicit Kernels(Runtime& runtime);
  Kernels(const Kernels&) = delete;
  Kernels& operator=(const Kernels&) = delete;
  ~Kernels() override;

  // The kernel family of `runtime`, or null when it has none.
  static Kernels* Of(const Runtime& runtime);

  // --- Binaries ----------------------------------------------------------
  // aclrtBinaryLoadFromFile / aclrtBinaryLoadFromData / aclrtBinaryLoad: a
  // binary of the current device.
  absl::StatusOr<void*> LoadFile(const char* path,
                                 const aclrtBinaryLoadOptions* options);
  absl::StatusOr<void*> LoadData(const void* data, size_t size,
                                 const aclrtBinaryLoadOptions* options);
  // aclrtBinaryUnLoad: its functions and argument lists go with it; launches
  // already queued keep the code until they ran.
  absl::Status Unload(void* binary);
  absl::StatusOr<std::pair<void*, size_t>> DeviceImage(void* binary) const;
  absl::StatusOr<std::pair<void*, size_t>> Global(void* binary,
                                                  const char* name) const;
  absl::Status SetExceptionCallback(void* binary,
                                    aclrtOpExceptionCallback callback,
                                    void* user_data);

  // --- Functions ---------------------------------------------------------
  absl::StatusOr<void*> Function(void* binary, const char* name);
  absl::StatusOr<void*> FunctionByEntry(void* binary, uint64_t entry);
  absl::StatusOr<void*> RegisterCpuFunc(void* binary, const char* func_name,
                                        const char* kernel_name);
  // aclsimRegisterKernel: `kernel` as the backend described it (its error,
  // a malformed description, is answered unless `symbol` is registered).
  absl::StatusOr<void*> RegisterProgramKernel(
      const void* symbol, const char* name,
      absl::StatusOr<device::KernelSymbol> kernel);
  // aclrtGetFuncBySymbol: a program kernel by its symbol, or a function of a
  // loaded binary by its entry address.
  absl::StatusOr<void*> FunctionBySymbol(const void* symbol);
  absl::StatusOr<FunctionInfo> Describe(const void* func) const;
  // aclrtGetSymbolAddress & co: the device global whose host symbol (the
  // binary's initial image of it) is `symbol`.
  absl::StatusOr<std::pair<void*, size_t>> Symbol(const void* symbol) const;

  // --- Argument lists (aclrtKernelArgs*) -----------------------------------
  // Bytes of the handle memory aclrtKernelArgsInitByUserMem takes.
  static size_t ArgsHandleSize();
  // The memory a list of `user_size` parameter bytes needs.
  absl::StatusOr<size_t> ArgsMemSize(const void* func, size_t user_size) const;
  absl::StatusOr<void*> ArgsInit(void* func);
  absl::Status ArgsInitUser(void* func, void* handle_mem, void* user_mem,
                            size_t size);
  absl::StatusOr<void*> ArgsAppend(void* args, const void* param, size_t size);
  absl::StatusOr<void*> ArgsAppendPlaceHolder(void* args);
  absl::StatusOr<void*> ArgsPlaceHolderBuffer(void* args, void* param,
                                              size_t size);
  absl::Status ArgsUpdate(void* args, void* param, const void* value,
                          size_t size);
  absl::Status ArgsFinalize(void* args);
  // The function and launch arguments of a finalized list.
  absl::StatusOr<std::pair<void*, LaunchArgs>> ArgsForLaunch(void* args) const;
  // Host arguments with every parameter given separately (argument array):
  // needs the function's parameter description.
  absl::StatusOr<LaunchArgs> ArgsFromArray(const void* func,
                                           void* const* values) const;

  // --- Launches ----------------------------------------------------------
  absl::Status Launch(void* func, uint32_t blocks, void* stream,
                      const LaunchConfig& config, LaunchArgs args);

  // Gives kernel launches queued or running on any device up to `grace` to
  // finish (returns at once when none is). A synchronous copy calls it
  // first: simulated kernels are host code, much slower to start than a
  // device's, and programs written for hardware expect a tiny kernel they
  // launched to be done before their next synchronous copy (DESIGN.md
  // §5.20). Not from stream work (a host function's copy waits for nothing).
  void AwaitLaunches(absl::Duration grace);
  // A launch's task ran or was discarded (called by the task itself).
  void LaunchDone();
  // Kernel launches queued or running now (what AwaitLaunches waits for).
  int64_t LaunchesInFlight() const {
    return in_flight_.load(std::memory_order_acquire);
  }

  // Bookkeeping the participant reads.
  struct BinaryRecord {
    void* handle = nullptr;
    uint64_t image_addr = 0;
    size_t image_size = 0;
    uint64_t image_checksum = 0;  // of the host image
    std::vector<std::pair<std::string, std::pair<uint64_t, size_t>>> globals;
    std::vector<std::pair<std::string, void*>> functions;
    size_t arg_lists = 0;
  };
  std::vector<BinaryRecord> Records(int32_t device_id) const;
  // Writes the images of the binaries `handles` of the device that are
  // still loaded back from their host copies, and verifies them (what a
  // Restore does after the memory came back). Binaries loaded since are
  // left alone, unloaded ones stay unloaded.
  absl::Status ReloadImages(int32_t device_id,
                            const std::vector<void*>& handles);

 private:
  // Gives a synchronous copy or fill from the host the launches' grace
  // (AwaitLaunches) at the task path's access point (DESIGN.md §1.6).
  class LaunchGraceHook final : public TaskHook {
   public:
    explicit LaunchGraceHook(Kernels& kernels) : kernels_(kernels) {}
    absl::Status OnAccess(const HostAccess& access) override;

   private:
    Kernels& kernels_;
  };

  absl::StatusOr<void*> LoadFileOrThrow(const char* path,
                                        const aclrtBinaryLoadOptions* options);
  absl::StatusOr<void*> Load(std::string image, const char* what,
                             const aclrtBinaryLoadOptions* options);
  // A binary's image copied to fresh device memory of the current device.
  absl::StatusOr<uint64_t> PlaceImage(const std::string& image);
  // Places a lazily loaded binary's image, once (nothing for other
  // binaries).
  absl::Status PlaceLazyImage(void* handle);
  std::shared_ptr<KernelBinary> FindBinaryLocked(const void* handle) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  std::shared_ptr<KernelFunction> FindFunctionLocked(const void* handle) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  std::shared_ptr<KernelArgList> FindArgsLocked(const void* handle) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::StatusOr<void*> AddFunctionLocked(
      const std::shared_ptr<KernelBinary>& binary, std::string name,
      absl::StatusOr<device::KernelSymbol> kernel, bool cpu)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DropBinaryLocked(const std::shared_ptr<KernelBinary>& binary)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void OnDeviceClosed(int32_t device_id);

  Runtime& runtime_;
  // Binaries place their images and globals in device memory: the memory
  // family, registered before this one (runtime/process/families.cc).
  Memory* const memory_;
  LaunchGraceHook grace_hook_{*this};
  uint64_t close_observer_ = 0;
  // Kernel launches enqueued and not yet finished or discarded.
  std::atomic<int64_t> in_flight_{0};
  ascend::Mutex quiet_mu_;
  mutable ascend::Mutex mu_;
  std::map<const void*, std::shared_ptr<KernelBinary>> binaries_
      ABSL_GUARDED_BY(mu_);
  std::map<const void*, std::shared_ptr<KernelFunction>> functions_
      ABSL_GUARDED_BY(mu_);
  std::map<const void*, std::shared_ptr<KernelArgList>> args_
      ABSL_GUARDED_BY(mu_);
  // The program's own kernels (aclsimRegisterKernel), by symbol.
  std::shared_ptr<KernelBinary> program_ ABSL_GUARDED_BY(mu_);
  std::map<const void*, void*> program_symbols_ ABSL_GUARDED_BY(mu_);
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration KernelFamily();

// The "kernel_binaries" snapshot participant, registered last; it saves
// nothing for a runtime without the kernel family.
std::unique_ptr<SnapshotParticipant> MakeKernelParticipant(Runtime& runtime);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_KERNEL_KERNEL_H_
