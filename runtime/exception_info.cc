#include "runtime/exception_info.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace ascend::rt {
namespace {

thread_local uint32_t tls_last_task_id = 0;

}  // namespace

ExceptionCallbacks& ExceptionCallbacks::Process() {
  static ExceptionCallbacks* const callbacks = new ExceptionCallbacks();
  return *callbacks;
}

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
  thread_local const uint32_t id = static_cast<uint32_t>(::syscall(SYS_gettid));
  return id;
}

uint32_t ThreadLastTaskId() { return tls_last_task_id; }

namespace internal {
void SetThreadLastTaskId(uint32_t id) { tls_last_task_id = id; }
}  // namespace internal

}  // namespace ascend::rt
