#include "runtime/task_path.h"

#include <utility>

#include "absl/base/optimization.h"

namespace ascend::rt {

absl::Status TaskPath::AddHook(TaskHook* hook) {
  const int index = hook_count_.load(std::memory_order_relaxed);
  if (index >= kMaxHooks) {
    return absl::ResourceExhaustedError("the task path holds no more hooks");
  }
  hooks_[index].store(hook, std::memory_order_relaxed);
  hook_count_.store(index + 1, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status TaskPath::Submit(Submission s) {
  const int count = hook_count_.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    bool taken = false;
    absl::Status status =
        hooks_[i].load(std::memory_order_relaxed)->OnSubmit(s, taken);
    if (ABSL_PREDICT_FALSE(!status.ok())) return status;
    if (taken) return absl::OkStatus();
  }
  if (s.make) s.task = s.make(s.options);
  s.stream->Enqueue(std::move(s.task));
  return absl::OkStatus();
}

absl::Status TaskPath::Access(const HostAccess& access) const {
  const int count = hook_count_.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    absl::Status status =
        hooks_[i].load(std::memory_order_relaxed)->OnAccess(access);
    if (ABSL_PREDICT_FALSE(!status.ok())) return status;
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
