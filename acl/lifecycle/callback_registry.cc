#include "acl/lifecycle/callback_registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/base/error.h"

namespace ascend::acl {

template <typename Fn>
absl::Status CallbackList<Fn>::Add(CallbackType type, Fn fn, void* user_data) {
  if (fn == nullptr) {
    return rt::Error(ACL_ERROR_INVALID_PARAM, "callback function is NULL");
  }
  internal::MutexLock lock(&mu_);
  if (type != kOtherCallbackType &&
      std::any_of(entries_.begin(), entries_.end(),
                  [type](const Entry& e) { return e.type == type; })) {
    return rt::Error(
        ACL_ERROR_INTERNAL_ERROR,
        absl::StrCat("a callback of type ", type, " is already registered"));
  }
  entries_.push_back(Entry{type, fn, user_data, next_sequence_++});
  return absl::OkStatus();
}

template <typename Fn>
absl::Status CallbackList<Fn>::Remove(CallbackType type, Fn fn) {
  if (fn == nullptr) {
    return rt::Error(ACL_ERROR_INVALID_PARAM, "callback function is NULL");
  }
  internal::MutexLock lock(&mu_);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.type == type && e.fn == fn;
  });
  if (it == entries_.end()) {
    return rt::Error(
        ACL_ERROR_INTERNAL_ERROR,
        absl::StrCat("callback is not registered for type ", type));
  }
  entries_.erase(it);
  return absl::OkStatus();
}

template <typename Fn>
typename CallbackList<Fn>::Snapshot CallbackList<Fn>::SnapshotOf(
    CallbackType type) const {
  Snapshot snapshot;
  internal::MutexLock lock(&mu_);
  for (const Entry& e : entries_) {
    if (e.type == type) snapshot.callbacks.push_back(e);
  }
  snapshot.next_sequence = next_sequence_;
  return snapshot;
}

template <typename Fn>
std::vector<typename CallbackList<Fn>::Entry> CallbackList<Fn>::RegisteredSince(
    uint64_t sequence) const {
  std::vector<Entry> out;
  internal::MutexLock lock(&mu_);
  for (const Entry& e : entries_) {
    if (e.sequence >= sequence) out.push_back(e);
  }
  return out;
}

template <typename Fn>
uint64_t CallbackList<Fn>::NextSequence() const {
  internal::MutexLock lock(&mu_);
  return next_sequence_;
}

template <typename Fn>
size_t CallbackList<Fn>::size() const {
  internal::MutexLock lock(&mu_);
  return entries_.size();
}

template class CallbackList<aclInitCallbackFunc>;
template class CallbackList<aclFinalizeCallbackFunc>;

int32_t NotifyInit(
    absl::Span<const Registration<aclInitCallbackFunc>> callbacks,
    absl::string_view config) {
  // Callbacks get "" rather than NULL for an empty config.
  const char* bytes = config.data() != nullptr ? config.data() : "";
  for (const auto& cb : callbacks) {
    int32_t code = cb.fn(bytes, config.size(), cb.user_data);
    if (code != 0) return code;
  }
  return 0;
}

int32_t NotifyFinalize(
    absl::Span<const Registration<aclFinalizeCallbackFunc>> callbacks) {
  for (const auto& cb : callbacks) {
    int32_t code = cb.fn(cb.user_data);
    if (code != 0) return code;
  }
  return 0;
}

}  // namespace ascend::acl
