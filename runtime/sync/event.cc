// Events: the Event object, the runtime's operations on events, the event
// kind's descriptor and its snapshot participant (ids and record state).
#include "runtime/sync/event.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/runtime.h"
#include "runtime/sync/ipc_sync.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

std::string Event::DescribeState(const State& state) {
  return absl::StrCat("recorded ", state.recorded, ", newest completed ",
                      state.newest_completed, ", pending [",
                      absl::StrJoin(state.pending, ","), "], timestamp ",
                      state.timestamp.has_value()
                          ? absl::FormatTime(*state.timestamp)
                          : std::string("none"));
}

uint64_t Event::BeginRecord() {
  if (shared_ != nullptr) return shared_->BeginRecord();
  ascend::MutexLock lock(&mu_);
  pending_.insert(++recorded_);
  return recorded_;
}

void Event::Complete(uint64_t seq) {
  if (shared_ != nullptr) return shared_->CompleteRecord(seq);
  ascend::MutexLock lock(&mu_);
  if (pending_.erase(seq) == 0) return;  // not a pending record
  if (seq > newest_completed_) {
    newest_completed_ = seq;
    timestamp_ = absl::Now();
  }
}

bool Event::IsDoneLocked(uint64_t seq) const {
  return pending_.count(seq) == 0;
}

uint64_t Event::LatestRecord() const {
  if (shared_ != nullptr) return shared_->recorded();
  ascend::MutexLock lock(&mu_);
  return recorded_;
}

bool Event::WaitFor(uint64_t seq, absl::Time deadline) const {
  if (shared_ != nullptr) {
    // Records of other processes change the page, not our mutex: sleep on
    // the page's futex. Records only dead processes could complete do not
    // hold a wait (§5.17).
    for (;;) {
      const uint32_t seen = shared_->Changes();
      if (shared_->completed() >= seq || !shared_->LivePending()) return true;
      if (absl::Now() >= deadline) return false;
      shared_->WaitForChange(seen, deadline);
    }
  }
  ascend::MutexLock lock(&mu_);
  struct Args {
    const Event* e;
    uint64_t seq;
  } args{this, seq};
  return mu_.AwaitWithDeadline(absl::Condition(
                                   +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                     return a->e->IsDoneLocked(a->seq);
                                   },
                                   &args),
                               deadline);
}

bool Event::IsComplete() const {
  if (shared_ != nullptr) {
    return shared_->completed() >= shared_->recorded() ||
           !shared_->LivePending();
  }
  ascend::MutexLock lock(&mu_);
  return IsDoneLocked(recorded_);
}

bool Event::WaitSet(absl::Time deadline) const {
  if (shared_ != nullptr) return WaitFor(LatestRecord(), deadline);
  ascend::MutexLock lock(&mu_);
  return mu_.AwaitWithDeadline(
      absl::Condition(
          +[](const Event* e) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            return e->timestamp_.has_value();
          },
          this),
      deadline);
}

void Event::Reset() {
  ascend::MutexLock lock(&mu_);
  timestamp_.reset();
}

std::optional<absl::Time> Event::Timestamp() const {
  if (shared_ != nullptr) return std::nullopt;  // IPC events keep none
  ascend::MutexLock lock(&mu_);
  if (!IsDoneLocked(recorded_)) return std::nullopt;
  return timestamp_;
}

void Event::BeginWait() {
  ascend::MutexLock lock(&mu_);
  ++waits_pending_;
}

void Event::EndWait() {
  ascend::MutexLock lock(&mu_);
  if (waits_pending_ > 0) --waits_pending_;
}

bool Event::WaitsDone() const {
  ascend::MutexLock lock(&mu_);
  return waits_pending_ == 0;
}

Event::State Event::SaveState() const {
  if (shared_ != nullptr) {
    return State{shared_->recorded(), {}, shared_->completed(), std::nullopt};
  }
  ascend::MutexLock lock(&mu_);
  return State{recorded_,
               std::vector<uint64_t>(pending_.begin(), pending_.end()),
               newest_completed_, timestamp_};
}

