// Kernel binaries, functions, argument lists and launches (runtime/kernel.h;
// DESIGN.md §5.20).
#include "runtime/kernel.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <new>
#include <sstream>

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
  void* dl = nullptr;  // the dynamic loader's handle
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

  KernelBinary() = default;
  KernelBinary(const KernelBinary&) = delete;
  KernelBinary& operator=(const KernelBinary&) = delete;
  ~KernelBinary() {
    if (dl != nullptr) dlclose(dl);
  }
};

struct KernelFunction {
  ObjectHandle handle;
  std::shared_ptr<KernelBinary> binary;
  std::string name;
  aclsimKernelEntry entry = nullptr;
  size_t code_size = 0;
  bool has_params = false;
  std::vector<aclsimKernelParam> params;
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
constexpr size_t kMaxParams = 128;
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

// The size of the symbol at `addr` in its object's symbol table (0 when
// the loader cannot tell).
size_t SymbolSize(const void* addr) {
  Dl_info info;
  void* entry = nullptr;
  if (dladdr1(addr, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) {
    return 0;
  }
  return static_cast<size_t>(static_cast<const ElfW(Sym)*>(entry)->st_size);
}

// --- Traps inside kernels -------------------------------------------------
// A kernel block runs with its jump buffer published here; a trap signal
// raised on that thread while it is set returns to the block's start
// instead of killing the process.
thread_local sigjmp_buf* tls_trap_jump = nullptr;
// How a block leaves the handler: normally the signal is not blocked while
// its handler runs (SA_NODEFER), so jumping out leaves nothing to restore
// and a block's start costs no system call. ThreadSanitizer's signal
// handling only supports the classic way: the handler's mask, restored by
// the jump (a sigprocmask per block).
#if defined(__SANITIZE_THREAD__)
#define ASCEND_TSAN_SIGNALS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ASCEND_TSAN_SIGNALS 1
#endif
#endif
#ifdef ASCEND_TSAN_SIGNALS
constexpr int kSaveMask = 1;
constexpr int kHandlerFlags = SA_SIGINFO | SA_ONSTACK;
#else
constexpr int kSaveMask = 0;
constexpr int kHandlerFlags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
#endif
// Traps, and accesses to memory that is not (or no longer) mapped: a kernel
// that touches device memory freed under it, say.
constexpr int kTrapSignals[4] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS};
struct sigaction g_previous[4];

void OnTrap(int sig, siginfo_t* info, void* context) {
  if (tls_trap_jump != nullptr) siglongjmp(*tls_trap_jump, sig);
  // Not a kernel's: hand it to whoever had it before (the default ends the
  // process, as it would have without us).
  int index = 0;
  while (index < 3 && kTrapSignals[index] != sig) ++index;
  const struct sigaction& previous = g_previous[index];
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != nullptr) {
      previous.sa_sigaction(sig, info, context);
      return;
    }
  } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL &&
             previous.sa_handler != nullptr) {
    previous.sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallTrapHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < 4; ++i) {
      struct sigaction action;
      std::memset(&action, 0, sizeof action);
      action.sa_sigaction = &OnTrap;
      action.sa_flags = kHandlerFlags;
      sigemptyset(&action.sa_mask);
      sigaction(kTrapSignals[i], &action, &g_previous[i]);
    }
  });
}

// One running launch.
struct LaunchRun {
  aclsimKernelEntry entry = nullptr;
  void* args = nullptr;
  uint32_t blocks = 0;
  uint32_t offset = 0;
  int32_t device_id = 0;
  const Stream* stream = nullptr;
  std::atomic<uint32_t> error{0};
  std::atomic<uint32_t> error_block{0};
  std::once_flag prints_once;
  std::unique_ptr<std::string[]> prints;
  std::atomic<uint64_t> dropped{0};
  std::atomic<bool> printed{false};

  void Raise(uint32_t block, uint32_t code) {
    uint32_t expected = 0;
    if (error.compare_exchange_strong(
            expected, code == 0 ? ACL_ERROR_RT_AICORE_EXCEPTION : code)) {
      error_block.store(block, std::memory_order_relaxed);
    }
  }
  void Print(uint32_t block, const char* text, size_t length) {
    std::call_once(prints_once,
                   [this] { prints.reset(new std::string[blocks]); });
    std::string& buffer = prints[block];
    const size_t room = ACLSIM_KERNEL_PRINT_BUFFER > buffer.size()
                            ? ACLSIM_KERNEL_PRINT_BUFFER - buffer.size()
                            : 0;
    const size_t take = std::min(room, length);
    buffer.append(text, take);
    if (take < length) dropped.fetch_add(length - take);
    printed.store(true, std::memory_order_release);
  }
};

