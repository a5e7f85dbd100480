// The ACL lifecycle behind aclInit, aclFinalize, aclFinalizeReference and the
// four callback (un)registration functions: CANN's algorithm with the
// decisions of DESIGN.md §3.
//
//   Lifecycle& acl = ProcessLifecycle();  // the process's one instance
//   absl::Status status = acl.Init(config_path);
//
// Tests build private instances (`Lifecycle lifecycle;`), each with the
// state of a fresh process; only the default device (runtime/default_device.h)
// is process-wide.
//
// Behaviour, in short:
//  - Init: while initialised, adds a reference and returns
//    ACL_ERROR_REPEAT_INITIALIZE (100002). Otherwise reads and validates the
//    config (config.h), checks that its bytes equal those of the first
//    successful Init of this instance (NULL and "" count as empty bytes;
//    else 100000), notifies init callbacks MODEL, OP_EXECUTOR (only with a
//    config path), DVPP, OTHER with the raw config bytes, and on success
//    holds one reference. A failure returns its code (a callback's own code
//    verbatim) and undoes nothing.
//  - Finalize: not initialised → ACL_ERROR_REPEAT_FINALIZE (100037) and no
//    callback (DESIGN.md §3.2). Otherwise notifies finalize callbacks
//    OP_COMPILER, MODEL, DVPP, (clears the config's default device), OTHER
//    and drops every reference. A failing callback's code is returned and
//    the reference count is kept, so the call can be retried.
//  - FinalizeReference: count > 1 → one reference less; count 1 → Finalize;
//    count 0 → 100037. *ref_count (if not NULL) gets the count left.
//  - An init callback registered while initialised runs at once (its result
//    is logged and ignored). One registered during an Init that has already
//    notified that callback's type, or that never notifies it, runs right
//    after that Init succeeds: no registration falls between an Init's
//    notification of its type and the end of that Init (DESIGN.md §3.7).
//
// Threading: one recursive mutex serialises every method; it is held while
// callbacks run, the registry's own lock is not. So a callback may register,
// unregister and call Init/Finalize/FinalizeReference on its own thread (a
// change applies to notifications that start after it); other threads wait.
// Calls made from inside a notification:
//  - Init during an Init: 100002, and the outer Init, if it succeeds, holds
//    one more reference for it.
//  - Finalize or FinalizeReference during a finalize: 100037, nothing
//    changes (*ref_count gets the current count).
#ifndef ASCENDCL_ACL_LIFECYCLE_LIFECYCLE_H_
#define ASCENDCL_ACL_LIFECYCLE_LIFECYCLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "acl/acl_rt.h"
#include "acl/lifecycle/callback_registry.h"
#include "acl/lifecycle/config.h"
#include "acl/lifecycle/internal/mutex.h"

namespace ascend::acl {

// A part of the process that aclInit's config file configures besides the
// lifecycle itself: the data dump (acl/dump/dump_control.h, DESIGN.md
// §5.25). Told at each fresh Init, after the MODEL init callbacks and before
// OP_EXECUTOR (the reference's place for the dump), the config's bytes (""
// without a file); an error fails the Init with its code. Told at each
// finalize after the MODEL finalize callbacks.
class ConfigConsumer {
 public:
  virtual ~ConfigConsumer() = default;
  virtual absl::Status OnInit(const std::string& bytes) = 0;
  virtual void OnFinalize() = 0;
};

class Lifecycle {
 public:
  Lifecycle();
  Lifecycle(const Lifecycle&) = delete;
  Lifecycle& operator=(const Lifecycle&) = delete;

  // config_path may be nullptr.
  absl::Status Init(const char* config_path);
  absl::Status Finalize();
  // ref_count may be nullptr.
  absl::Status FinalizeReference(uint64_t* ref_count);

  // See callback_registry.h for the registration rules. Register and
  // Unregister wait for an Init or finalize running on another thread, so
  // once Unregister returns the callback is not called again (unless it is
  // inside a notification on this very thread).
  absl::Status RegisterInitCallback(CallbackType type, aclInitCallbackFunc fn,
                                    void* user_data);
  absl::Status UnregisterInitCallback(CallbackType type,
                                      aclInitCallbackFunc fn);
  absl::Status RegisterFinalizeCallback(CallbackType type,
                                        aclFinalizeCallbackFunc fn,
                                        void* user_data);
  absl::Status UnregisterFinalizeCallback(CallbackType type,
                                          aclFinalizeCallbackFunc fn);

  // The consumer told of the config (not owned; null: none). Set it before
  // the first Init.
  void SetConfigConsumer(ConfigConsumer* consumer);

  // The number of references; the process is initialised while it is > 0.
  uint64_t ref_count() const;
  // The settings read from the config by the latest Init that got past the
  // config-identity check (defaults for a NULL path).
  ConfigSettings settings() const;

 private:
  enum class Phase { kIdle, kInitialising, kFinalizing };

  // What an Init in progress has notified, to find the registrations it
  // must invoke at its end.
  struct InitProgress {
    uint64_t start_sequence = 0;
    size_t config_hash = 0;
    struct Notified {
      CallbackType type;
      uint64_t next_sequence;  // registrations below this were notified
    };
    std::vector<Notified> notified;
    bool WasNotified(const Registration<aclInitCallbackFunc>& cb) const;
  };

  absl::Status InitSteps(const char* config_path, InitProgress* progress)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status NotifyInitType(CallbackType type,
                              const std::shared_ptr<const std::string>& config,
                              InitProgress* progress)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void InvokeRegisteredDuringInit(const InitProgress& progress)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void InvokeLate(const Registration<aclInitCallbackFunc>& cb)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Status FinalizeLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status FinalizeSteps() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status NotifyFinalizeType(CallbackType type)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable internal::RecursiveMutex mu_;
  CallbackRegistry registry_;  // thread-safe on its own

  uint64_t ref_count_ ABSL_GUARDED_BY(mu_) = 0;
  Phase phase_ ABSL_GUARDED_BY(mu_) = Phase::kIdle;
  // Init calls made by callbacks of the Init in progress.
  uint64_t nested_inits_ ABSL_GUARDED_BY(mu_) = 0;
  // Counts successful Inits.
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  // Raw bytes of the config read by the latest Init. Shared so a callback
  // that re-initialises cannot free the bytes another callback is reading.
  std::shared_ptr<const std::string> config_ ABSL_GUARDED_BY(mu_);
  // Hash of the config bytes of the first successful Init.
  std::optional<size_t> first_config_hash_ ABSL_GUARDED_BY(mu_);
  ConfigSettings settings_ ABSL_GUARDED_BY(mu_);
  bool default_device_set_ ABSL_GUARDED_BY(mu_) = false;
  ConfigConsumer* consumer_ ABSL_GUARDED_BY(mu_) = nullptr;
};

// The process's lifecycle: created on first use, never destroyed.
Lifecycle& ProcessLifecycle();

}  // namespace ascend::acl

#endif  // ASCENDCL_ACL_LIFECYCLE_LIFECYCLE_H_