void Event::RestoreState(const State& state) {
  // An IPC event's state is host memory shared with other processes, which
  // a device loss does not touch and which they may have changed since.
  if (shared_ != nullptr) return;
  ascend::MutexLock lock(&mu_);
  recorded_ = state.recorded;
  pending_.clear();
  for (uint64_t seq : state.pending) {
    if (seq != 0 && seq <= recorded_) pending_.insert(seq);
  }
  newest_completed_ = state.newest_completed;
  timestamp_ = state.timestamp;
}

// --- The runtime's event operations -----------------------------------------

absl::StatusOr<void*> Sync::CreateEvent(uint32_t flags, Event::Origin origin) {
  // 07, aclrtCreateEventWithFlag `flag`: an OR of TIME_LINE, SYNC,
  // CAPTURE_STREAM_PROGRESS and DEVICE_USE_ONLY, or EXTERNAL alone (IPC
  // events come from aclrtCreateEventExWithFlag).
  constexpr uint32_t kCombinable = ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC |
                                   ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                   ACL_EVENT_DEVICE_USE_ONLY;
  if (flags != ACL_EVENT_EXTERNAL && (flags & ~kCombinable) != 0) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("event flag 0x", absl::Hex(flags),
                     " is neither an OR of ACL_EVENT_TIME_LINE, "
                     "ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS "
                     "and ACL_EVENT_DEVICE_USE_ONLY nor "
                     "ACL_EVENT_EXTERNAL alone"));
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Event> event,
      runtime_.AddObject<Event>(device_id, [&](uint32_t id) {
        return std::make_shared<Event>(device_id, id, flags, origin);
      }));
  return event->handle();
}

absl::Status Sync::DestroyEvent(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.RemoveObject<Event>(handle));
  // An exported IPC event's export goes with the event, even while a queued
  // record still holds its shared page (DESIGN.md §5.17).
  if (SharedSyncPage* page = event->shared()) page->Withdraw();
  return absl::OkStatus();
}

namespace {

// 07 event management: an EXTERNAL record or wait takes only an event from
// aclrtCreateEventExWithFlag(ACL_EVENT_SYNC), on a stream being captured.
absl::Status CheckExternal(const Event& event, const Stream& stream,
                           const char* flag_name) {
  if (!event.extended() || event.flags() != ACL_EVENT_SYNC) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat(flag_name,
                     " takes only an event created by "
                     "aclrtCreateEventExWithFlag with ACL_EVENT_SYNC"));
  }
  if (!stream.recording()) {
    return Error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                 absl::StrCat(flag_name, " needs a stream being captured"));
  }
  return absl::OkStatus();
}

absl::Status FlagFixed(const Event& event, const char* what, int64_t fixed,
                       uint32_t flag) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("event ", event.id(), " is ", what, " with flag ",
                            fixed, " since its first call with a flag; flag ",
                            flag, " cannot follow (07 event management)"));
}

}  // namespace

absl::Status Sync::CheckRecordOrWait(const Event& event, const Stream& stream,
                                     int64_t fixed, uint32_t flag,
                                     const char* what) {
  // An IPC event has no place in a model (07 event management,
  // aclrtCreateEventExWithFlag `flag`: not in capture scenarios).
  if (event.flags() == ACL_EVENT_IPC && stream.recording()) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 absl::StrCat("an IPC event cannot be ", what,
                              " on a stream being captured"));
  }
  // The calls without a flag act as the DEFAULT flag; they do not fix one,
  // but cannot follow a fixed EXTERNAL.
  if (fixed != Event::kFlagUnset && fixed != flag) {
    return FlagFixed(event, what, fixed, flag);
  }
  return absl::OkStatus();
}

absl::Status Sync::RecordEvent(void* handle, void* stream) {
  return RecordEventFlagged(handle, stream, ACL_EVENT_RECORD_DEFAULT);
}

