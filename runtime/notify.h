// A notify: a one-shot flag streams record and wait on. Record sets it,
// WaitAndReset waits for it and clears it.
#ifndef ASCENDCL_RUNTIME_NOTIFY_H_
#define ASCENDCL_RUNTIME_NOTIFY_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "runtime/base/handle.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

class Notify {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kNotify;

  Notify(int32_t device_id, uint32_t id) : device_id_(device_id), id_(id) {}

  int32_t device_id() const { return device_id_; }
  uint32_t id() const { return id_; }
  void* handle() const { return handle_.value(); }  // the aclrtNotify

  void Record();
  // Clears a pending record at once (aclrtNotifyBatchReset).
  void Reset();
  // Waits for a record then clears it. kDeadlineExceeded on timeout.
  absl::Status WaitAndReset(absl::Time deadline);
  // Releases current and later waiters without a record: the notify was
  // destroyed, so a wait queued before that but not yet started must not
  // block its stream forever.
  void Cancel();

  // Saved and restored by the snapshot: whether a record is pending.
  using State = bool;
  State SaveState() const;
  void RestoreState(State signaled);
  static std::string DescribeState(State signaled);

 private:
  const int32_t device_id_;
  const uint32_t id_;
  const ObjectHandle handle_;
  mutable ascend::Mutex mu_;
  bool signaled_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_NOTIFY_H_
