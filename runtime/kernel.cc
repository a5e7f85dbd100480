// Kernel binaries, functions, argument lists and launches (runtime/kernel.h;
// DESIGN.md §5.20).
#include "runtime/kernel.h"

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
#include "runtime/exception_info.h"
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
  uint64_t image_addr = 0;
  bool cpu_mode = false;
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

namespace {

constexpr uint32_t kMaxBlocks = 65535;
// A timeout at least this long is no timeout: the device's longest
// (DeviceSettings: 254 intervals of 2^32 ns).
constexpr uint64_t kNoTimeoutUs =
    DeviceSettings::kTimeoutIntervalUs * DeviceSettings::kMaxTimeoutIntervals;
constexpr size_t kMaxParams = device::kMaxKernelParams;
// What aclrtKernelArgsGetHandleMemSize answers: the bytes of caller memory
// an argument-list handle occupies (a tag the runtime writes there).
constexpr size_t kArgsHandleBytes = 64;
constexpr char kArgsHandleTag[] = "ascendcl kernel argument list";

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

size_t AlignUp(size_t value, size_t align) {
  return (value + align - 1) / align * align;
}

// The alignment a parameter of `size` bytes gets: its natural alignment as a
// C struct field would have it, for the scalar and pointer sizes (1, 2, 4,
// 8), and 8 for anything larger (a struct of them).
size_t ParamAlign(size_t size) {
  if (size >= 8) return 8;
  size_t align = 1;
  while (align * 2 <= size && size % (align * 2) == 0) align *= 2;
  return align;
}

absl::Status NotBinary(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("binHandle 0x", absl::Hex(Addr(handle)),
                            " is not a loaded binary"));
}
absl::Status NotFunction(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("funcHandle 0x", absl::Hex(Addr(handle)),
                            " is not a kernel function"));
}
absl::Status NotArgs(const void* handle) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("argsHandle 0x", absl::Hex(Addr(handle)),
                            " is not an initialised argument list"));
}

// A backend's answer to a lookup in a binary: kNotFound is the lookup's
// failure, a malformed description an invalid parameter.
absl::Status LookupError(const absl::Status& status) {
  if (status.code() == absl::StatusCode::kNotFound) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP, status.message());
  }
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    return Error(ACL_ERROR_INVALID_PARAM, status.message());
  }
  return status;
}

// The code a launch's first failing block failed with.
int32_t FaultCode(const device::KernelLaunchResult& result) {
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
void FillPlaceHolders(LaunchArgs& args) {
  for (const auto& [addr_offset, data_offset] : args.place_holders) {
    uint8_t* data = args.bytes.data() + data_offset;
    std::memcpy(args.bytes.data() + addr_offset, &data, sizeof data);
  }
}

}  // namespace

// --- Construction ------------------------------------------------------------

