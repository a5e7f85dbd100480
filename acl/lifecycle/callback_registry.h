// The lists behind aclInitCallbackRegister / aclFinalizeCallbackRegister and
// their UnRegister counterparts (reference §1.7).
//
//   CallbackRegistry registry;  // any number of private instances
//   ASCEND_RETURN_IF_ERROR(registry.init().Add(ACL_REG_TYPE_OTHER, fn, data));
//   auto snapshot = registry.init().Snapshot(ACL_REG_TYPE_OTHER);
//   int32_t code = NotifyInit(snapshot.callbacks, config_bytes);
//
// Rules: a NULL function is ACL_ERROR_INVALID_PARAM (100000). Every type but
// ACL_REG_TYPE_OTHER holds at most one registration; a second one is
// ACL_ERROR_INTERNAL_ERROR (500000). OTHER holds any number, duplicates
// included, each with its own userData. Types are not range-checked. Remove
// takes out the first registration of (type, fn), whatever its userData;
// none is 500000.
//
// Thread safety: every method may be called from any thread. User callbacks
// are never called while a list's lock is held: notification works on a copy
// (a Snapshot), so a callback may add or remove registrations freely; such a
// change is seen by the next Snapshot, not by the copy being notified. This
// class knows nothing of the ACL lifecycle (the late invocation of init
// callbacks lives in Lifecycle).
#ifndef ASCENDCL_ACL_LIFECYCLE_CALLBACK_REGISTRY_H_
#define ASCENDCL_ACL_LIFECYCLE_CALLBACK_REGISTRY_H_

#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "acl/acl_rt.h"
#include "acl/lifecycle/internal/mutex.h"

namespace ascend::acl {

// A registration key: the integer value of an aclRegisterCallbackType.
using CallbackType = uint32_t;

inline constexpr CallbackType kOtherCallbackType = ACL_REG_TYPE_OTHER;

// One registration. `sequence` numbers the registrations of one list in the
// order they were made (never reused), so a holder of a Snapshot can tell
// which registrations came after it.
template <typename Fn>
struct Registration {
  CallbackType type;
  Fn fn;
  void* user_data;
  uint64_t sequence;
};

// An ordered list of registrations of one function type.
template <typename Fn>
class CallbackList {
 public:
  using Entry = Registration<Fn>;

  // A copy of the registrations of one type, in registration order. Every
  // registration of that type with a sequence below `next_sequence` is in
  // `callbacks` unless it had been removed before the copy was taken.
  struct Snapshot {
    std::vector<Entry> callbacks;
    uint64_t next_sequence;
  };

  absl::Status Add(CallbackType type, Fn fn, void* user_data)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Remove(CallbackType type, Fn fn) ABSL_LOCKS_EXCLUDED(mu_);

  Snapshot SnapshotOf(CallbackType type) const ABSL_LOCKS_EXCLUDED(mu_);
  // Registrations of any type with sequence >= `sequence`, in order.
  std::vector<Entry> RegisteredSince(uint64_t sequence) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // The sequence number the next registration will get.
  uint64_t NextSequence() const ABSL_LOCKS_EXCLUDED(mu_);
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable internal::Mutex mu_;
  std::vector<Entry> entries_ ABSL_GUARDED_BY(mu_);
  uint64_t next_sequence_ ABSL_GUARDED_BY(mu_) = 0;
};

extern template class CallbackList<aclInitCallbackFunc>;
extern template class CallbackList<aclFinalizeCallbackFunc>;

using InitCallbackList = CallbackList<aclInitCallbackFunc>;
using FinalizeCallbackList = CallbackList<aclFinalizeCallbackFunc>;

// The two independent lists (init, finalize).
class CallbackRegistry {
 public:
  InitCallbackList& init() { return init_; }
  const InitCallbackList& init() const { return init_; }
  FinalizeCallbackList& finalize() { return finalize_; }
  const FinalizeCallbackList& finalize() const { return finalize_; }

 private:
  InitCallbackList init_;
  FinalizeCallbackList finalize_;
};

// Calls `callbacks` in order with (config.data(), config.size(), userData);
// stops at the first non-zero return and returns it unchanged, else 0. The
// caller keeps `config` alive for the duration and must not hold a lock the
// callbacks might need.
int32_t NotifyInit(
    absl::Span<const Registration<aclInitCallbackFunc>> callbacks,
    absl::string_view config);

// Calls `callbacks` in order with their userData; first non-zero return is
// returned unchanged, else 0.
int32_t NotifyFinalize(
    absl::Span<const Registration<aclFinalizeCallbackFunc>> callbacks);

}  // namespace ascend::acl

#endif  // ASCENDCL_ACL_LIFECYCLE_CALLBACK_REGISTRY_H_