absl::Status Sync::RecordEventFlagged(void* handle, void* stream,
                                      uint32_t flag) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_RETURN_IF_ERROR(
      CheckRecordOrWait(*event, *s, event->record_flag(), flag, "recorded"));
  const TaskParams params{ACL_MODEL_RI_TASK_EVENT_RECORD, event->handle(), 0,
                          flag};
  // A recorded model takes a new record per execution (DESIGN.md §5.21).
  Submission sub(TaskKind::kEventRecord, "aclrtRecordEvent", std::move(s));
  sub.params = params;
  sub.event = event.get();
  sub.make = [event, params](const TaskOptions&) {
    const uint64_t seq = event->BeginRecord();
    // A discarded record still completes, so nothing waits on it forever.
    Task task{[event, seq] {
                event->Complete(seq);
                return absl::OkStatus();
              },
              [event, seq] { event->Complete(seq); }};
    task.params = params;
    return task;
  };
  return runtime_.tasks().Submit(std::move(sub));
}

absl::Status Sync::ResetEvent(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(
      RefuseEventUse(*event, /*extended_too=*/true, "aclrtResetEvent"));
  ASCEND_RETURN_IF_ERROR(RefuseUnsynchronized(*event, "aclrtResetEvent"));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  Task task{[event] {
              event->Reset();
              return absl::OkStatus();
            },
            nullptr};
  task.params = {ACL_MODEL_RI_TASK_EVENT_RESET, event->handle(), 0, 0};
  Submission sub(TaskKind::kEventReset, "aclrtResetEvent", std::move(s));
  sub.task = std::move(task);
  sub.event = event.get();
  return runtime_.tasks().Submit(std::move(sub));
}

absl::Status Sync::StreamWaitEvent(void* stream, void* handle) {
  // The timeout aclrtSetOpWaitTimeout set last (0: none) bounds the waits
  // queued after it (07, aclrtSetOpWaitTimeout constraints).
  return StreamWaitEventFor(
      stream, handle,
      absl::Seconds(DeviceInfo::Of(runtime_)->settings().OpWaitTimeoutS()));
}

absl::Status Sync::StreamWaitEventFor(void* stream, void* handle,
                                      absl::Duration timeout, uint32_t flag) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(RefuseUnsynchronized(*event, "aclrtStreamWaitEvent"));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_RETURN_IF_ERROR(
      CheckRecordOrWait(*event, *s, event->wait_flag(), flag, "waited for"));
  const TaskParams params{ACL_MODEL_RI_TASK_EVENT_WAIT, event->handle(), 0,
                          flag};
  // A wait waits for the latest record at enqueue (at each execution, for a
  // model), or, where the task path's hooks say so (a wait recorded in a
  // model for an event recorded outside it), until the event is set:
  // completed and not reset since (DESIGN.md §5.21).
  Submission sub(TaskKind::kEventWait, "aclrtStreamWaitEvent", std::move(s));
  sub.params = params;
  sub.event = event.get();
  sub.make = [event, timeout, params](const TaskOptions& options) {
    const bool until_set = options.wait_until_set;
    const uint64_t target = event->LatestRecord();
    event->BeginWait();
    Task task{[event, target, timeout, until_set]() -> absl::Status {
                // The timeout counts from when the wait starts running.
                const absl::Time deadline = timeout == absl::ZeroDuration()
                                                ? absl::InfiniteFuture()
                                                : absl::Now() + timeout;
                absl::Status status;
                Stream::BlockedWait blocked(Stream::Current());
                for (;;) {
                  const absl::Time slice =
                      std::min(deadline, absl::Now() + kTaskWaitSlice);
                  if (until_set ? event->WaitSet(slice)
                                : event->WaitFor(target, slice)) {
                    break;
                  }
                  if (absl::Now() >= deadline) {
                    status = Error(ACL_ERROR_RT_WAIT_TIMEOUT,
                                   absl::StrCat("event ", event->id(),
                                                " was not recorded before the "
                                                "wait timed out"));
                    break;
                  }
                  if (Stream::CurrentAborting()) {
                    status = absl::CancelledError("stream destroyed");
                    break;
                  }
                }
                event->EndWait();
                return status;
              },
              [event] { event->EndWait(); }};
    task.params = params;
    return task;
  };
  return runtime_.tasks().Submit(std::move(sub));
}

