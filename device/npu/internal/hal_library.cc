#include "device/npu/internal/hal_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace ascend::device::npu::internal {
namespace {

// One list per class, so the symbol names and the HalApi members cannot
// drift apart.
#define ASCEND_NPU_REQUIRED_SYMBOLS(X) \
  X(drvGetDevNum)                      \
  X(drvGetDevIDs)                      \
  X(halMemAlloc)                       \
  X(halMemFree)                        \
  X(drvMemcpy)                         \
  X(drvMemsetD8)                       \
  X(halMemGetInfo)

#define ASCEND_NPU_OPTIONAL_SYMBOLS(X) \
  X(halDeviceOpen)                     \
  X(halDeviceClose)                    \
  X(halProcessResBackup)               \
  X(halProcessResRestore)              \
  X(halGetSocVersion)                  \
  X(drvMemSmmuQuery)

#define ASCEND_NPU_SYMBOL_NAME(fn) #fn,
constexpr const char* kRequired[] = {
    ASCEND_NPU_REQUIRED_SYMBOLS(ASCEND_NPU_SYMBOL_NAME)};
constexpr const char* kOptional[] = {
    ASCEND_NPU_OPTIONAL_SYMBOLS(ASCEND_NPU_SYMBOL_NAME)};
#undef ASCEND_NPU_SYMBOL_NAME

class Resolver {
 public:
  explicit Resolver(void* handle) : handle_(handle) {}

  template <typename Fn>
  void Required(const char* name, Fn& slot) {
    if (!Bind(name, slot)) missing_.push_back(name);
  }
  template <typename Fn>
  void Optional(const char* name, Fn& slot) {
    Bind(name, slot);
  }
  const std::vector<std::string>& missing() const { return missing_; }

 private:
  template <typename Fn>
  bool Bind(const char* name, Fn& slot) {
    void* symbol = dlsym(handle_, name);
    slot = reinterpret_cast<Fn>(symbol);
    return symbol != nullptr;
  }

  void* handle_;
  std::vector<std::string> missing_;
};

}  // namespace

std::string HalLibrary::DefaultPath() {
  const char* env = std::getenv(kPathEnv);
  if (env != nullptr && env[0] != '\0') return env;
  return kDefaultName;
}

absl::Span<const char* const> HalLibrary::RequiredSymbols() {
  return kRequired;
}

absl::Span<const char* const> HalLibrary::OptionalSymbols() {
  return kOptional;
}

absl::StatusOr<std::unique_ptr<HalLibrary>> HalLibrary::Load(
    const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    return absl::UnavailableError(absl::StrCat(
        "cannot load the Ascend driver library \"", path, "\" (", kPathEnv,
        " overrides the path): ", reason != nullptr ? reason : "unknown"));
  }
  HalApi api;
  Resolver resolver(handle);
#define ASCEND_NPU_BIND_REQUIRED(fn) resolver.Required(#fn, api.fn);
#define ASCEND_NPU_BIND_OPTIONAL(fn) resolver.Optional(#fn, api.fn);
  ASCEND_NPU_REQUIRED_SYMBOLS(ASCEND_NPU_BIND_REQUIRED)
  ASCEND_NPU_OPTIONAL_SYMBOLS(ASCEND_NPU_BIND_OPTIONAL)
#undef ASCEND_NPU_BIND_REQUIRED
#undef ASCEND_NPU_BIND_OPTIONAL
  if (!resolver.missing().empty()) {
    dlclose(handle);
    return absl::UnavailableError(absl::StrCat(
        "the Ascend driver library \"", path, "\" lacks required symbol(s): ",
        absl::StrJoin(resolver.missing(), ", ")));
  }
  // The handle is deliberately never closed (see the header).
  return std::unique_ptr<HalLibrary>(new HalLibrary(path, api));
}

}  // namespace ascend::device::npu::internal