Kernels::Kernels(Runtime& runtime) : runtime_(runtime) {
  close_observer_ = runtime_.AddDeviceCloseObserver(
      [this](int32_t device_id) { OnDeviceClosed(device_id); });
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
          // The image is small host code here: loaded at once either way.
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
    for (void* p : placed) (void)runtime_.Free(p);
  };
  const std::vector<device::KernelGlobal>& globals = binary->module->Globals();
  for (size_t i = 0; i < globals.size(); ++i) {
    const device::KernelGlobal& g = globals[i];
    absl::StatusOr<void*> addr =
        runtime_.Malloc(g.size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!addr.ok()) {
      undo();
      return addr.status();
    }
    placed.push_back(*addr);
    if (g.initial != nullptr) {
      absl::Status copied = runtime_.Memcpy(*addr, g.size, g.initial, g.size,
                                            ACL_MEMCPY_HOST_TO_DEVICE);
      if (!copied.ok()) {
        undo();
        return copied;
      }
    }
    binary->module->SetGlobalAddress(i, Addr(*addr));
    binary->globals.push_back({g.name, g.initial, Addr(*addr), g.size});
  }
  // The image in device memory (aclrtBinaryGetDevAddress).
  absl::StatusOr<void*> image_addr = runtime_.Malloc(
      std::max<size_t>(image.size(), 1), ACL_MEM_MALLOC_HUGE_FIRST);
  if (!image_addr.ok()) {
    undo();
    return image_addr.status();
  }
  placed.push_back(*image_addr);
  absl::Status copied =
      runtime_.Memcpy(*image_addr, image.size(), image.data(), image.size(),
                      ACL_MEMCPY_HOST_TO_DEVICE);
  if (!copied.ok()) {
    undo();
    return copied;
  }
  binary->image_addr = Addr(*image_addr);
  binary->image = std::move(image);

  ascend::MutexLock lock(&mu_);
  void* handle = binary->handle.value();
  binaries_[handle] = std::move(binary);
  return handle;
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
    (void)runtime_.Free(reinterpret_cast<void*>(binary->image_addr));
  }
  for (const auto& global : binary->globals) {
    if (global.addr != 0)
      (void)runtime_.Free(reinterpret_cast<void*>(global.addr));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::pair<void*, size_t>> Kernels::DeviceImage(
    void* handle) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr) return NotBinary(handle);
  if (binary->image_addr == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the program's own kernels have no device image");
  }
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

// --- Argument lists ----------------------------------------------------------

size_t Kernels::ArgsHandleSize() { return kArgsHandleBytes; }

absl::StatusOr<size_t> Kernels::ArgsMemSize(const void* func,
                                            size_t user_size) const {
  ascend::MutexLock lock(&mu_);
  if (FindFunctionLocked(func) == nullptr) return NotFunction(func);
  // Parameters and place-holder data, 8-byte aligned each, and nothing the
  // runtime adds: the simulator keeps its bookkeeping in its own memory.
  return AlignUp(user_size, 8);
}

absl::StatusOr<void*> Kernels::ArgsInit(void* func) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  auto list = std::make_shared<KernelArgList>();
  list->function = function;
  list->key = list->own_handle.value();
  void* key = list->key;
  function->binary->arg_lists.push_back(key);
  args_[key] = std::move(list);
  return key;
}

absl::Status Kernels::ArgsInitUser(void* func, void* handle_mem, void* user_mem,
                                   size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "actualArgsSize must not be 0");
  }
  // Initialising the same handle memory again starts a new list there.
  if (auto old = FindArgsLocked(handle_mem); old != nullptr) {
    auto& lists = old->function->binary->arg_lists;
    lists.erase(std::remove(lists.begin(), lists.end(), handle_mem),
                lists.end());
    args_.erase(handle_mem);
  }
  auto list = std::make_shared<KernelArgList>();
  list->function = function;
  list->key = handle_mem;
  list->data = static_cast<uint8_t*>(user_mem);
  list->capacity = size;
  std::memset(handle_mem, 0, kArgsHandleBytes);
  std::memcpy(handle_mem, kArgsHandleTag, sizeof kArgsHandleTag);
  function->binary->arg_lists.push_back(handle_mem);
  args_[handle_mem] = std::move(list);
  return absl::OkStatus();
}

namespace {

// Room for `size` more parameter bytes at `offset` of `list`.
absl::Status Reserve(KernelArgList& list, size_t end) {
  if (list.capacity != 0) {
    if (end > list.capacity) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("the argument list needs ", end,
                                " bytes; its memory holds ", list.capacity));
    }
    if (list.user_data_end != 0) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "parameters must all be appended before a place-holder "
                   "buffer is taken");
    }
    return absl::OkStatus();
  }
  if (list.own.size() < end) {
    try {
      list.own.resize(end);
    } catch (const std::bad_alloc&) {
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "out of host memory for the argument list");
    }
  }
  list.data = list.own.data();
  return absl::OkStatus();
}

absl::StatusOr<KernelArgList::Param*> FindParam(KernelArgList& list,
                                                void* param) {
  const uintptr_t index = reinterpret_cast<uintptr_t>(param);
  if (index == 0 || index > list.params.size()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("paramHandle 0x", absl::Hex(index),
                              " is not a parameter of this argument list"));
  }
  return &list.params[index - 1];
}

