// Count notifies: the CntNotify object, the runtime's operations on them, the
// kind's descriptor and its snapshot participant (ids and counters).
#include "runtime/sync/cnt_notify.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

bool IsCntNotifyRecordMode(int32_t mode) {
  return mode == ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE ||
         mode == ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE ||
         mode == ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE ||
         mode == ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE;
}

bool IsCntNotifyWaitMode(int32_t mode) {
  return mode >= ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE &&
         mode <= ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE;
}

uint32_t ApplyCntNotifyRecord(aclrtCntNotifyRecordMode mode, uint32_t current,
                              uint32_t value) {
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE:
      return value;
    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
      return current + value;  // wraps modulo 2^32, as a 32-bit counter
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
      return current | value;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:
      return current & value;
  }
  return current;
}

bool CntNotifyWaitReleased(aclrtCntNotifyWaitMode mode, uint32_t current,
                           uint32_t value) {
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:
      return current < value;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:
      return current == value;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:
      return current > value;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:
      return current >= value;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE:
      return (current & value) == value;
  }
  return false;
}

std::string CntNotify::DescribeState(State value) {
  return absl::StrCat("count ", value);
}

void CntNotify::Record(aclrtCntNotifyRecordMode mode, uint32_t value) {
  ascend::MutexLock lock(&mu_);
  value_ = ApplyCntNotifyRecord(mode, value_, value);
}

void CntNotify::Reset() {
  ascend::MutexLock lock(&mu_);
  value_ = 0;
}

uint32_t CntNotify::value() const {
  ascend::MutexLock lock(&mu_);
  return value_;
}

absl::Status CntNotify::Wait(aclrtCntNotifyWaitMode mode, uint32_t value,
                             bool clear, absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  struct Args {
    CntNotify* n;
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
  } args{this, mode, value};
  const bool released = mu_.AwaitWithDeadline(
      absl::Condition(
          +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            return a->n->cancelled_ ||
                   CntNotifyWaitReleased(a->mode, a->n->value_, a->value);
          },
          &args),
      deadline);
  if (!released) {
    return absl::DeadlineExceededError(
        absl::StrCat("count notify ", id_, " (count ", value_,
                     ") did not reach the "
                     "awaited condition in time"));
  }
  if (!CntNotifyWaitReleased(mode, value_, value)) {
    return absl::CancelledError("count notify wait cancelled");
  }
  if (clear) value_ = 0;
  return absl::OkStatus();
}

void CntNotify::Cancel() {
  ascend::MutexLock lock(&mu_);
  cancelled_ = true;
}

void CntNotify::RestoreState(State value) {
  ascend::MutexLock lock(&mu_);
  value_ = value;
}

// --- The runtime's count notify operations ----------------------------------

absl::StatusOr<void*> Sync::CreateCntNotify(uint64_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("count notify flag ", flags, " must be 0"));
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<CntNotify> notify,
      runtime_.AddObject<CntNotify>(device_id, [&](uint32_t id) {
        return std::make_shared<CntNotify>(device_id, id);
      }));
  return notify->handle();
}

absl::Status Sync::DestroyCntNotify(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.RemoveObject<CntNotify>(handle));
  // A wait queued before the destroy but not started yet must not block its
  // stream forever.
  notify->Cancel();
  return absl::OkStatus();
}

absl::Status Sync::RecordCntNotify(void* handle, void* stream,
                                   aclrtCntNotifyRecordMode mode,
                                   uint32_t value) {
  if (!IsCntNotifyRecordMode(mode)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("unknown count notify record mode ",
                              static_cast<int>(mode)));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.Resolve<CntNotify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(TaskKind::kNotify, "aclrtCntNotifyRecord",
                                 std::move(s),
                                 Task{[notify, mode, value] {
                                        notify->Record(mode, value);
                                        return absl::OkStatus();
                                      },
                                      nullptr});
}

absl::Status Sync::WaitCntNotify(void* handle, void* stream,
                                 aclrtCntNotifyWaitMode mode, uint32_t value,
                                 uint32_t timeout_s, bool clear) {
  if (!IsCntNotifyWaitMode(mode)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("unknown count notify wait mode ",
                              static_cast<int>(mode)));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.Resolve<CntNotify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(
      TaskKind::kNotify, "aclrtCntNotifyWaitWithTimeout", std::move(s),
      Task{[notify, mode, value, timeout_s, clear]() -> absl::Status {
             // The timeout counts from when the wait starts running, in stream
             // order; 0 waits for ever.
             const absl::Time deadline =
                 timeout_s == 0 ? absl::InfiniteFuture()
                                : absl::Now() + absl::Seconds(timeout_s);
             Stream::BlockedWait blocked(Stream::Current());
             for (;;) {
               absl::Status status = notify->Wait(
                   mode, value, clear,
                   std::min(deadline, absl::Now() + kTaskWaitSlice));
               if (status.code() != absl::StatusCode::kDeadlineExceeded) {
                 return status;
               }
               if (absl::Now() >= deadline) {
                 return Error(ACL_ERROR_RT_WAIT_TIMEOUT, status.message());
               }
               if (Stream::CurrentAborting())
                 return absl::CancelledError("stream destroyed");
             }
           },
           nullptr});
}

absl::Status Sync::ResetCntNotify(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.Resolve<CntNotify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(TaskKind::kNotify, "aclrtCntNotifyReset",
                                 std::move(s),
                                 Task{[notify] {
                                        notify->Reset();
                                        return absl::OkStatus();
                                      },
                                      nullptr});
}

absl::StatusOr<uint32_t> Sync::CntNotifyId(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.Resolve<CntNotify>(handle));
  return notify->id();
}

absl::StatusOr<uint32_t> Sync::CntNotifyValue(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<CntNotify> notify,
                          runtime_.Resolve<CntNotify>(handle));
  return notify->value();
}

}  // namespace ascend::rt