uint32_t BlockOf(const aclsimKernelContext* ctx) {
  const auto* run = static_cast<const LaunchRun*>(ctx->runtime);
  return ctx->blockIdx - run->offset;
}
void RaiseFromKernel(const aclsimKernelContext* ctx, uint32_t code) {
  if (ctx == nullptr || ctx->runtime == nullptr) return;
  static_cast<LaunchRun*>(ctx->runtime)->Raise(BlockOf(ctx), code);
}
void PrintFromKernel(const aclsimKernelContext* ctx, const char* text,
                     size_t length) {
  if (ctx == nullptr || ctx->runtime == nullptr || text == nullptr) return;
  static_cast<LaunchRun*>(ctx->runtime)->Print(BlockOf(ctx), text, length);
}

// Runs one block, containing a trap.
void RunBlock(LaunchRun& run, uint32_t block) {
  if (run.stream != nullptr && run.stream->stopping()) return;
  aclsimKernelContext ctx;
  ctx.abiVersion = ACLSIM_KERNEL_ABI_VERSION;
  ctx.blockIdx = block + run.offset;
  ctx.blockNum = run.blocks;
  ctx.deviceId = run.device_id;
  ctx.raiseException = &RaiseFromKernel;
  ctx.print = &PrintFromKernel;
  ctx.runtime = &run;
  sigjmp_buf jump;
  sigjmp_buf* const outer = tls_trap_jump;
  switch (sigsetjmp(jump, kSaveMask)) {
    case 0:
      tls_trap_jump = &jump;
      run.entry(&ctx, run.args);
      break;
    case SIGILL:
    case SIGTRAP:
      run.Raise(block, ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
      break;
    default:  // a memory access fault
      run.Raise(block, ACL_ERROR_RT_AICORE_EXCEPTION);
      break;
  }
  tls_trap_jump = outer;
}

// The launch's device printf text, block by block.
void FlushPrints(LaunchRun& run) {
  if (!run.printed.load(std::memory_order_acquire)) return;
  std::string out;
  for (uint32_t b = 0; b < run.blocks; ++b) out += run.prints[b];
  const uint64_t dropped = run.dropped.load();
  if (dropped != 0) {
    absl::StrAppend(&out, "[device printf: ", dropped,
                    " bytes dropped, the buffer of a block holds ",
                    ACLSIM_KERNEL_PRINT_BUFFER, "]\n");
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
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
  if (image.size() < 4 || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what,
                              " is not a simulated kernel binary (an ELF "
                              "shared object for the host; "
                              "aclsim/aclsim_kernel.h)"));
  }
  ASCEND_ASSIGN_OR_RETURN(const int32_t device_id, runtime_.GetDevice());
  // Its own instance: through an anonymous memory file, never a path that
  // another load (or another file) could share.
  const int fd = memfd_create("aclsim-kernel-binary", MFD_CLOEXEC);
  if (fd < 0) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 absl::StrCat("memfd_create: ", std::strerror(errno)));
  }
  size_t written = 0;
  while (written < image.size()) {
    const ssize_t n = write(fd, image.data() + written, image.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                   absl::StrCat("writing the binary: ", std::strerror(errno)));
    }
    written += static_cast<size_t>(n);
  }
  const std::string proc_path = absl::StrCat("/proc/self/fd/", fd);
  binary->dl = dlopen(proc_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  close(fd);
  if (binary->dl == nullptr) {
    const char* why = dlerror();
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " cannot be loaded: ",
                              why != nullptr ? why : "unknown error"));
  }
  binary->device_id = device_id;
  binary->generation = runtime_.DeviceGeneration(device_id);
  binary->image_checksum = device::Checksum(
      reinterpret_cast<const uint8_t*>(image.data()), image.size());

  // Device globals: each placed in device memory with its initial bytes.
  std::vector<void*> placed;
  auto undo = [&] {
    for (void* p : placed) (void)runtime_.Free(p);
  };
  const auto* table = static_cast<const aclsimDeviceGlobal*>(
      dlsym(binary->dl, ACLSIM_DEVICE_GLOBALS_SYMBOL));
  for (size_t i = 0; table != nullptr && table[i].name != nullptr; ++i) {
    const aclsimDeviceGlobal& g = table[i];
    if (g.slot == nullptr || g.size == 0) {
      undo();
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("device global ", g.name, " has no slot or no size"));
    }
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
    *g.slot = *addr;
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
    aclsimKernelEntry entry, const aclsimKernelInfo* info, bool cpu) {
  auto function = std::make_shared<KernelFunction>();
  function->binary = binary;
  function->name = std::move(name);
  function->entry = entry;
  function->code_size = SymbolSize(reinterpret_cast<const void*>(entry));
  function->cpu = cpu;
  if (info != nullptr) {
    if (info->abiVersion != ACLSIM_KERNEL_ABI_VERSION ||
        (info->paramCount != 0 && info->params == nullptr) ||
        info->paramCount > kMaxParams) {
      return Error(
          ACL_ERROR_INVALID_PARAM,
          absl::StrCat("the description of kernel ", function->name,
                       " is not of ABI version ", ACLSIM_KERNEL_ABI_VERSION,
                       " or lists no parameters"));
    }
    function->has_params = true;
    function->params.assign(info->params, info->params + info->paramCount);
  }
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
  void* entry =
      dlsym(binary->dl, absl::StrCat(name, ACLSIM_KERNEL_ENTRY_SUFFIX).c_str());
  if (entry == nullptr) entry = dlsym(binary->dl, name);
  if (entry == nullptr) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                 absl::StrCat("the binary has no kernel named ", name));
  }
  const auto* info = static_cast<const aclsimKernelInfo*>(
      dlsym(binary->dl, absl::StrCat(name, ACLSIM_KERNEL_INFO_SUFFIX).c_str()));
  return AddFunctionLocked(
      binary, name, reinterpret_cast<aclsimKernelEntry>(entry), info, false);
}

