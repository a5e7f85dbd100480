#include "runtime/stream_state.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"

namespace ascend::rt {

absl::Status StreamStateCallbacks::Register(const std::string& name,
                                            aclrtStreamStateCallback callback,
                                            void* args) {
  ascend::MutexLock lock(&mu_);
  if (callback == nullptr) {
    callbacks_.erase(name);
    return absl::OkStatus();
  }
  if (!callbacks_.emplace(name, Entry{callback, args}).second) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("a stream state callback named \"", name,
                              "\" is already registered"));
  }
  return absl::OkStatus();
}

void StreamStateCallbacks::Notify(void* stream, aclrtStreamState state) const {
  std::vector<Entry> entries;
  {
    ascend::MutexLock lock(&mu_);
    if (callbacks_.empty()) return;
    entries.reserve(callbacks_.size());
    for (const auto& [name, entry] : callbacks_) entries.push_back(entry);
  }
  for (const Entry& entry : entries) entry.callback(stream, state, entry.args);
}

}  // namespace ascend::rt
