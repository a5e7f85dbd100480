// ascend::Mutex: the subset of absl::Mutex this project uses (Lock/Unlock,
// MutexLock, Await / AwaitWithDeadline / AwaitWithTimeout on an
// absl::Condition), built on std::mutex and std::condition_variable.
//
// Why not absl::Mutex itself: Debian ships abseil as prebuilt shared
// libraries, not built with -fsanitize=thread, so ThreadSanitizer cannot see
// absl::Mutex synchronise and reports false races on everything it guards.
// std::mutex and std::condition_variable go through pthreads, which every
// sanitizer intercepts. The clang thread-safety annotations are kept.
//
// Semantics as absl::Mutex: a thread in Await re-evaluates its condition
// whenever the mutex is released by a thread that saw waiters, so state
// changes need no explicit notification, only a Lock/Unlock.
//
//   ascend::Mutex mu;
//   int ready ABSL_GUARDED_BY(mu) = 0;
//   ascend::MutexLock lock(&mu);
//   mu.Await(absl::Condition(+[](int* r) { return *r > 0; }, &ready));
#ifndef ASCENDCL_DEVICE_BASE_MUTEX_H_
#define ASCENDCL_DEVICE_BASE_MUTEX_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace ascend {

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    const bool wake = waiters_ != 0;
    mu_.unlock();
    if (wake) cv_.notify_all();
  }
  void AssertHeld() const ABSL_ASSERT_EXCLUSIVE_LOCK() {}

  // Blocks until cond holds. Must be called with the mutex held.
  void Await(const absl::Condition& cond) ABSL_EXCLUSIVE_LOCKS_REQUIRED(this) {
    std::unique_lock<std::mutex> lock(mu_, std::adopt_lock);
    ++waiters_;
    if (!cond.Eval()) {
      WakeOthersBeforeWaiting();
      do {
        cv_.wait(lock);
      } while (!cond.Eval());
    }
    --waiters_;
    lock.release();
  }

  // Blocks until cond holds or deadline passes; returns cond's final value.
  bool AwaitWithDeadline(const absl::Condition& cond, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(this) {
    if (deadline == absl::InfiniteFuture()) {
      Await(cond);
      return true;
    }
    const auto until = absl::ToChronoTime(deadline);
    std::unique_lock<std::mutex> lock(mu_, std::adopt_lock);
    ++waiters_;
    bool result = cond.Eval();
    if (!result) WakeOthersBeforeWaiting();
    while (!result && cv_.wait_until(lock, until) != std::cv_status::timeout) {
      result = cond.Eval();
    }
    if (!result) result = cond.Eval();
    --waiters_;
    lock.release();
    return result;
  }

  bool AwaitWithTimeout(const absl::Condition& cond, absl::Duration timeout)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(this) {
    return AwaitWithDeadline(cond, absl::Now() + timeout);
  }

 private:
  // Starting to wait releases the mutex, and what this thread changed while
  // holding it may be what another waiter waits for (absl::Mutex re-checks
  // waiters on every release, waiting included).
  void WakeOthersBeforeWaiting() {
    if (waiters_ > 1) cv_.notify_all();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int waiters_ = 0;  // guarded by mu_
};

class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }

 private:
  Mutex* const mu_;
};

}  // namespace ascend

#endif  // ASCENDCL_DEVICE_BASE_MUTEX_H_
