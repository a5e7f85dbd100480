// A notify: a one-shot flag streams record and wait on. Record sets it,
// WaitAndReset waits for it and clears it.
//
// An IPC notify (exported with aclrtNotifyGetExportKey, or imported with
// aclrtNotifyImportByKey; DESIGN.md §5.17) keeps the flag in a page shared
// with the other processes instead.
#ifndef ASCENDCL_RUNTIME_NOTIFY_H_
#define ASCENDCL_RUNTIME_NOTIFY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "runtime/base/handle.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

class SharedSyncPage;

class Notify {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kNotify;

  Notify(int32_t device_id, uint32_t id) : device_id_(device_id), id_(id) {}
  // An imported notify, on the page of another process's notify.
  Notify(int32_t device_id, uint32_t id,
         std::shared_ptr<SharedSyncPage> shared);

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
  // A close of the device cancels the waits queued on it (HandleTable).
  void OnDeviceClose() { Cancel(); }

  // The shared page (null while the notify is process-local).
  std::shared_ptr<SharedSyncPage> shared() const;
  // Moves the flag to `page` (at export); false when already shared.
  bool Share(std::shared_ptr<SharedSyncPage> page);

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
  std::shared_ptr<SharedSyncPage> shared_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_NOTIFY_H_
