// A count notify (aclrtCntNotify): a 32-bit counter streams update and wait
// on. A record task sets, adds, ORs or ANDs a value into the counter; a wait
// task blocks its stream until the counter compares with a value as the wait
// mode asks (less, equal, greater, greater or equal, all mask bits set), and
// may clear the counter when it is released; a reset task clears it. The
// counter is host state on the simulator, carried by the snapshot.
#ifndef ASCENDCL_RUNTIME_CNT_NOTIFY_H_
#define ASCENDCL_RUNTIME_CNT_NOTIFY_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "runtime/base/handle.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

// Whether `mode` (a raw integer) names an aclrtCntNotifyRecordMode / an
// aclrtCntNotifyWaitMode.
bool IsCntNotifyRecordMode(int32_t mode);
bool IsCntNotifyWaitMode(int32_t mode);

// The counter after a record of `value` in `mode` (a valid record mode).
uint32_t ApplyCntNotifyRecord(aclrtCntNotifyRecordMode mode, uint32_t current,
                              uint32_t value);
// Whether a wait in `mode` (a valid wait mode) for `value` is released by
// the counter holding `current`.
bool CntNotifyWaitReleased(aclrtCntNotifyWaitMode mode, uint32_t current,
                           uint32_t value);

class CntNotify {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kCntNotify;

  CntNotify(int32_t device_id, uint32_t id) : device_id_(device_id), id_(id) {}

  int32_t device_id() const { return device_id_; }
  uint32_t id() const { return id_; }
  void* handle() const { return handle_.value(); }  // the aclrtCntNotify

  void Record(aclrtCntNotifyRecordMode mode, uint32_t value);
  void Reset();
  uint32_t value() const;
  // Waits until the counter releases a wait in `mode` for `value` (then
  // clears it when `clear`), or `deadline` passes (kDeadlineExceeded), or the
  // notify is cancelled (kCancelled).
  absl::Status Wait(aclrtCntNotifyWaitMode mode, uint32_t value, bool clear,
                    absl::Time deadline);
  // Releases current and later waiters: the notify was destroyed or its
  // device closed.
  void Cancel();
  void OnDeviceClose() { Cancel(); }

  // Saved and restored by the snapshot: the counter.
  using State = uint32_t;
  State SaveState() const { return value(); }
  void RestoreState(State value);
  static std::string DescribeState(State value);

 private:
  const int32_t device_id_;
  const uint32_t id_;
  const ObjectHandle handle_;
  mutable ascend::Mutex mu_;
  uint32_t value_ ABSL_GUARDED_BY(mu_) = 0;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_CNT_NOTIFY_H_
