#include "device/base/shared_mutex.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace ascend {
namespace {

// Making or taking the lock fails only on misuse (EDEADLK: this thread holds
// it already) or exhaustion (EAGAIN: too many readers; ENOMEM): thrown as
// std::system_error, which the C entry points turn into a code
// (DESIGN.md §2.7).
void Check(int error, const char* what) {
  if (error != 0) throw std::system_error(error, std::generic_category(), what);
}

// Releasing fails only when this thread does not hold the lock (EPERM): an
// invariant of this code that no input to an entry point can reach (every
// release is a scoped guard's, after its acquisition succeeded), and a
// release runs in destructors, where nothing can be thrown. It stays fatal.
void CheckRelease(int error) {
  if (error != 0) {
    std::fprintf(stderr, "fatal: pthread_rwlock_unlock failed: %s\n",
                 std::strerror(error));
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

void SharedMutex::Unlock() { CheckRelease(pthread_rwlock_unlock(&rwlock_)); }

void SharedMutex::ReaderLock() {
  Check(pthread_rwlock_rdlock(&rwlock_), "pthread_rwlock_rdlock");
}

void SharedMutex::ReaderUnlock() {
  CheckRelease(pthread_rwlock_unlock(&rwlock_));
}

}  // namespace ascend
