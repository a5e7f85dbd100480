// The calling thread's kernel thread id, as the runtime names threads
// (ascendclTaskRecord.threadId). Not cached: a cache would be a
// thread-local object the libraries export.
#ifndef ASCENDCL_ACL_PROF_THREAD_ID_H_
#define ASCENDCL_ACL_PROF_THREAD_ID_H_

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace ascend::prof {

inline uint32_t CurrentThreadId() {
  return static_cast<uint32_t>(syscall(SYS_gettid));
}

}  // namespace ascend::prof

#endif  // ASCENDCL_ACL_PROF_THREAD_ID_H_
