// Kernel binaries and functions, and what a snapshot reads of them
// (runtime/kernel/kernel.h; DESIGN.md §5.20). Launches are in
// kernel_launch.cc.
#include "runtime/kernel/kernel.h"

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
#include "runtime/device_info/device_info.h"
#include "runtime/exception_info.h"
#include "runtime/kernel/kernel_objects.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

// --- Construction ------------------------------------------------------------

namespace {

// How long a synchronous copy or fill from the host gives queued kernels to
// finish (AwaitLaunches).
constexpr absl::Duration kKernelGrace = absl::Milliseconds(10);
constexpr absl::Duration kTeardownGrace = absl::Seconds(5);

}  // namespace

Kernels* Kernels::Of(const Runtime& runtime) {
  return runtime.family<Kernels>();
}

FamilyRegistration KernelFamily() {
  return {"kernels", &FamilyIndex<Kernels>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<Kernels>(runtime);
          },
          [](Runtime& runtime) {
            FamilyRegistration::Participants participants;
            participants.push_back(MakeKernelParticipant(runtime));
            return participants;
          },
          FamilyRegistration::RestoreStage::kAfterMemory};
}

Kernels::Kernels(Runtime& runtime)
    : runtime_(runtime), memory_(Memory::Of(runtime)) {
  close_observer_ = runtime_.AddDeviceCloseObserver(
      [this](int32_t device_id) { OnDeviceClosed(device_id); });
  // A fixed number of families add hooks: the path cannot be full.
  runtime_.tasks().AddHook(&grace_hook_).IgnoreError();
}

absl::Status Kernels::LaunchGraceHook::OnAccess(const HostAccess& access) {
  if (access.op == HostOp::kMemoryWrite) kernels_.AwaitLaunches(kKernelGrace);
  // A launch handed to the device runs before its device closes or the
  // memory it may read is unmapped (DESIGN.md §5.20). A launch held behind
  // a wait nobody releases does not hold the teardown for good.
  if (access.op == HostOp::kTeardown) kernels_.AwaitLaunches(kTeardownGrace);
  return absl::OkStatus();
}

Kernels::~Kernels() { runtime_.RemoveDeviceCloseObserver(close_observer_); }

void Kernels::OnDeviceClosed(int32_t device_id) {
  std::vector<std::shared_ptr<KernelBinary>> gone;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [key, binary] : binaries_) {
      if (binary->device_id == device_id) gone.push_back(binary);
    }
    // The device's memory went with it: nothing to free.
    for (const auto& binary : gone) {
      binary->image_addr = 0;
      for (auto& global : binary->globals) global.addr = 0;
      DropBinaryLocked(binary);
    }
  }
}

// --- Binaries ----------------------------------------------------------------

namespace {
absl::Status OutOfHostMemory(absl::string_view what) {
  return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
               absl::StrCat("out of host memory for ", what));
}
}  // namespace

absl::StatusOr<void*> Kernels::LoadFile(const char* path,
                                        const aclrtBinaryLoadOptions* options) {
  // The binary's bytes are held on the host: a binary too large for the
  // host's memory is an error, not an exception.
  try {
    return LoadFileOrThrow(path, options);
  } catch (const std::bad_alloc&) {
    return OutOfHostMemory("the kernel binary");
  }
}

absl::StatusOr<void*> Kernels::LoadFileOrThrow(
    const char* path, const aclrtBinaryLoadOptions* options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("cannot open kernel binary ", path, ": ",
                              std::strerror(errno)));
  }
  std::string image((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  if (in.bad()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("cannot read kernel binary ", path));
  }
  return Load(std::move(image), path, options);
}

absl::StatusOr<void*> Kernels::LoadData(const void* data, size_t size,
                                        const aclrtBinaryLoadOptions* options) {
  try {
    return Load(std::string(static_cast<const char*>(data), size),
                "the binary data", options);
  } catch (const std::bad_alloc&) {
    return OutOfHostMemory("the kernel binary");
  }
}

