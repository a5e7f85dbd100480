// Loads the Ascend driver library (`libascend_hal.so`) at run time and
// resolves the entry points the npu backend calls. The backend is never
// linked against the driver: a machine without it still runs everything else.
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<HalLibrary> hal,
//                           HalLibrary::Load(HalLibrary::DefaultPath()));
//   uint32_t n = 0;
//   drvError_t err = hal->api().drvGetDevNum(&n);
//
// Library path: $ASCEND_HAL_LIBRARY_PATH when set and non-empty, else
// "libascend_hal.so" found through the dynamic loader's usual search
// (LD_LIBRARY_PATH, the ld.so cache, ...).
//
// Symbols are resolved once, up front:
//  * required (the backend cannot work without them): drvGetDevNum,
//    drvGetDevIDs, halMemAlloc, halMemFree, drvMemcpy, drvMemsetD8,
//    halMemGetInfo. Any missing one fails Load with kUnavailable naming every
//    missing symbol.
//  * optional (weak in CANN, §4 of ascend_hal_subset.md): halDeviceOpen,
//    halDeviceClose, halProcessResBackup, halProcessResRestore,
//    halGetSocVersion, drvMemSmmuQuery. A missing one is a null pointer here;
//    the backend answers the operations that need it with kUnimplemented
//    (ACL 207000) as CANN does.
//
// A loaded library is never unloaded (the driver keeps per-process device
// state that must outlive every device handle), so the pointers stay valid for
// the life of the process. Thread-safe after Load.
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_HAL_LIBRARY_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_HAL_LIBRARY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "device/npu/internal/hal_abi.h"

namespace ascend::device::npu::internal {

// The resolved entry points; optional ones may be null.
struct HalApi {
  // Required.
  decltype(&::drvGetDevNum) drvGetDevNum = nullptr;
  decltype(&::drvGetDevIDs) drvGetDevIDs = nullptr;
  decltype(&::halMemAlloc) halMemAlloc = nullptr;
  decltype(&::halMemFree) halMemFree = nullptr;
  decltype(&::drvMemcpy) drvMemcpy = nullptr;
  decltype(&::drvMemsetD8) drvMemsetD8 = nullptr;
  decltype(&::halMemGetInfo) halMemGetInfo = nullptr;
  // Optional.
  decltype(&::halDeviceOpen) halDeviceOpen = nullptr;
  decltype(&::halDeviceClose) halDeviceClose = nullptr;
  decltype(&::halProcessResBackup) halProcessResBackup = nullptr;
  decltype(&::halProcessResRestore) halProcessResRestore = nullptr;
  decltype(&::halGetSocVersion) halGetSocVersion = nullptr;
  decltype(&::drvMemSmmuQuery) drvMemSmmuQuery = nullptr;
};

class HalLibrary {
 public:
  // The environment variable that overrides the library path.
  static constexpr const char* kPathEnv = "ASCEND_HAL_LIBRARY_PATH";
  static constexpr const char* kDefaultName = "libascend_hal.so";

  // $ASCEND_HAL_LIBRARY_PATH if set and non-empty, else kDefaultName.
  static std::string DefaultPath();

  // dlopen()s `path` and resolves the symbols. kUnavailable when the library
  // cannot be loaded (with dlerror's reason) or lacks a required symbol (the
  // message names each one).
  static absl::StatusOr<std::unique_ptr<HalLibrary>> Load(
      const std::string& path);

  static absl::Span<const char* const> RequiredSymbols();
  static absl::Span<const char* const> OptionalSymbols();

  HalLibrary(const HalLibrary&) = delete;
  HalLibrary& operator=(const HalLibrary&) = delete;

  const HalApi& api() const { return api_; }
  const std::string& path() const { return path_; }

 private:
  HalLibrary(std::string path, const HalApi& api)
      : path_(std::move(path)), api_(api) {}

  std::string path_;
  HalApi api_;
};

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_HAL_LIBRARY_H_