absl::StatusOr<void*> Kernels::FunctionByEntry(void* handle, uint64_t entry) {
  std::string name;
  {
    ascend::MutexLock lock(&mu_);
    std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
    if (binary == nullptr) return NotBinary(handle);
    for (void* f : binary->functions) {
      const auto& function = functions_.at(f);
      if (Addr(reinterpret_cast<const void*>(function->entry)) == entry) {
        return f;
      }
    }
    // The entry of a kernel of this binary not looked up yet: its name.
    Dl_info info;
    if (entry == 0 || binary->dl == nullptr ||
        dladdr(reinterpret_cast<void*>(entry), &info) == 0 ||
        info.dli_sname == nullptr || Addr(info.dli_saddr) != entry) {
      return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                   absl::StrCat("0x", absl::Hex(entry),
                                " is not the entry of a kernel of the binary"));
    }
    name = info.dli_sname;
    const size_t suffix = name.rfind(ACLSIM_KERNEL_ENTRY_SUFFIX);
    if (suffix != std::string::npos) name.resize(suffix);
  }
  return Function(handle, name.c_str());
}

absl::StatusOr<void*> Kernels::RegisterCpuFunc(void* handle,
                                               const char* func_name,
                                               const char* kernel_name) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelBinary> binary = FindBinaryLocked(handle);
  if (binary == nullptr || binary == program_) return NotBinary(handle);
  void* entry = dlsym(binary->dl, func_name);
  if (entry == nullptr) {
    return Error(ACL_ERROR_RT_KERNEL_LOOKUP,
                 absl::StrCat("the binary has no function named ", func_name));
  }
  for (void* f : binary->functions) {
    const auto& function = functions_.at(f);
    if (function->cpu && function->name == kernel_name) return f;
  }
  const auto* info = static_cast<const aclsimKernelInfo*>(dlsym(
      binary->dl, absl::StrCat(func_name, ACLSIM_KERNEL_INFO_SUFFIX).c_str()));
  return AddFunctionLocked(binary, kernel_name,
                           reinterpret_cast<aclsimKernelEntry>(entry), info,
                           true);
}

absl::StatusOr<void*> Kernels::RegisterProgramKernel(
    const void* symbol, const char* name, aclsimKernelEntry entry,
    const aclsimKernelInfo* info) {
  ascend::MutexLock lock(&mu_);
  auto it = program_symbols_.find(symbol);
  if (it != program_symbols_.end()) return it->second;
  if (program_ == nullptr) {
    program_ = std::make_shared<KernelBinary>();
    binaries_[program_->handle.value()] = program_;
  }
  ASCEND_ASSIGN_OR_RETURN(
      void* handle, AddFunctionLocked(program_, name, entry, info, false));
  program_symbols_[symbol] = handle;
  return handle;
}

absl::StatusOr<void*> Kernels::FunctionBySymbol(const void* symbol) {
  {
    ascend::MutexLock lock(&mu_);
    auto it = program_symbols_.find(symbol);
    if (it != program_symbols_.end()) return it->second;
    for (const auto& [key, function] : functions_) {
      if (reinterpret_cast<const void*>(function->entry) == symbol) {
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
  info.entry = reinterpret_cast<void*>(function->entry);
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
                              "(aclsimKernelInfo), so an argument array "
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
  InstallTrapHandlers();
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
    LaunchRun run;
    run.entry = task_info->function->entry;
    run.args = task_info->args_ptr;
    run.blocks = task_info->blocks;
    run.offset = task_info->config.block_offset;
    run.device_id = device->id();
    run.stream = Stream::Current();
    // The device's default timeout is the longest there is: no clock then.
    const bool timed = timeout_us != 0 && timeout_us < kNoTimeoutUs;
    const absl::Time start = timed ? absl::Now() : absl::InfinitePast();
    absl::Status ran =
        device->RunBlocks(run.blocks, task_info->cores,
                          [&run](uint32_t block) { RunBlock(run, block); });
    FlushPrints(run);
    // Kernels write device memory.
    runtime->MemoryWritten();
    ASCEND_RETURN_IF_ERROR(ran);
    const uint32_t code = run.error.load();
    const std::string& name = task_info->function->name;
    if (code != 0) {
      return Error(static_cast<int32_t>(code),
                   absl::StrCat("kernel ", name, " raised a device exception ",
                                code, " in block ", run.error_block.load(),
                                " of ", run.blocks));
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