absl::StatusOr<void*> Kernels::Load(std::string image, const char* what,
                                    const aclrtBinaryLoadOptions* options) {
  auto binary = std::make_shared<KernelBinary>();
  if (options != nullptr) {
    if (options->numOpt != 0 && options->options == nullptr) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   "options->options is NULL with options->numOpt > 0");
    }
    for (size_t i = 0; i < options->numOpt; ++i) {
      const aclrtBinaryLoadOption& option = options->options[i];
      // Read as the raw int the caller stored: it may be no enumerator.
      int32_t type = 0;
      std::memcpy(&type, &option.type, sizeof type);
      switch (type) {
        case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
          binary->lazy = option.value.isLazyLoad != 0;
          break;
        case ACL_RT_BINARY_LOAD_OPT_MAGIC:
          break;
        case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
          binary->cpu_mode = option.value.cpuKernelMode != 0;
          break;
        default:
          return Error(ACL_ERROR_INVALID_PARAM,
                       absl::StrCat("binary load option type ", type,
                                    " is not an aclrtBinaryLoadOptionType"));
      }
    }
  }
  if (memory_ == nullptr) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "kernel binaries need the memory family, which this runtime "
                 "was built without");
  }
  // The backend's module of the bytes (a status without an ACL code maps as
  // every device status does: kInvalidArgument is an invalid binary).
  device::Backend* backend = runtime_.backend();
  ASCEND_ASSIGN_OR_RETURN(binary->module,
                          backend->LoadKernelModule(image, what));
  ASCEND_ASSIGN_OR_RETURN(const int32_t device_id, runtime_.GetDevice());
  binary->device_id = device_id;
  binary->generation = runtime_.DeviceGeneration(device_id);
  binary->image_checksum = device::Checksum(
      reinterpret_cast<const uint8_t*>(image.data()), image.size());

  // Device globals: each placed in device memory with its initial bytes.
  std::vector<void*> placed;
  auto undo = [&] {
    for (void* p : placed) (void)memory_->Free(p);
  };
  const std::vector<device::KernelGlobal>& globals = binary->module->Globals();
  for (size_t i = 0; i < globals.size(); ++i) {
    const device::KernelGlobal& g = globals[i];
    absl::StatusOr<void*> addr =
        memory_->Malloc(g.size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!addr.ok()) {
      undo();
      return addr.status();
    }
    placed.push_back(*addr);
    if (g.initial != nullptr) {
      absl::Status copied = memory_->Memcpy(*addr, g.size, g.initial, g.size,
                                            ACL_MEMCPY_HOST_TO_DEVICE);
      if (!copied.ok()) {
        undo();
        return copied;
      }
    }
    binary->module->SetGlobalAddress(i, Addr(*addr));
    binary->globals.push_back({g.name, g.initial, Addr(*addr), g.size});
  }
  // The image in device memory (aclrtBinaryGetDevAddress), now or, for a
  // lazy load, with the first function looked up.
  if (!binary->lazy) {
    absl::StatusOr<uint64_t> image_addr = PlaceImage(image);
    if (!image_addr.ok()) {
      undo();
      return image_addr.status();
    }
    binary->image_addr = *image_addr;
  }
  binary->image = std::move(image);

  ascend::MutexLock lock(&mu_);
  void* handle = binary->handle.value();
  binaries_[handle] = std::move(binary);
  return handle;
}

absl::StatusOr<uint64_t> Kernels::PlaceImage(const std::string& image) {
  ASCEND_ASSIGN_OR_RETURN(void* addr,
                          memory_->Malloc(std::max<size_t>(image.size(), 1),
                                          ACL_MEM_MALLOC_HUGE_FIRST));
  absl::Status copied =
      memory_->Memcpy(addr, image.size(), image.data(), image.size(),
                      ACL_MEMCPY_HOST_TO_DEVICE);
  if (!copied.ok()) {
    (void)memory_->Free(addr);
    return copied;
  }
  return Addr(addr);
}

absl::Status Kernels::PlaceLazyImage(void* handle) {
  std::shared_ptr<KernelBinary> binary;
  {
    ascend::MutexLock lock(&mu_);
    binary = FindBinaryLocked(handle);
    if (binary == nullptr || !binary->lazy || binary->image_addr != 0 ||
        binary->placing) {
      return absl::OkStatus();
    }
    binary->placing = true;
  }
  // Device memory of the device the binary was loaded on: placed while that
  // device is current (the usual case), else at a later lookup.
  absl::StatusOr<int32_t> current = runtime_.GetDevice();
  absl::StatusOr<uint64_t> addr = current.ok() && *current == binary->device_id
                                      ? PlaceImage(binary->image)
                                      : absl::StatusOr<uint64_t>(uint64_t{0});
  bool unloaded = false;
  {
    ascend::MutexLock lock(&mu_);
    binary->placing = false;
    unloaded = FindBinaryLocked(handle) != binary;
    if (addr.ok() && !unloaded) binary->image_addr = *addr;
  }
  if (addr.ok() && unloaded && *addr != 0) {
    (void)memory_->Free(reinterpret_cast<void*>(*addr));
  }
  return addr.status();
}

std::shared_ptr<KernelBinary> Kernels::FindBinaryLocked(
    const void* handle) const {
  auto it = binaries_.find(handle);
  return it == binaries_.end() ? nullptr : it->second;
}
std::shared_ptr<KernelFunction> Kernels::FindFunctionLocked(
    const void* handle) const {
  auto it = functions_.find(handle);
  return it == functions_.end() ? nullptr : it->second;
}
std::shared_ptr<KernelArgList> Kernels::FindArgsLocked(
    const void* handle) const {
  auto it = args_.find(handle);
  return it == args_.end() ? nullptr : it->second;
}

