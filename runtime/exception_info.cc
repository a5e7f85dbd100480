#include "runtime/exception_info.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace ascend::rt {

void ExceptionCallbacks::Set(aclrtExceptionInfoCallback callback) {
  ascend::MutexLock lock(&mu_);
  slot_ = callback;
}

void ExceptionCallbacks::Register(aclrtExceptionInfoCallback callback) {
  ascend::MutexLock lock(&mu_);
  if (std::find(registered_.begin(), registered_.end(), callback) ==
      registered_.end()) {
    registered_.push_back(callback);
  }
}

void ExceptionCallbacks::Unregister(aclrtExceptionInfoCallback callback) {
  ascend::MutexLock lock(&mu_);
  registered_.erase(
      std::remove(registered_.begin(), registered_.end(), callback),
      registered_.end());
}

bool ExceptionCallbacks::empty() const {
  ascend::MutexLock lock(&mu_);
  return slot_ == nullptr && registered_.empty();
}

void ExceptionCallbacks::Notify(rtExceptionInfo& info) const {
  std::vector<aclrtExceptionInfoCallback> targets;
  {
    ascend::MutexLock lock(&mu_);
    targets = registered_;
    if (slot_ != nullptr) targets.push_back(slot_);
  }
  for (aclrtExceptionInfoCallback callback : targets) {
    // Each callback sees the runtime's values, even if an earlier one
    // scribbled over the struct (which the reference forbids).
    rtExceptionInfo copy = info;
    callback(&copy);
  }
}

uint32_t CurrentThreadId() {
  internal::ThreadTaskRecord& record = internal::tls_task_record;
  if (record.thread_id == 0) record.thread_id = internal::ReadThreadId();
  return record.thread_id;
}

uint32_t ThreadLastTaskId() { return internal::tls_task_record.last_task_id; }

namespace internal {
uint32_t ReadThreadId() { return static_cast<uint32_t>(::syscall(SYS_gettid)); }
}  // namespace internal

}  // namespace ascend::rt
