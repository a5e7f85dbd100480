// The device backends a process can use, registered explicitly at start-up
// (no static-initialiser self-registration), and the run-time selection of
// one of them with ACL_DEVICE_BACKEND.
//
//   BackendRegistry registry;
//   RegisterBuiltinBackends(registry);                 // builtin_backends.h
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Backend> backend,
//                           registry.CreateFromEnvironment());
//
// Thread safety: every method may be called concurrently. Factories run
// without the registry's lock held.
#ifndef ASCENDCL_DEVICE_BACKEND_REGISTRY_H_
#define ASCENDCL_DEVICE_BACKEND_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device/base/mutex.h"
#include "device/device.h"

namespace ascend::device {

// Names the backend to use; unset or empty means kDefaultBackendName.
inline constexpr char kBackendEnvVar[] = "ACL_DEVICE_BACKEND";
inline constexpr char kDefaultBackendName[] = "sim";

class BackendRegistry {
 public:
  // Makes a backend. A backend that cannot work here (e.g. its driver library
  // is missing) should still be creatable and report zero devices, or fail
  // with kUnavailable and a message saying why.
  using Factory = std::function<absl::StatusOr<std::unique_ptr<Backend>>()>;

  BackendRegistry() = default;
  BackendRegistry(const BackendRegistry&) = delete;
  BackendRegistry& operator=(const BackendRegistry&) = delete;

  // kInvalidArgument for an empty name or factory; kAlreadyExists when
  // `name` is registered.
  absl::Status Register(absl::string_view name, Factory factory)
      ABSL_LOCKS_EXCLUDED(mu_);

  bool Contains(absl::string_view name) const ABSL_LOCKS_EXCLUDED(mu_);
  // Registered names, sorted.
  std::vector<std::string> Names() const ABSL_LOCKS_EXCLUDED(mu_);

  // A new backend from the factory registered as `name`; kInvalidArgument
  // listing the registered names when there is none; otherwise what the
  // factory returns.
  absl::StatusOr<std::unique_ptr<Backend>> Create(absl::string_view name) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Create(name) for the name in ACL_DEVICE_BACKEND (kDefaultBackendName
  // when unset or empty). The error for an unknown name mentions the
  // variable.
  absl::StatusOr<std::unique_ptr<Backend>> CreateFromEnvironment() const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable Mutex mu_;
  std::map<std::string, Factory, std::less<>> factories_ ABSL_GUARDED_BY(mu_);
};

// The backend name ACL_DEVICE_BACKEND selects (kDefaultBackendName when it is
// unset or empty).
std::string SelectedBackendName();

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_BACKEND_REGISTRY_H_
