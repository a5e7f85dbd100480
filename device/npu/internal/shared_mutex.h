// A reader/writer lock that ThreadSanitizer can see, with abseil's
// thread-safety annotations (so clang's -Wthread-safety checks its use).
//
//   SharedMutex mu;
//   int value ABSL_GUARDED_BY(mu);
//   { WriterLock lock(&mu); value = 1; }
//   { ReaderLock lock(&mu); Use(value); }
//
// Why not absl::Mutex: the project builds against the system's abseil,
// compiled without -fsanitize=thread, so TSan cannot observe absl::Mutex and
// reports everything it guards as racy. This wraps a pthread rwlock, which
// TSan intercepts. Writers are preferred (glibc): a stream of copies (readers)
// cannot starve an Allocate (writer); in exchange a thread must never take
// the same lock twice, even shared.
//
// The same idea as //device/sim/internal:mutex, which is private to the sim
// backend; the two could become one target under device/base.
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_SHARED_MUTEX_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_SHARED_MUTEX_H_

#include <pthread.h>

#include "absl/base/thread_annotations.h"

namespace ascend::device::npu::internal {

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

class ABSL_SCOPED_LOCKABLE WriterLock {
 public:
  explicit WriterLock(SharedMutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu)
      : mu_(mu) {
    mu_->Lock();
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  ~WriterLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }

 private:
  SharedMutex* const mu_;
};

class ABSL_SCOPED_LOCKABLE ReaderLock {
 public:
  explicit ReaderLock(SharedMutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReaderLock();
  }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;
  ~ReaderLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }

 private:
  SharedMutex* const mu_;
};

}  // namespace ascend::device::npu::internal

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_SHARED_MUTEX_H_
