// The process runtime: the core over the environment's backend, with every
// family of families.cc installed (DESIGN.md §1.4, §1.7).
#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "device/builtin_backends.h"
#include "glog/logging.h"
#include "runtime/base/logging.h"
#include "runtime/process/families.h"
#include "runtime/runtime.h"

namespace ascend::rt {
Runtime& Runtime::Get() {
  static Runtime* const runtime = [] {
    InitLogging();  // ASCEND_GLOBAL_LOG_LEVEL applies without aclInit too
    Runtime::Options options;
    options.families = AllFamilies();
    absl::StatusOr<std::unique_ptr<device::Backend>> backend =
        device::CreateBackendFromEnvironment();
    if (!backend.ok()) {
      LOG(ERROR) << "no device backend: " << backend.status()
                 << "; the runtime reports zero devices";
      return new Runtime(nullptr, std::move(options));
    }
    LOG(INFO) << "device backend \"" << (*backend)->name() << "\" with "
              << (*backend)->DeviceCount() << " device(s)";
    return new Runtime(*std::move(backend), std::move(options));
  }();
  created_.store(runtime, std::memory_order_release);
  return *runtime;
}

}  // namespace ascend::rt