void* ParamHandle(size_t index) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(index + 1));
}

}  // namespace

absl::StatusOr<void*> Kernels::ArgsAppend(void* args, const void* param,
                                          size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "paramSize must not be 0");
  }
  if (list->params.size() >= kMaxParams) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("an argument list holds at most ", kMaxParams,
                              " parameters"));
  }
  const size_t offset = AlignUp(list->used, ParamAlign(size));
  ASCEND_RETURN_IF_ERROR(Reserve(*list, offset + size));
  std::memcpy(list->data + offset, param, size);
  KernelArgList::Param p;
  p.offset = static_cast<uint32_t>(offset);
  p.size = static_cast<uint32_t>(size);
  list->params.push_back(std::move(p));
  list->used = offset + size;
  list->finalized = false;
  return ParamHandle(list->params.size() - 1);
}

absl::StatusOr<void*> Kernels::ArgsAppendPlaceHolder(void* args) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (list->params.size() >= kMaxParams) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("an argument list holds at most ", kMaxParams,
                              " parameters"));
  }
  const size_t offset = AlignUp(list->used, 8);
  ASCEND_RETURN_IF_ERROR(Reserve(*list, offset + sizeof(void*)));
  std::memset(list->data + offset, 0, sizeof(void*));
  KernelArgList::Param p;
  p.offset = static_cast<uint32_t>(offset);
  p.size = sizeof(void*);
  p.place_holder = true;
  list->params.push_back(std::move(p));
  list->used = offset + sizeof(void*);
  list->finalized = false;
  return ParamHandle(list->params.size() - 1);
}

absl::StatusOr<void*> Kernels::ArgsPlaceHolderBuffer(void* args, void* param,
                                                     size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  ASCEND_ASSIGN_OR_RETURN(KernelArgList::Param * p, FindParam(*list, param));
  if (!p->place_holder) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "paramHandle is not a place-holder");
  }
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "dataSize must not be 0");
  }
  if (p->data != nullptr && p->data_size >= size) return p->data;
  if (list->capacity != 0) {
    const size_t start = AlignUp(std::max(list->used, list->user_data_end), 8);
    if (start + size > list->capacity) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("the place-holder needs ", size,
                                " bytes after the parameters; the argument "
                                "memory holds ",
                                list->capacity));
    }
    p->data = list->data + start;
    list->user_data_end = start + size;
  } else {
    p->buffer.reset(new (std::nothrow) uint8_t[size]());
    if (p->buffer == nullptr) {
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "out of host memory for a place-holder buffer");
    }
    p->data = p->buffer.get();
  }
  p->data_size = size;
  list->finalized = false;
  return p->data;
}

absl::Status Kernels::ArgsUpdate(void* args, void* param, const void* value,
                                 size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  ASCEND_ASSIGN_OR_RETURN(KernelArgList::Param * p, FindParam(*list, param));
  if (p->place_holder) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "a place-holder is updated through its buffer");
  }
  if (size != p->size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("paramSize ", size, " differs from the ", p->size,
                              " bytes appended"));
  }
  std::memcpy(list->data + p->offset, value, size);
  list->finalized = false;
  return absl::OkStatus();
}

absl::Status Kernels::ArgsFinalize(void* args) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  for (const auto& p : list->params) {
    if (p.place_holder && p.data == nullptr) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "a place-holder has no buffer "
                   "(aclrtKernelArgsGetPlaceHolderBuffer)");
    }
  }
  const auto& function = *list->function;
  if (function.has_params && function.params.size() != list->params.size()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("kernel ", function.name, " takes ",
                              function.params.size(), " parameters; ",
                              list->params.size(), " were appended"));
  }
  list->finalized = true;
  return absl::OkStatus();
}