void Kernels::DropBinaryLocked(const std::shared_ptr<KernelBinary>& binary) {
  for (void* f : binary->functions) functions_.erase(f);
  for (void* a : binary->arg_lists) args_.erase(a);
  binary->functions.clear();
  binary->arg_lists.clear();
  binaries_.erase(binary->handle.value());
}

absl::Status Kernels::Unload(void* handle) {
  std::shared_ptr<KernelBinary> binary;
  {
    ascend::MutexLock lock(&mu_);
    binary = FindBinaryLocked(handle);
    if (binary == nullptr || binary == program_) return NotBinary(handle);
    DropBinaryLocked(binary);
  }
  // Its device memory (a launch still queued keeps the code, not these).
  if (binary->image_addr != 0) {
    (void)memory_->Free(reinterpret_cast<void*>(binary->image_addr));
  }
  for (const auto& global : binary->globals) {
    if (global.addr != 0)
      (void)memory_->Free(reinterpret_cast<void*>(global.addr));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::pair<void*, size_t>> Kernels::DeviceImage(
    void* handle) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr) return NotBinary(handle);
  if (binary == program_) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the program's own kernels have no device image");
  }
  // A lazy load not placed yet answers NULL (14, aclrtBinaryGetDevAddress
  // `binAddr`).
  return std::make_pair(reinterpret_cast<void*>(binary->image_addr),
                        binary->image.size());
}

absl::StatusOr<std::pair<void*, size_t>> Kernels::Global(
    void* handle, const char* name) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr) return NotBinary(handle);
  for (const auto& global : binary->globals) {
    if (global.name == name) {
      return std::make_pair(reinterpret_cast<void*>(global.addr), global.size);
    }
  }
  return Error(ACL_ERROR_RT_SYMBOL_NOT_FOUND,
               absl::StrCat("the binary has no device global ", name));
}

absl::Status Kernels::SetExceptionCallback(void* handle,
                                           aclrtOpExceptionCallback callback,
                                           void* user_data) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr) return NotBinary(handle);
  binary->callback = callback;
  binary->callback_data = user_data;
  return absl::OkStatus();
}

// --- Functions ---------------------------------------------------------------

absl::StatusOr<void*> Kernels::AddFunctionLocked(
    const std::shared_ptr<KernelBinary>& binary, std::string name,
    absl::StatusOr<device::KernelSymbol> kernel, bool cpu) {
  if (!kernel.ok()) return LookupError(kernel.status());
  auto function = std::make_shared<KernelFunction>();
  function->binary = binary;
  function->name = std::move(name);
  function->entry = kernel->entry;
  function->code_size = kernel->code_size;
  function->cpu = cpu;
  function->has_params = kernel->has_params;
  function->params = std::move(kernel->params);
  void* handle = function->handle.value();
  binary->functions.push_back(handle);
  functions_[handle] = std::move(function);
  return handle;
}

absl::StatusOr<void*> Kernels::Function(void* handle, const char* name) {
  ASCEND_RETURN_IF_ERROR(PlaceLazyImage(handle));
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr) return NotBinary(handle);
  // The same name answers the same function.
  for (void* f : binary->functions) {
    const auto& function = functions_.at(f);
    if (function->name == name && !function->cpu) return f;
  }
  if (binary == program_) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                 absl::StrCat("no registered kernel is named ", name));
  }
  return AddFunctionLocked(binary, name, binary->module->FindKernel(name),
                           false);
}

absl::StatusOr<void*> Kernels::FunctionByEntry(void* handle, uint64_t entry) {
  ASCEND_RETURN_IF_ERROR(PlaceLazyImage(handle));
  std::string name;
  {
    ascend::MutexLock lock(&mu_);
    std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
    if (binary == nullptr) return NotBinary(handle);
    for (void* f : binary->functions) {
      const auto& function = functions_.at(f);
      if (Addr(function->entry) == entry) return f;
    }
    // The entry of a kernel of this binary not looked up yet: its name.
    if (binary->module == nullptr) {
      return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                   absl::StrCat("0x", absl::Hex(entry),
                                " is not the entry of a kernel of the binary"));
    }
    absl::StatusOr<std::string> found = binary->module->KernelNameAt(entry);
    if (!found.ok()) return LookupError(found.status());
    name = *std::move(found);
  }
  return Function(handle, name.c_str());
}

