#include "device/backend_registry.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "device/base/mutex.h"
#include "device/device.h"

namespace ascend::device {
namespace {

absl::Status UnknownBackend(absl::string_view name,
                            const std::vector<std::string>& known,
                            absl::string_view where) {
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown device backend \"", name, "\"", where, "; known backends: ",
      known.empty() ? "(none registered)" : absl::StrJoin(known, ", ")));
}

}  // namespace

absl::Status BackendRegistry::Register(absl::string_view name,
                                       Factory factory) {
  if (name.empty()) {
    return absl::InvalidArgumentError("backend name must not be empty");
  }
  if (!factory) {
    return absl::InvalidArgumentError(
        absl::StrCat("backend \"", name, "\" has no factory"));
  }
  MutexLock lock(&mu_);
  if (!factories_.emplace(std::string(name), std::move(factory)).second) {
    return absl::AlreadyExistsError(
        absl::StrCat("device backend \"", name, "\" is already registered"));
  }
  return absl::OkStatus();
}

bool BackendRegistry::Contains(absl::string_view name) const {
  MutexLock lock(&mu_);
  return factories_.find(name) != factories_.end();
}

std::vector<std::string> BackendRegistry::Names() const {
  MutexLock lock(&mu_);
  std::vector<std::string> names;
  names.reserve(factories_.size());
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
}

absl::StatusOr<std::unique_ptr<Backend>> BackendRegistry::Create(
    absl::string_view name) const {
  Factory factory;
  {
    MutexLock lock(&mu_);
    auto it = factories_.find(name);
    if (it != factories_.end()) factory = it->second;
  }
  if (!factory) return UnknownBackend(name, Names(), "");
  absl::StatusOr<std::unique_ptr<Backend>> backend = factory();
  if (backend.ok() && *backend == nullptr) {
    return absl::InternalError(
        absl::StrCat("device backend \"", name, "\" factory returned null"));
  }
  return backend;
}

absl::StatusOr<std::unique_ptr<Backend>>
BackendRegistry::CreateFromEnvironment() const {
  const std::string name = SelectedBackendName();
  if (!Contains(name)) {
    return UnknownBackend(name, Names(),
                          absl::StrCat(" (from ", kBackendEnvVar, ")"));
  }
  return Create(name);
}

std::string SelectedBackendName() {
  const char* value = std::getenv(kBackendEnvVar);
  if (value == nullptr || *value == '\0') return kDefaultBackendName;
  return value;
}

}  // namespace ascend::device
