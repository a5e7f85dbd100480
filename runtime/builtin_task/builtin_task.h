// The built-in task family (DESIGN.md §1.7, §5.16): the stream tasks the
// runtime itself computes on device memory -- element-wise reduction
// (aclrtReduceAsync) and random numbers (aclrtRandomNumAsync) -- and
// aborting a device's queued tasks (aclrtDeviceTaskAbort). The arithmetic is
// in builtin_tasks.h. It reaches the core only through Runtime's public
// interface and the task path.
//
//   BuiltinTasks& tasks = *BuiltinTasks::Of(runtime);
//   ASCEND_RETURN_IF_ERROR(tasks.ReduceAsync(dst, src, bytes,
//   ACL_RT_REDUCE_SUM,
//                                            ACL_FLOAT, stream));
#ifndef ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASK_H_
#define ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASK_H_

#include <cstdint>

#include "absl/status/status.h"
#include "acl/acl_rt.h"
#include "runtime/family.h"

namespace ascend::rt {

class BuiltinTasks final : public Family {
 public:
  explicit BuiltinTasks(Runtime& runtime) : runtime_(runtime) {}
  BuiltinTasks(const BuiltinTasks&) = delete;
  BuiltinTasks& operator=(const BuiltinTasks&) = delete;

  // The family of `runtime`, or null when it was built without it.
  static BuiltinTasks* Of(const Runtime& runtime);

  // Enum arguments hold values of their enums (the ACL layer checks). A null
  // stream is the current default stream.
  absl::Status ReduceAsync(void* dst, const void* src, uint64_t count,
                           aclrtReduceKind kind, aclDataType type,
                           void* stream);
  absl::Status RandomNumAsync(const aclrtRandomNumTaskInfo& info, void* stream);
  // timeout_ms 0: no limit.
  absl::Status DeviceTaskAbort(int32_t device_id, uint32_t timeout_ms);

 private:
  Runtime& runtime_;
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration BuiltinTaskFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BUILTIN_TASK_BUILTIN_TASK_H_