absl::StatusOr<bool> Sync::EventComplete(void* handle, bool refuse_extended) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  if (refuse_extended) {
    ASCEND_RETURN_IF_ERROR(
        RefuseEventUse(*event, /*extended_too=*/true, "aclrtQueryEvent"));
  }
  // A record in a capture in progress is not queried (107028).
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kEventQuery, "aclrtQueryEventStatus", nullptr, event.get()}));
  return event->IsComplete();
}

absl::Status Sync::SynchronizeEvent(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(
      runtime_.tasks().Access({HostOp::kEventSynchronize,
                               "aclrtSynchronizeEvent", nullptr, event.get()}));
  if (!event->WaitFor(event->LatestRecord(), deadline)) {
    return Error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                 absl::StrCat("event ", event->id(),
                              " did not complete before the timeout"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Sync::EventTimestamp(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(
      RefuseEventUse(*event, /*extended_too=*/false, "aclrtEventGetTimestamp"));
  ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
      {HostOp::kEventQuery, "aclrtEventGetTimestamp", nullptr, event.get()}));
  std::optional<absl::Time> ts = event->Timestamp();
  if (!ts.has_value()) {
    return Error(
        ACL_ERROR_RT_EVENT_NOT_COMPLETE,
        absl::StrCat("event ", event->id(), " has no completed record"));
  }
  return static_cast<uint64_t>(absl::ToUnixMicros(*ts));
}

absl::StatusOr<float> Sync::EventElapsedMs(void* start, void* end) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> s,
                          runtime_.Resolve<Event>(start));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> e,
                          runtime_.Resolve<Event>(end));
  for (const Event* event : {s.get(), e.get()}) {
    ASCEND_RETURN_IF_ERROR(RefuseEventUse(*event, /*extended_too=*/false,
                                          "aclrtEventElapsedTime"));
    ASCEND_RETURN_IF_ERROR(runtime_.tasks().Access(
        {HostOp::kEventQuery, "aclrtEventElapsedTime", nullptr, event}));
  }
  std::optional<absl::Time> t0 = s->Timestamp();
  std::optional<absl::Time> t1 = e->Timestamp();
  if (!t0.has_value() || !t1.has_value()) {
    return Error(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                 "both events need a completed record");
  }
  return static_cast<float>(absl::ToDoubleMilliseconds(*t1 - *t0));
}

// --- Event flags (DESIGN.md §5.13) -------------------------------------------

namespace {

// The flags aclrtCreateEventExWithFlag takes: an OR of these, or
// ACL_EVENT_IPC alone. 0x4 is the reference runtime's device-to-device sync
// flag, accepted there though our header does not name it.
constexpr uint32_t kCombinableEventFlags = ACL_EVENT_SYNC |
                                           ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                           0x4U | ACL_EVENT_TIME_LINE;

}  // namespace

absl::Status Sync::RefuseEventUse(const Event& event, bool extended_too,
                                  const char* api) {
  if (event.flags() == ACL_EVENT_IPC) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 absl::StrCat(api, " does not take an IPC event"));
  }
  if (extended_too && event.extended()) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 absl::StrCat(api,
                              " does not take an event created by "
                              "aclrtCreateEventExWithFlag"));
  }
  return absl::OkStatus();
}

absl::Status Sync::RefuseUnsynchronized(const Event& event, const char* api) {
  // 07, aclrtCreateEventWithFlag and aclrtCreateEventExWithFlag constraints:
  // without ACL_EVENT_SYNC an event is not waited for (nor reset, for the
  // former; the latter's are never reset). Kept: ACL_EVENT_EXTERNAL events
  // (CANN's model_ri/1_model_update waits for and resets one in its graph)
  // and IPC events (aclrtIpcOpenEventHandle's event is there to be waited
  // for: CANN's ipcevent examples).
  if (event.origin() == Event::Origin::kCreateEvent ||
      (event.flags() & ACL_EVENT_SYNC) != 0 ||
      event.flags() == ACL_EVENT_EXTERNAL || event.flags() == ACL_EVENT_IPC) {
    return absl::OkStatus();
  }
  return Error(
      ACL_ERROR_RT_PARAM_INVALID,
      absl::StrCat(api, " takes no event created with flags 0x",
                   absl::Hex(event.flags()), " (without ACL_EVENT_SYNC) by ",
                   event.extended() ? "aclrtCreateEventExWithFlag"
                                    : "aclrtCreateEventWithFlag"));
}