absl::StatusOr<void*> Kernels::RegisterCpuFunc(void* handle,
                                               const char* func_name,
                                               const char* kernel_name) {
  {
    // 14, aclrtRegisterCpuFunc: AI CPU kernels only; a binary not loaded in
    // CPU-kernel mode is refused with 107000.
    ascend::MutexLock lock(&mu_);
    std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
    if (binary == nullptr || binary == program_) return NotBinary(handle);
    if (!binary->cpu_mode) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "aclrtRegisterCpuFunc takes a binary loaded with "
                   "ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE set");
    }
  }
  ASCEND_RETURN_IF_ERROR(PlaceLazyImage(handle));
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr || binary == program_) return NotBinary(handle);
  absl::StatusOr<device::KernelSymbol> kernel =
      binary->module->FindKernel(func_name, /*exact=*/true);
  if (kernel.status().code() == absl::StatusCode::kNotFound) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                 absl::StrCat("the binary has no function named ", func_name));
  }
  for (void* f : binary->functions) {
    const auto& function = functions_.at(f);
    if (function->cpu && function->name == kernel_name) return f;
  }
  return AddFunctionLocked(binary, kernel_name, std::move(kernel), true);
}

absl::StatusOr<void*> Kernels::RegisterProgramKernel(
    const void* symbol, const char* name,
    absl::StatusOr<device::KernelSymbol> kernel) {
  ascend::MutexLock lock(&mu_);
  auto it = program_symbols_.find(symbol);
  if (it != program_symbols_.end()) return it->second;
  if (program_ == nullptr) {
    program_ = std::make_shared<KernelBinary>();
    binaries_[program_->handle.value()] = program_;
  }
  ASCEND_ASSIGN_OR_RETURN(
      void* handle,
      AddFunctionLocked(program_, name, std::move(kernel), false));
  program_symbols_[symbol] = handle;
  return handle;
}

absl::StatusOr<void*> Kernels::FunctionBySymbol(const void* symbol) {
  {
    ascend::MutexLock lock(&mu_);
    auto it = program_symbols_.find(symbol);
    if (it != program_symbols_.end()) return it->second;
    for (const auto& [key, function] : functions_) {
      if (function->entry == symbol) {
        return const_cast<void*>(key);
      }
    }
  }
  return Error(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION,
               absl::StrCat("0x", absl::Hex(Addr(symbol)),
                            " is not the symbol of a registered kernel"));
}

absl::StatusOr<FunctionInfo> Kernels::Describe(const void* func) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  FunctionInfo info;
  info.name = function->name;
  info.binary = function->binary->handle.value();
  info.entry = const_cast<void*>(function->entry);
  info.code_size = function->code_size;
  info.has_params = function->has_params;
  info.params = function->params;
  info.cpu = function->cpu;
  return info;
}

absl::StatusOr<std::pair<void*, size_t>> Kernels::Symbol(
    const void* symbol) const {
  ascend::MutexLock lock(&mu_);
  for (const auto& [key, binary] : binaries_) {
    for (const auto& global : binary->globals) {
      if (global.initial == symbol && global.addr != 0) {
        return std::make_pair(reinterpret_cast<void*>(global.addr),
                              global.size);
      }
    }
  }
  return Error(ACL_ERROR_RT_INVALID_SYMBOL,
               absl::StrCat("0x", absl::Hex(Addr(symbol)),
                            " is not the symbol of a loaded device global"));
}

// --- Snapshot ----------------------------------------------------------------

std::vector<Kernels::BinaryRecord> Kernels::Records(int32_t device_id) const {
  ascend::MutexLock lock(&mu_);
  std::vector<BinaryRecord> records;
  for (const auto& [key, binary] : binaries_) {
    if (binary->device_id != device_id) continue;
    BinaryRecord r;
    r.handle = binary->handle.value();
    r.image_addr = binary->image_addr;
    r.image_size = binary->image.size();
    r.image_checksum = binary->image_checksum;
    for (const auto& g : binary->globals) {
      r.globals.emplace_back(g.name, std::make_pair(g.addr, g.size));
    }
    for (void* f : binary->functions) {
      r.functions.emplace_back(functions_.at(f)->name, f);
    }
    r.arg_lists = binary->arg_lists.size();
    records.push_back(std::move(r));
  }
  return records;
}

absl::Status Kernels::ReloadImages(int32_t device_id,
                                   const std::vector<void*>& handles) {
  std::vector<std::shared_ptr<KernelBinary>> binaries;
  {
    ascend::MutexLock lock(&mu_);
    for (void* handle : handles) {
      std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
      if (binary != nullptr && binary->device_id == device_id &&
          binary->image_addr != 0) {
        binaries.push_back(binary);
      }
    }
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (device == nullptr) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not open"));
  }
  for (const auto& binary : binaries) {
    ASCEND_ASSIGN_OR_RETURN(
        const uint64_t sum,
        device->CopyToDeviceWithChecksum(
            binary->image_addr, binary->image.data(), binary->image.size()));
    if (sum != binary->image_checksum) {
      return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                   absl::StrCat("the image of kernel binary 0x",
                                absl::Hex(Addr(binary->handle.value())),
                                " did not verify after reloading it"));
    }
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
