#include "device/base/shared_mutex.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ascend {
namespace {

// Lock operations fail only on misuse (deadlock detected, not owner, ...),
// which would make every later result meaningless.
void Check(int error, const char* what) {
  if (error != 0) {
    std::fprintf(stderr, "fatal: %s failed: %s\n", what, std::strerror(error));
    std::abort();
  }
}

}  // namespace

SharedMutex::SharedMutex() {
  pthread_rwlockattr_t attr;
  Check(pthread_rwlockattr_init(&attr), "pthread_rwlockattr_init");
#ifdef __GLIBC__
  Check(pthread_rwlockattr_setkind_np(
            &attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP),
        "pthread_rwlockattr_setkind_np");
#endif
  Check(pthread_rwlock_init(&rwlock_, &attr), "pthread_rwlock_init");
  pthread_rwlockattr_destroy(&attr);
}

SharedMutex::~SharedMutex() { pthread_rwlock_destroy(&rwlock_); }

void SharedMutex::Lock() {
  Check(pthread_rwlock_wrlock(&rwlock_), "pthread_rwlock_wrlock");
}

void SharedMutex::Unlock() {
  Check(pthread_rwlock_unlock(&rwlock_), "pthread_rwlock_unlock");
}

void SharedMutex::ReaderLock() {
  Check(pthread_rwlock_rdlock(&rwlock_), "pthread_rwlock_rdlock");
}

void SharedMutex::ReaderUnlock() {
  Check(pthread_rwlock_unlock(&rwlock_), "pthread_rwlock_unlock");
}

}  // namespace ascend
