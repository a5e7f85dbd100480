// Events: the Event object, the runtime's operations on events, the event
// kind's descriptor and its snapshot participant (ids and record state).
#include "runtime/event.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/id_participant.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"

namespace ascend::rt {

// Waiters on a closed device's events are streams of that device, which the
// close shuts down: nothing more to do.
const KindDescriptor kEventKind = {
    ObjectKind::kEvent, "event", device::ResourceKind::kEvent,
    ACL_ERROR_RT_NO_EVENT_RESOURCE,
    [](const HandleTable::Entry&, CloseActions&) {}};

std::unique_ptr<SnapshotParticipant> MakeEventParticipant(Runtime& runtime) {
  return std::make_unique<internal::IdParticipant<Event>>(runtime);
}

std::string Event::DescribeState(const State& state) {
  return absl::StrCat("recorded ", state.recorded, ", newest completed ",
                      state.newest_completed, ", pending [",
                      absl::StrJoin(state.pending, ","), "], timestamp ",
                      state.timestamp.has_value()
                          ? absl::FormatTime(*state.timestamp)
                          : std::string("none"));
}

uint64_t Event::BeginRecord() {
  ascend::MutexLock lock(&mu_);
  pending_.insert(++recorded_);
  return recorded_;
}

void Event::Complete(uint64_t seq) {
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
  ascend::MutexLock lock(&mu_);
  return recorded_;
}

bool Event::WaitFor(uint64_t seq, absl::Time deadline) const {
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
  ascend::MutexLock lock(&mu_);
  return IsDoneLocked(recorded_);
}

void Event::Reset() {
  ascend::MutexLock lock(&mu_);
  timestamp_.reset();
}

std::optional<absl::Time> Event::Timestamp() const {
  ascend::MutexLock lock(&mu_);
  if (!IsDoneLocked(recorded_)) return std::nullopt;
  return timestamp_;
}

Event::State Event::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return State{recorded_,
               std::vector<uint64_t>(pending_.begin(), pending_.end()),
               newest_completed_, timestamp_};
}

void Event::RestoreState(const State& state) {
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

absl::StatusOr<void*> Runtime::CreateEvent(uint32_t flags) {
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  // Allocation and registration under one lock, as in CreateStream: a
  // concurrent reset closes the device before or after, never between.
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t id,
                          AllocateIdLocked(device_id, ObjectKind::kEvent));
  auto event = std::make_shared<Event>(device_id, id, flags);
  RegisterLocked(event, device_id, id);
  return event->handle();
}

absl::Status Runtime::DestroyEvent(void* handle) {
  std::optional<HandleTable::Entry> entry;  // the event goes outside the lock
  ascend::MutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(ResolveLocked<Event>(handle).status());
  entry = table_.Erase(handle);
  ReleaseIdLocked(*entry);
  return absl::OkStatus();
}

absl::Status Runtime::RecordEvent(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  const uint64_t seq = event->BeginRecord();
  // A discarded record still completes, so nothing waits on it forever.
  s->Enqueue(Task{[event, seq] {
                    event->Complete(seq);
                    return absl::OkStatus();
                  },
                  [event, seq] { event->Complete(seq); }});
  return absl::OkStatus();
}

absl::Status Runtime::ResetEvent(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  s->Enqueue(Task{[event] {
                    event->Reset();
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::Status Runtime::StreamWaitEvent(void* stream, void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  const uint64_t target = event->LatestRecord();
  Stream* raw = s.get();
  s->Enqueue(Task{[event, target, raw]() -> absl::Status {
                    while (
                        !event->WaitFor(target, absl::Now() + kTaskWaitSlice)) {
                      if (raw->aborting()) {
                        return absl::CancelledError("stream destroyed");
                      }
                    }
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::StatusOr<bool> Runtime::EventComplete(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  return event->IsComplete();
}

absl::Status Runtime::SynchronizeEvent(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  if (!event->WaitFor(event->LatestRecord(), deadline)) {
    return Error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                 absl::StrCat("event ", event->id(),
                              " did not complete before the timeout"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Runtime::EventTimestamp(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, Resolve<Event>(handle));
  std::optional<absl::Time> ts = event->Timestamp();
  if (!ts.has_value()) {
    return Error(
        ACL_ERROR_RT_EVENT_NOT_COMPLETE,
        absl::StrCat("event ", event->id(), " has no completed record"));
  }
  return static_cast<uint64_t>(absl::ToUnixMicros(*ts));
}

absl::StatusOr<float> Runtime::EventElapsedMs(void* start, void* end) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> s, Resolve<Event>(start));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> e, Resolve<Event>(end));
  std::optional<absl::Time> t0 = s->Timestamp();
  std::optional<absl::Time> t1 = e->Timestamp();
  if (!t0.has_value() || !t1.has_value()) {
    return Error(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                 "both events need a completed record");
  }
  return static_cast<float>(absl::ToDoubleMilliseconds(*t1 - *t0));
}

}  // namespace ascend::rt
