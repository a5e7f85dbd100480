// The simulator's kernels (sim_kernels.h; DESIGN.md §5.20).
#include "device/sim/sim_kernels.h"

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
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ascend::device::sim {
namespace {

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

// A kernel by its entry and optional description.
absl::StatusOr<KernelSymbol> Describe(absl::string_view name, const void* entry,
                                      const aclsimKernelInfo* info) {
  KernelSymbol symbol;
  symbol.entry = entry;
  symbol.code_size = SymbolSize(entry);
  if (info != nullptr) {
    if (info->abiVersion < 1 || info->abiVersion > ACLSIM_KERNEL_ABI_VERSION ||
        (info->paramCount != 0 && info->params == nullptr) ||
        info->paramCount > kMaxKernelParams) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the description of kernel ", name, " is not of ABI version 1 to ",
          ACLSIM_KERNEL_ABI_VERSION, " or lists no parameters"));
    }
    symbol.has_params = true;
    symbol.params.reserve(info->paramCount);
    for (uint32_t i = 0; i < info->paramCount; ++i) {
      symbol.params.push_back({info->params[i].offset, info->params[i].size});
    }
  }
  return symbol;
}

// A loaded binary: its own instance of the shared object.
class SimKernelModule final : public KernelModule {
 public:
  explicit SimKernelModule(void* dl) : dl_(dl) {}
  SimKernelModule(const SimKernelModule&) = delete;
  SimKernelModule& operator=(const SimKernelModule&) = delete;
  ~SimKernelModule() override { dlclose(dl_); }

  // Reads the device-global table; kInvalidArgument for a malformed one.
  absl::Status ReadGlobals() {
    const auto* table = static_cast<const aclsimDeviceGlobal*>(
        dlsym(dl_, ACLSIM_DEVICE_GLOBALS_SYMBOL));
    for (size_t i = 0; table != nullptr && table[i].name != nullptr; ++i) {
      const aclsimDeviceGlobal& g = table[i];
      if (g.slot == nullptr || g.size == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("device global ", g.name, " has no slot or no size"));
      }
      globals_.push_back({g.name, g.initial, g.size});
      slots_.push_back(g.slot);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<KernelSymbol> FindKernel(absl::string_view name,
                                          bool exact) const override {
    const std::string plain(name);
    void* entry = nullptr;
    if (!exact) {
      entry =
          dlsym(dl_, absl::StrCat(name, ACLSIM_KERNEL_ENTRY_SUFFIX).c_str());
    }
    if (entry == nullptr) entry = dlsym(dl_, plain.c_str());
    if (entry == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("the binary has no kernel named ", name));
    }
    const auto* info = static_cast<const aclsimKernelInfo*>(
        dlsym(dl_, absl::StrCat(name, ACLSIM_KERNEL_INFO_SUFFIX).c_str()));
    return Describe(name, entry, info);
  }

  absl::StatusOr<std::string> KernelNameAt(uint64_t entry) const override {
    Dl_info info;
    if (entry == 0 || dladdr(reinterpret_cast<void*>(entry), &info) == 0 ||
        info.dli_sname == nullptr ||
        reinterpret_cast<uint64_t>(info.dli_saddr) != entry) {
      return absl::NotFoundError(
          absl::StrCat("0x", absl::Hex(entry),
                       " is not the entry of a kernel of the binary"));
    }
    std::string name = info.dli_sname;
    const size_t suffix = name.rfind(ACLSIM_KERNEL_ENTRY_SUFFIX);
    if (suffix != std::string::npos) name.resize(suffix);
    return name;
  }

  const std::vector<KernelGlobal>& Globals() const override { return globals_; }

  void SetGlobalAddress(size_t index, uint64_t device_addr) override {
    // Simulated device memory is host memory at the device address.
    *slots_.at(index) = reinterpret_cast<void*>(device_addr);
  }