absl::StatusOr<std::pair<void*, LaunchArgs>> Kernels::ArgsForLaunch(
    void* args) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (!list->finalized) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the argument list was changed and not finalized again "
                 "(aclrtKernelArgsFinalize)");
  }
  LaunchArgs launch;
  launch.bytes.assign(list->data, list->data + list->used);
  for (const auto& p : list->params) {
    if (!p.place_holder) continue;
    const size_t at = AlignUp(launch.bytes.size(), 8);
    launch.bytes.resize(at + p.data_size);
    std::memcpy(launch.bytes.data() + at, p.data, p.data_size);
    launch.place_holders.emplace_back(p.offset, static_cast<uint32_t>(at));
  }
  return std::make_pair(list->function->handle.value(), std::move(launch));
}

absl::StatusOr<LaunchArgs> Kernels::ArgsFromArray(const void* func,
                                                  void* const* values) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  if (!function->has_params) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("kernel ", function->name,
                              " does not describe its parameters "
                              "(its binary's kernel description), so an "
                              "argument array "
                              "cannot be laid out"));
  }
  LaunchArgs launch;
  size_t end = 0;
  for (const auto& p : function->params) {
    end = std::max<size_t>(end, size_t{p.offset} + p.size);
  }
  launch.bytes.assign(end, 0);
  for (size_t i = 0; i < function->params.size(); ++i) {
    if (values[i] == nullptr) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   absl::StrCat("args[", i, "] is NULL"));
    }
    std::memcpy(launch.bytes.data() + function->params[i].offset, values[i],
                function->params[i].size);
  }
  return launch;
}

// --- Launches ----------------------------------------------------------------

