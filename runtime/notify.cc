// Notifies: the Notify object, the runtime's operations on notifies, the
// notify kind's descriptor and its snapshot participant (ids and whether a
// record is pending).
#include "runtime/notify.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/id_participant.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"

namespace ascend::rt {

// A wait queued on a closed device's notify must not block forever.
const KindDescriptor kNotifyKind = {
    ObjectKind::kNotify, "notify", device::ResourceKind::kNotify,
    ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
    [](const HandleTable::Entry& entry, CloseActions&) {
      if (auto notify = entry.As<Notify>()) notify->Cancel();
    }};

std::unique_ptr<SnapshotParticipant> MakeNotifyParticipant(Runtime& runtime) {
  return std::make_unique<internal::IdParticipant<Notify>>(runtime);
}

std::string Notify::DescribeState(State signaled) {
  return signaled ? "recorded" : "clear";
}

void Notify::Record() {
  ascend::MutexLock lock(&mu_);
  signaled_ = true;
}

void Notify::Reset() {
  ascend::MutexLock lock(&mu_);
  signaled_ = false;
}

absl::Status Notify::WaitAndReset(absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  bool ok =
      mu_.AwaitWithDeadline(absl::Condition(
                                +[](Notify* n) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                  return n->signaled_ || n->cancelled_;
                                },
                                this),
                            deadline);
  if (!ok) {
    return absl::DeadlineExceededError(
        absl::StrCat("notify ", id_, " was not recorded in time"));
  }
  if (!signaled_) return absl::CancelledError("notify wait cancelled");
  signaled_ = false;
  return absl::OkStatus();
}

void Notify::Cancel() {
  ascend::MutexLock lock(&mu_);
  cancelled_ = true;
}

Notify::State Notify::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return signaled_;
}

void Notify::RestoreState(State signaled) {
  ascend::MutexLock lock(&mu_);
  signaled_ = signaled;
}

// --- The runtime's notify operations ----------------------------------------

absl::StatusOr<void*> Runtime::CreateNotify(uint64_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "notify flags must be 0");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  // As in CreateEvent.
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t id,
                          AllocateIdLocked(device_id, ObjectKind::kNotify));
  auto notify = std::make_shared<Notify>(device_id, id);
  RegisterLocked(notify, device_id, id);
  return notify->handle();
}

absl::Status Runtime::DestroyNotify(void* handle) {
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          ResolveLocked<Notify>(handle));
  notify->Cancel();
  ReleaseIdLocked(*table_.Erase(handle));
  return absl::OkStatus();
}

absl::Status Runtime::RecordNotify(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          Resolve<Notify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  s->Enqueue(Task{[notify] {
                    notify->Record();
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::Status Runtime::WaitAndResetNotify(void* handle, void* stream,
                                         uint32_t timeout_ms) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          Resolve<Notify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  Stream* raw = s.get();
  s->Enqueue(
      Task{[notify, raw, timeout_ms]() -> absl::Status {
             const absl::Time deadline =
                 timeout_ms == 0 ? absl::InfiniteFuture()
                                 : absl::Now() + absl::Milliseconds(timeout_ms);
             for (;;) {
               absl::Status status = notify->WaitAndReset(
                   std::min(deadline, absl::Now() + kTaskWaitSlice));
               if (status.code() != absl::StatusCode::kDeadlineExceeded) {
                 return status;
               }
               if (absl::Now() >= deadline) {
                 return Error(ACL_ERROR_RT_WAIT_TIMEOUT, status.message());
               }
               if (raw->aborting())
                 return absl::CancelledError("stream destroyed");
             }
           },
           nullptr});
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> Runtime::NotifyId(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          Resolve<Notify>(handle));
  return notify->id();
}

absl::Status Runtime::ResetNotifies(void* const* handles, size_t count) {
  if (count == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the number of notifies to reset must be positive");
  }
  // Every handle is checked before any notify changes.
  std::vector<std::shared_ptr<Notify>> notifies;
  notifies.reserve(count);
  {
    ascend::MutexLock lock(&mu_);
    for (size_t i = 0; i < count; ++i) {
      absl::StatusOr<std::shared_ptr<Notify>> notify =
          ResolveLocked<Notify>(handles[i]);
      if (!notify.ok()) {
        return Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("notifies[", i, "] is not a live notify"));
      }
      notifies.push_back(*std::move(notify));
    }
  }
  for (const std::shared_ptr<Notify>& notify : notifies) notify->Reset();
  return absl::OkStatus();
}

}  // namespace ascend::rt