 private:
  void* const dl_;
  std::vector<KernelGlobal> globals_;
  std::vector<void**> slots_;
};

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
  // Device::WriteTarget of the launch's device (aclsimKernelContext's
  // writeTarget).
  std::function<void*(void*, size_t)> write_target;
  // The first fault: its kind in the high half, the code in the low one
  // (0: none yet).
  std::atomic<uint64_t> fault{0};
  std::atomic<uint32_t> fault_block{0};
  std::once_flag prints_once;
  std::unique_ptr<std::string[]> prints;
  std::atomic<uint64_t> dropped{0};
  std::atomic<bool> printed{false};

  void Raise(uint32_t block, KernelFault kind, uint32_t code) {
    uint64_t expected = 0;
    const uint64_t packed = uint64_t{static_cast<uint8_t>(kind)} << 32 | code;
    if (fault.compare_exchange_strong(expected, packed)) {
      fault_block.store(block, std::memory_order_relaxed);
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
  static_cast<LaunchRun*>(ctx->runtime)
      ->Raise(BlockOf(ctx), KernelFault::kRaised, code);
}
void* WriteTargetForKernel(const aclsimKernelContext* ctx, void* dst,
                           size_t size) {
  if (ctx == nullptr || ctx->runtime == nullptr || dst == nullptr) return dst;
  const auto* run = static_cast<const LaunchRun*>(ctx->runtime);
  return run->write_target ? run->write_target(dst, size) : dst;
}
void PrintFromKernel(const aclsimKernelContext* ctx, const char* text,
                     size_t length) {
  if (ctx == nullptr || ctx->runtime == nullptr || text == nullptr) return;
  static_cast<LaunchRun*>(ctx->runtime)->Print(BlockOf(ctx), text, length);
}

// Runs one block, containing a trap.
void RunBlock(LaunchRun& run, uint32_t block) {
  aclsimKernelContext ctx;
  ctx.abiVersion = ACLSIM_KERNEL_ABI_VERSION;
  ctx.blockIdx = block + run.offset;
  ctx.blockNum = run.blocks;
  ctx.deviceId = run.device_id;
  ctx.raiseException = &RaiseFromKernel;
  ctx.print = &PrintFromKernel;
  ctx.runtime = &run;
  ctx.writeTarget = &WriteTargetForKernel;
  sigjmp_buf jump;
  sigjmp_buf* const outer = tls_trap_jump;
  switch (sigsetjmp(jump, kSaveMask)) {
    case 0:
      tls_trap_jump = &jump;
      run.entry(&ctx, run.args);
      break;
    case SIGILL:
    case SIGTRAP:
      run.Raise(block, KernelFault::kTrap, 0);
      break;
    default:  // a memory access fault
      run.Raise(block, KernelFault::kMemoryFault, 0);
      break;
  }
  tls_trap_jump = outer;
}

// The launch's device printf text, block by block.
std::string CollectPrints(LaunchRun& run) {
  std::string out;
  if (!run.printed.load(std::memory_order_acquire)) return out;
  for (uint32_t b = 0; b < run.blocks; ++b) out += run.prints[b];
  const uint64_t dropped = run.dropped.load();
  if (dropped != 0) {
    absl::StrAppend(&out, "[device printf: ", dropped,
                    " bytes dropped, the buffer of a block holds ",
                    ACLSIM_KERNEL_PRINT_BUFFER, "]\n");
  }
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<KernelModule>> LoadKernelModule(
    absl::string_view image, absl::string_view what) {
  if (image.size() < 4 || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what,
                     " is not a simulated kernel binary (an ELF "
                     "shared object for the host; "
                     "aclsim/aclsim_kernel.h)"));
  }
  // Its own instance: through an anonymous memory file, never a path that
  // another load (or another file) could share.
  const int fd = memfd_create("aclsim-kernel-binary", MFD_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("memfd_create: ", std::strerror(errno)));
  }
  size_t written = 0;
  while (written < image.size()) {
    const ssize_t n = write(fd, image.data() + written, image.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return absl::InternalError(
          absl::StrCat("writing the binary: ", std::strerror(errno)));
    }
    written += static_cast<size_t>(n);
  }
  const std::string proc_path = absl::StrCat("/proc/self/fd/", fd);
  void* dl = dlopen(proc_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  close(fd);
  if (dl == nullptr) {
    const char* why = dlerror();
    return absl::InvalidArgumentError(absl::StrCat(
        what, " cannot be loaded: ", why != nullptr ? why : "unknown error"));
  }
  auto module = std::make_unique<SimKernelModule>(dl);
  absl::Status globals = module->ReadGlobals();
  if (!globals.ok()) return globals;
  return std::unique_ptr<KernelModule>(std::move(module));
}

absl::StatusOr<KernelSymbol> DescribeProgramKernel(
    absl::string_view name, aclsimKernelEntry entry,
    const aclsimKernelInfo* info) {
  return Describe(name, reinterpret_cast<const void*>(entry), info);
}

absl::Status RunKernel(Device& device, const KernelLaunch& launch,
                       absl::FunctionRef<bool()> stopping,
                       KernelLaunchResult* result) {
  InstallTrapHandlers();
  LaunchRun run;
  run.entry =
      reinterpret_cast<aclsimKernelEntry>(const_cast<void*>(launch.entry));
  run.args = launch.args;
  run.blocks = launch.blocks;
  run.offset = launch.block_offset;
  run.device_id = device.id();
  run.write_target = [&device](void* dst, size_t size) {
    return device.KernelWriteTarget(dst, size);
  };
  absl::Status ran =
      device.RunBlocks(run.blocks, launch.cores, [&](uint32_t block) {
        if (stopping()) return;
        RunBlock(run, block);
      });
  result->output = CollectPrints(run);
  const uint64_t fault = run.fault.load();
  result->fault = static_cast<KernelFault>(fault >> 32);
  result->code = static_cast<uint32_t>(fault);
  result->block = run.fault_block.load();
  return ran;
}

}  // namespace ascend::device::sim
