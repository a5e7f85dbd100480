#include "runtime/device_callbacks.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace {

template <typename Map, typename F>
absl::Status Put(Map& map, const std::string& name, F callback, void* args,
                 const char* what) {
  if (callback == nullptr) {
    map.erase(name);
    return absl::OkStatus();
  }
  if (map.count(name) != 0) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat(what, " callback \"", name, "\" is already registered"));
  }
  map[name] = {callback, args};
  return absl::OkStatus();
}

}  // namespace

absl::Status DeviceCallbacks::RegisterState(const std::string& name,
                                            aclrtDeviceStateCallback callback,
                                            void* args) {
  ascend::MutexLock lock(&mu_);
  return Put(state_, name, callback, args, "device state");
}

absl::Status DeviceCallbacks::RegisterTaskAbort(
    const std::string& name, aclrtDeviceTaskAbortCallback callback,
    void* args) {
  ascend::MutexLock lock(&mu_);
  return Put(abort_, name, callback, args, "device task abort");
}

bool DeviceCallbacks::HasStateCallbacks() const {
  ascend::MutexLock lock(&mu_);
  return !state_.empty();
}

void DeviceCallbacks::NotifyState(int32_t device_id,
                                  aclrtDeviceState state) const {
  std::vector<Entry<aclrtDeviceStateCallback>> targets;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [name, entry] : state_) targets.push_back(entry);
  }
  for (const auto& entry : targets)
    entry.callback(device_id, state, entry.args);
}

absl::Status DeviceCallbacks::NotifyTaskAbort(int32_t device_id,
                                              aclrtDeviceTaskAbortStage stage,
                                              uint32_t timeout_ms) const {
  std::vector<std::pair<std::string, Entry<aclrtDeviceTaskAbortCallback>>>
      targets;
  {
    ascend::MutexLock lock(&mu_);
    targets.assign(abort_.begin(), abort_.end());
  }
  for (const auto& [name, entry] : targets) {
    const int32_t code =
        entry.callback(device_id, stage, timeout_ms, entry.args);
    if (code != 0) {
      return Error(code, absl::StrCat("task abort callback \"", name,
                                      "\" returned ", code));
    }
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