absl::Status Kernels::Launch(void* func, uint32_t blocks, void* stream,
                             const LaunchConfig& config, LaunchArgs args) {
  if (blocks == 0 || blocks > kMaxBlocks) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("numBlocks ", blocks, " is not in [1, ", kMaxBlocks, "]"));
  }
  std::shared_ptr<KernelFunction> function;
  {
    ascend::MutexLock lock(&mu_);
    function = FindFunctionLocked(func);
  }
  if (function == nullptr) return NotFunction(func);
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const int32_t device_id = s->device_id();
  if (function->binary->device_id >= 0 &&
      function->binary->device_id != device_id) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("kernel ", function->name, " was loaded on device ",
                     function->binary->device_id, "; the stream is on device ",
                     device_id));
  }
  if (args.device != nullptr) {
    ASCEND_RETURN_IF_ERROR(runtime_.CheckTaskMemory(
        args.device, args.device_size, device_id, "argsData"));
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (device == nullptr) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not open"));
  }
  auto task_info = std::make_shared<KernelTask>();
  task_info->kernels = this;
  task_info->function = function;
  task_info->args = std::move(args);
  task_info->blocks = blocks;
  task_info->cores = std::max<uint32_t>(
      1, runtime_.settings().LaunchCores(device_id, config.vector_cores
                                                        ? CoreKind::kVector
                                                        : CoreKind::kCube));
  task_info->cores = std::min(
      task_info->cores,
      std::max<uint32_t>(
          1, runtime_.settings().StreamCores(
                 s->handle(), device_id,
                 config.vector_cores ? CoreKind::kVector : CoreKind::kCube)));
  task_info->config = config;
  task_info->device = device;
  LaunchArgs& launch_args = task_info->args;
  FillPlaceHolders(launch_args);
  task_info->func = function->handle.value();
  task_info->args_ptr = launch_args.device != nullptr
                            ? launch_args.device
                            : static_cast<void*>(launch_args.bytes.data());
  task_info->args_len = static_cast<uint32_t>(launch_args.device != nullptr
                                                  ? launch_args.device_size
                                                  : launch_args.bytes.size());
  task_info->notify = [](const KernelTaskInfo& info, rtExceptionInfo& e) {
    const auto& self = static_cast<const KernelTask&>(info);
    aclrtOpExceptionCallback callback = nullptr;
    void* data = nullptr;
    {
      ascend::MutexLock lock(&self.kernels->mu_);
      callback = self.function->binary->callback;
      data = self.function->binary->callback_data;
    }
    if (callback != nullptr) callback(&e, data);
  };
  const uint64_t timeout_us = config.timeout_us != 0
                                  ? config.timeout_us
                                  : runtime_.settings().OpExecuteTimeoutUs();
  Runtime* runtime = &runtime_;
  Task task;
  task.kernel = task_info.get();
  // Counted until it ran or was discarded (AwaitLaunches): the task's
  // closures hold the only references. A recorded launch is not counted (it
  // is not queued; a model's executions run it).
  if (!s->recording()) {
    in_flight_.fetch_add(1, std::memory_order_acq_rel);
    task_info->counted = true;
  }
  task_info->blocks = blocks;
  task_info->block_offset = config.block_offset;
  task_info->timeout_us = config.timeout_us;
  task_info->sched_mode = config.sched_mode;
  task_info->vector_cores = config.vector_cores;
  task.params = {ACL_MODEL_RI_TASK_KERNEL, task_info->func, blocks, 0};
  task.cancel = [task_info] {};
  task.run = [task_info, runtime, timeout_us]() -> absl::Status {
    std::shared_ptr<device::Device> device = task_info->device.lock();
    if (device == nullptr) {
      return absl::CancelledError("the device was reset");
    }
    device::KernelLaunch launch;
    launch.entry = task_info->function->entry;
    launch.args = task_info->args_ptr;
    launch.blocks = task_info->blocks;
    launch.block_offset = task_info->config.block_offset;
    launch.cores = task_info->cores;
    const Stream* stream = Stream::Current();
    // The device's default timeout is the longest there is: no clock then.
    const bool timed = timeout_us != 0 && timeout_us < kNoTimeoutUs;
    const absl::Time start = timed ? absl::Now() : absl::InfinitePast();
    device::KernelLaunchResult result;
    absl::Status ran = device->RunKernel(
        launch, [stream] { return stream != nullptr && stream->stopping(); },
        &result);
    if (!result.output.empty()) {
      std::fwrite(result.output.data(), 1, result.output.size(), stdout);
      std::fflush(stdout);
    }
    // Kernels write device memory.
    runtime->MemoryWritten();
    ASCEND_RETURN_IF_ERROR(ran);
    const int32_t code = FaultCode(result);
    const std::string& name = task_info->function->name;
    if (code != 0) {
      return Error(code,
                   absl::StrCat("kernel ", name, " raised a device exception ",
                                static_cast<uint32_t>(code), " in block ",
                                result.block, " of ", launch.blocks));
    }
    if (!timed) return absl::OkStatus();
    const absl::Duration took = absl::Now() - start;
    if (took > absl::Microseconds(static_cast<int64_t>(timeout_us))) {
      return Error(
          ACL_ERROR_RT_AICORE_TIMEOUT,
          absl::StrCat("kernel ", name, " ran ", absl::FormatDuration(took),
                       ", past its timeout of ", timeout_us, " us"));
    }
    return absl::OkStatus();
  };
  // A kernel is code of the application's: it may write any memory.
  return runtime_.tasks().Submit(TaskKind::kKernel, "aclrtLaunchKernel",
                                 std::move(s), std::move(task),
                                 TaskWrites{{}, true});
}

void Kernels::LaunchDone() {
  if (in_flight_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // Wakes AwaitLaunches (its Await re-checks on unlock).
    ascend::MutexLock lock(&quiet_mu_);
  }
}

void Kernels::AwaitLaunches(absl::Duration grace) {
  if (in_flight_.load(std::memory_order_acquire) == 0) return;
  if (Stream::Current() != nullptr) return;
  ascend::MutexLock lock(&quiet_mu_);
  (void)quiet_mu_.AwaitWithDeadline(
      absl::Condition(
          +[](std::atomic<int64_t>* n) {
            return n->load(std::memory_order_acquire) == 0;
          },
          &in_flight_),
      absl::Now() + grace);
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
