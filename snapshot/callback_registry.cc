#include "snapshot/callback_registry.h"

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"

namespace ascend::snapshot {
namespace {

absl::Status CheckArgs(int32_t stage, rtSnapShotCallBack callback) {
  if (stage < 0 || stage >= CallbackRegistry::kStageCount) {
    return rt::Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("snapshot stage ", stage, " outside [0, 5]"));
  }
  if (callback == nullptr) {
    return rt::Error(ACL_ERROR_RT_PARAM_INVALID, "NULL snapshot callback");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CallbackRegistry::Register(int32_t stage,
                                        rtSnapShotCallBack callback,
                                        void* args) {
  if (absl::Status s = CheckArgs(stage, callback); !s.ok()) return s;
  ascend::MutexLock lock(&mu_);
  for (const Entry& e : stages_[stage]) {
    if (e.callback == callback) {
      return rt::Error(
          ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
          absl::StrCat("callback already registered for stage ", stage));
    }
  }
  stages_[stage].push_back(Entry{callback, args});
  return absl::OkStatus();
}

absl::Status CallbackRegistry::Unregister(int32_t stage,
                                          rtSnapShotCallBack callback) {
  if (absl::Status s = CheckArgs(stage, callback); !s.ok()) return s;
  ascend::MutexLock lock(&mu_);
  std::vector<Entry>& list = stages_[stage];
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->callback == callback) {
      list.erase(it);
      return absl::OkStatus();
    }
  }
  return rt::Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("callback not registered for stage ", stage));
}

absl::Status CallbackRegistry::Invoke(int32_t stage,
                                      const std::vector<int32_t>& device_ids) {
  std::vector<Entry> entries;
  {
    ascend::MutexLock lock(&mu_);
    entries = stages_[stage];
  }
  for (const Entry& e : entries) {
    for (int32_t device : device_ids) {
      uint32_t result = e.callback(device, e.args);
      if (result != 0) {
        return rt::Error(
            ACL_ERROR_SNAPSHOT_CALLBACK_FAILED,
            absl::StrCat("stage ", stage, " callback failed on device ", device,
                         " with ", result));
      }
    }
  }
  return absl::OkStatus();
}

int CallbackRegistry::Count(int32_t stage) const {
  ascend::MutexLock lock(&mu_);
  if (stage < 0 || stage >= kStageCount) return 0;
  return static_cast<int>(stages_[stage].size());
}

}  // namespace ascend::snapshot
