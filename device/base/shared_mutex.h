// ascend::SharedMutex: a reader/writer lock that ThreadSanitizer can see, the
// shared-mode complement of ascend::Mutex (mutex.h), which is exclusive only.
//
//   ascend::SharedMutex mu;
//   int value ABSL_GUARDED_BY(mu);
//   { ascend::WriterMutexLock lock(&mu); value = 1; }
//   { ascend::ReaderMutexLock lock(&mu); Use(value); }
//
// Why not absl::Mutex's reader locks: this project builds against the
// system's abseil, compiled without -fsanitize=thread, so TSan cannot observe
// absl::Mutex and reports every access it guards as a race. This wraps a
// pthread reader/writer lock (which TSan intercepts) in abseil's
// thread-safety annotations, so clang's -Wthread-safety still checks the
// locking.
//
// Writers are preferred (on glibc): once a writer waits, new readers queue
// behind it, so a stream of overlapping copies (readers) cannot starve an
// Allocate or Free (writers). The flip side: a thread must never take the
// same lock twice, even shared.
//
// Used by the device backends (sim, npu); visible to //device/... only.
#ifndef ASCENDCL_DEVICE_BASE_SHARED_MUTEX_H_
#define ASCENDCL_DEVICE_BASE_SHARED_MUTEX_H_

#include <pthread.h>

#include "absl/base/thread_annotations.h"

namespace ascend {

class ABSL_LOCKABLE SharedMutex {
 public:
  SharedMutex();
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;
  ~SharedMutex();

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION();
  void Unlock() ABSL_UNLOCK_FUNCTION();
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION();
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION();
  // Tells the analysis the lock is held shared (no run-time check).
  void AssertReaderHeld() const ABSL_ASSERT_SHARED_LOCK() {}

  // BasicLockable (exclusive), for std::condition_variable_any.
  void lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { Lock(); }
  void unlock() ABSL_UNLOCK_FUNCTION() { Unlock(); }

 private:
  pthread_rwlock_t rwlock_;
};

class ABSL_SCOPED_LOCKABLE WriterMutexLock {
 public:
  explicit WriterMutexLock(SharedMutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu)
      : mu_(mu) {
    mu_->Lock();
  }
  WriterMutexLock(const WriterMutexLock&) = delete;
  WriterMutexLock& operator=(const WriterMutexLock&) = delete;
  ~WriterMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }

 private:
  SharedMutex* const mu_;
};

class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu)
      : mu_(mu) {
    mu_->ReaderLock();
  }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }

 private:
  SharedMutex* const mu_;
};

}  // namespace ascend

#endif  // ASCENDCL_DEVICE_BASE_SHARED_MUTEX_H_
