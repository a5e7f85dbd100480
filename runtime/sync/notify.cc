// Notifies: the Notify object, the runtime's operations on notifies, the
// notify kind's descriptor and its snapshot participant (ids and whether a
// record is pending).
#include "runtime/sync/notify.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"
#include "runtime/sync/ipc_sync.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

std::string Notify::DescribeState(State signaled) {
  return signaled ? "recorded" : "clear";
}

Notify::Notify(int32_t device_id, uint32_t id,
               std::shared_ptr<SharedSyncPage> shared)
    : device_id_(device_id), id_(id), shared_(std::move(shared)) {}

std::shared_ptr<SharedSyncPage> Notify::shared() const {
  ascend::MutexLock lock(&mu_);
  return shared_;
}

bool Notify::Share(std::shared_ptr<SharedSyncPage> page) {
  ascend::MutexLock lock(&mu_);
  if (shared_ != nullptr) return false;
  page->SetSignaled(signaled_);
  shared_ = std::move(page);
  return true;
}

void Notify::Record() {
  ascend::MutexLock lock(&mu_);
  if (shared_ != nullptr) return shared_->SetSignaled(true);
  signaled_ = true;
}

void Notify::Reset() {
  ascend::MutexLock lock(&mu_);
  if (shared_ != nullptr) return shared_->SetSignaled(false);
  signaled_ = false;
}

absl::Status Notify::WaitAndReset(absl::Time deadline) {
  std::shared_ptr<SharedSyncPage> page = shared();
  if (page != nullptr) {
    for (;;) {
      const uint32_t seen = page->Changes();
      if (page->TakeSignal()) return absl::OkStatus();
      {
        ascend::MutexLock lock(&mu_);
        if (cancelled_) return absl::CancelledError("notify wait cancelled");
      }
      if (absl::Now() >= deadline) {
        return absl::DeadlineExceededError(
            absl::StrCat("notify ", id_, " was not recorded in time"));
      }
      page->WaitForChange(seen, deadline);
    }
  }
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
  if (shared_ != nullptr) return shared_->signaled();
  return signaled_;
}

void Notify::RestoreState(State signaled) {
  ascend::MutexLock lock(&mu_);
  // Shared host memory survives a device loss, and other processes may
  // have recorded since the Backup: leave it.
  if (shared_ != nullptr) return;
  signaled_ = signaled;
}

// --- The runtime's notify operations ----------------------------------------

absl::StatusOr<void*> Sync::CreateNotify(uint64_t flags) {
  // 08, aclrtCreateNotify `flag`: ACL_NOTIFY_DEFAULT or
  // ACL_NOTIFY_DEVICE_USE_ONLY (every simulated notify is recorded and
  // waited for by stream tasks, which run on the device).
  if ((flags & ~uint64_t{ACL_NOTIFY_DEVICE_USE_ONLY}) != 0) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("notify flag ", flags,
                              " is neither ACL_NOTIFY_DEFAULT nor "
                              "ACL_NOTIFY_DEVICE_USE_ONLY"));
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Notify> notify,
      runtime_.AddObject<Notify>(device_id, [&](uint32_t id) {
        return std::make_shared<Notify>(device_id, id);
      }));
  return notify->handle();
}

absl::Status Sync::DestroyNotify(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.RemoveObject<Notify>(handle));
  // A wait queued before the destroy but not started yet must not block its
  // stream forever.
  notify->Cancel();
  return absl::OkStatus();
}

absl::Status Sync::RecordNotify(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.Resolve<Notify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(TaskKind::kNotify, "aclrtRecordNotify",
                                 std::move(s),
                                 Task{[notify] {
                                        notify->Record();
                                        return absl::OkStatus();
                                      },
                                      nullptr});
}

absl::Status Sync::WaitAndResetNotify(void* handle, void* stream,
                                      absl::Duration timeout) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.Resolve<Notify>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  return runtime_.tasks().Submit(
      TaskKind::kNotify, "aclrtWaitAndResetNotify", std::move(s),
      Task{[notify, timeout]() -> absl::Status {
             // The timeout counts from when the wait starts running.
             const absl::Time deadline = timeout == absl::ZeroDuration()
                                             ? absl::InfiniteFuture()
                                             : absl::Now() + timeout;
             Stream::BlockedWait blocked(Stream::Current());
             for (;;) {
               absl::Status status = notify->WaitAndReset(
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

absl::StatusOr<uint32_t> Sync::NotifyId(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          runtime_.Resolve<Notify>(handle));
  return notify->id();
}

absl::Status Sync::ResetNotifies(void* const* handles, size_t count) {
  if (count == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the number of notifies to reset must be positive");
  }
  // Every handle is checked before any notify changes.
  std::vector<std::shared_ptr<Notify>> notifies;
  notifies.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    absl::StatusOr<std::shared_ptr<Notify>> notify =
        runtime_.Resolve<Notify>(handles[i]);
    if (!notify.ok()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("notifies[", i, "] is not a live notify"));
    }
    notifies.push_back(*std::move(notify));
  }
  for (const std::shared_ptr<Notify>& notify : notifies) notify->Reset();
  return absl::OkStatus();
}

}  // namespace ascend::rt
