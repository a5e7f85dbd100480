// Task exception information (aclrtExceptionInfo) and a runtime's exception
// callbacks (the process runtime's are the process's, DESIGN.md §1.4), plus
// the per-thread "last task" record.
//
// When a stream task fails, the worker running it builds an
// aclrtExceptionInfo for it and calls every registered callback before the
// failure is recorded on the stream: by the time aclrtSynchronizeStream (or
// aclrtSynchronizeDevice) returns the failure, the callbacks have run.
// DESIGN.md §5.16.
//
//   HostFuncs::Of(runtime)->exception_callbacks().Register(fn);
//   ...  // a task fails: fn(&info) on the worker running the task
#ifndef ASCENDCL_RUNTIME_EXCEPTION_INFO_H_
#define ASCENDCL_RUNTIME_EXCEPTION_INFO_H_

#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"

// The layout behind the opaque aclrtExceptionInfo (acl_rt.h declares it as
// struct rtExceptionInfo). Readers use the aclrtGet*FromExceptionInfo
// functions; the layout is private to this runtime.
struct rtExceptionInfo {
  uint32_t task_id = 0;
  uint32_t stream_id = 0;
  uint32_t thread_id = 0;
  uint32_t device_id = 0;
  uint32_t error_code = 0;
  // Kernel launches fill these (DESIGN.md §5.20); other tasks have no arguments
  // and no function: null / 0.
  void* args = nullptr;
  uint32_t args_len = 0;
  aclrtFuncHandle func = nullptr;
};

namespace ascend::rt {

// What a kernel launch adds to its task's exception information: the
// function, its arguments, and a hook telling the binary's own exception
// callback (aclrtBinarySetExceptionCallback). Owned by the task.
struct KernelTaskInfo {
  void* func = nullptr;
  // The kernel's name (lives as long as the task; the data dump names a
  // kernel's files by it, DESIGN.md §5.25).
  const char* name = nullptr;
  void* args_ptr = nullptr;
  uint32_t args_len = 0;
  // The launch's blocks and attributes (aclmdlRIKernelTaskGetAttribute).
  uint32_t blocks = 0;
  uint32_t block_offset = 0;
  uint64_t timeout_us = 0;
  uint8_t sched_mode = 0;
  bool vector_cores = false;
  void (*notify)(const KernelTaskInfo& self, rtExceptionInfo& info) = nullptr;
};

// The callbacks told of task exceptions: one slot set by the deprecated
// aclrtSetExceptionInfoCallback, and a list of distinct registered ones. A
// function both set and registered is called twice.
class ExceptionCallbacks {
 public:
  // Replaces the deprecated slot; null clears it.
  void Set(aclrtExceptionInfoCallback callback);
  // Adds `callback` unless already registered (non-null).
  void Register(aclrtExceptionInfoCallback callback);
  // Removes `callback` if registered; otherwise does nothing.
  void Unregister(aclrtExceptionInfoCallback callback);
  // Calls every callback with `info`, outside the lock (a callback may
  // register or unregister; one that already started still finishes).
  void Notify(rtExceptionInfo& info) const;
  // Whether any callback is set or registered (a cheap check first).
  bool empty() const;

 private:
  mutable ascend::Mutex mu_;
  aclrtExceptionInfoCallback slot_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::vector<aclrtExceptionInfoCallback> registered_ ABSL_GUARDED_BY(mu_);
};

// The calling thread's kernel thread id, naming it in exception
// information.
uint32_t CurrentThreadId();

// The id of the last task the calling thread enqueued on any stream (0 when
// none yet). Set by Stream::Enqueue.
uint32_t ThreadLastTaskId();

namespace internal {
// Per-thread task record: one constant-initialised thread-local, so the
// enqueue path looks up one TLS slot and runs no initialisation guard.
struct ThreadTaskRecord {
  uint32_t thread_id = 0;  // 0: not yet read from the kernel
  uint32_t last_task_id = 0;
};
inline thread_local ThreadTaskRecord tls_task_record;
// Reads the kernel's id for the calling thread (the slow path).
uint32_t ReadThreadId();
}  // namespace internal

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_EXCEPTION_INFO_H_