absl::StatusOr<void*> Sync::CreateEventEx(uint32_t flags) {
  const bool ipc_alone = flags == ACL_EVENT_IPC;
  if (!ipc_alone && (flags == 0 || (flags & ~kCombinableEventFlags) != 0)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("event flag ", flags,
                              " is neither an OR of ACL_EVENT_SYNC, "
                              "ACL_EVENT_CAPTURE_STREAM_PROGRESS and "
                              "ACL_EVENT_TIME_LINE nor ACL_EVENT_IPC alone"));
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  std::shared_ptr<SharedSyncPage> shared;
  if (ipc_alone) {
    absl::StatusOr<std::shared_ptr<SharedSyncPage>> page =
        SharedSyncPage::Create();
    if (!page.ok()) {
      return Error(ACL_ERROR_RT_NO_EVENT_RESOURCE, page.status().message());
    }
    shared = *std::move(page);
  }
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Event> event,
      runtime_.AddObject<Event>(device_id, [&](uint32_t id) {
        return std::make_shared<Event>(device_id, id, flags, Event::Origin::kEx,
                                       std::move(shared));
      }));
  return event->handle();
}

absl::Status Sync::RecordEventWithFlag(void* handle, void* stream,
                                       uint32_t flag) {
  if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("record flag ", flag,
                              " is neither ACL_EVENT_RECORD_DEFAULT nor "
                              "ACL_EVENT_RECORD_EXTERNAL"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  // Fixed at the entry, whatever this call returns.
  if (!event->FixRecordFlag(flag)) {
    return FlagFixed(*event, "recorded", event->record_flag(), flag);
  }
  if (flag == ACL_EVENT_RECORD_EXTERNAL) {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                            runtime_.ResolveStream(stream));
    ASCEND_RETURN_IF_ERROR(
        CheckExternal(*event, *s, "ACL_EVENT_RECORD_EXTERNAL"));
  }
  return RecordEventFlagged(handle, stream, flag);
}

absl::Status Sync::StreamWaitEventWithFlag(void* stream, void* handle,
                                           uint32_t timeout_s, uint32_t flag) {
  if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("wait flag ", flag,
                              " is neither ACL_EVENT_WAIT_DEFAULT nor "
                              "ACL_EVENT_WAIT_EXTERNAL"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  if (!event->FixWaitFlag(flag)) {
    return FlagFixed(*event, "waited for", event->wait_flag(), flag);
  }
  if (flag == ACL_EVENT_WAIT_EXTERNAL) {
    if (timeout_s != 0) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   "ACL_EVENT_WAIT_EXTERNAL takes timeout 0");
    }
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                            runtime_.ResolveStream(stream));
    ASCEND_RETURN_IF_ERROR(
        CheckExternal(*event, *s, "ACL_EVENT_WAIT_EXTERNAL"));
  }
  return StreamWaitEventFor(stream, handle, absl::Seconds(timeout_s), flag);
}

absl::StatusOr<uint32_t> Sync::EventId(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(
      RefuseEventUse(*event, /*extended_too=*/false, "aclrtGetEventId"));
  return event->id();
}

absl::StatusOr<bool> Sync::EventWaitsComplete(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event,
                          runtime_.Resolve<Event>(handle));
  ASCEND_RETURN_IF_ERROR(RefuseEventUse(*event, /*extended_too=*/true,
                                        "aclrtQueryEventWaitStatus"));
  ASCEND_RETURN_IF_ERROR(
      runtime_.tasks().Access({HostOp::kEventQuery, "aclrtQueryEventWaitStatus",
                               nullptr, event.get()}));
  return event->WaitsDone();
}

}  // namespace ascend::rt
