// The lifecycle's locks: std::mutex and std::recursive_mutex with the
// annotations clang's thread-safety analysis needs.
//  - Why not absl::Mutex: the abseil in use is the system's, built without
//    ThreadSanitizer, so TSan cannot see absl::Mutex ordering and reports
//    false races; pthread-based std mutexes are intercepted by TSan.
//  - Why a recursive one: the lifecycle calls user callbacks with its lock
//    held, and those may re-enter the lifecycle on the same thread
//    (DESIGN.md §3.8).
#ifndef ASCENDCL_ACL_LIFECYCLE_INTERNAL_MUTEX_H_
#define ASCENDCL_ACL_LIFECYCLE_INTERNAL_MUTEX_H_

#include <mutex>

#include "absl/base/thread_annotations.h"

namespace ascend::acl::internal {

template <typename StdMutex>
class ABSL_LOCKABLE BasicMutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }

 private:
  StdMutex mu_;
};

using Mutex = BasicMutex<std::mutex>;
using RecursiveMutex = BasicMutex<std::recursive_mutex>;

// Holds a Mutex or RecursiveMutex for its scope.
template <typename M>
class ABSL_SCOPED_LOCKABLE Lock {
 public:
  explicit Lock(M* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
  ~Lock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }

 private:
  M* const mu_;
};

using MutexLock = Lock<Mutex>;
using RecursiveLock = Lock<RecursiveMutex>;

}  // namespace ascend::acl::internal

#endif  // ASCENDCL_ACL_LIFECYCLE_INTERNAL_MUTEX_H_
