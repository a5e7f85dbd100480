// Events, notifies, stream waits, host functions and report callbacks.
#include <pthread.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

// Blocking stream tasks wait in slices so a destroyed stream can abort them.
constexpr absl::Duration kWaitSlice = absl::Milliseconds(20);

}  // namespace

absl::StatusOr<std::shared_ptr<Event>> Runtime::ResolveEvent(
    void* event) const {
  ascend::MutexLock lock(&mu_);
  auto it = events_.find(event);
  if (it == events_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live event");
  }
  return it->second;
}

absl::StatusOr<std::shared_ptr<Notify>> Runtime::ResolveNotify(
    void* notify) const {
  ascend::MutexLock lock(&mu_);
  auto it = notifies_.find(notify);
  if (it == notifies_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live notify");
  }
  return it->second;
}

absl::StatusOr<void*> Runtime::CreateEvent(uint32_t flags) {
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  // Allocation and registration under one lock, as in CreateStream: a
  // concurrent reset closes the device before or after, never between.
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(
      uint32_t id, AllocateIdLocked(device_id, device::ResourceKind::kEvent));
  auto event = std::make_shared<Event>(device_id, id, flags);
  events_[event->handle()] = event;
  return event->handle();
}

absl::Status Runtime::DestroyEvent(void* handle) {
  std::shared_ptr<Event> event;
  {
    ascend::MutexLock lock(&mu_);
    auto it = events_.find(handle);
    if (it == events_.end()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live event");
    }
    event = it->second;
    events_.erase(it);
    ReleaseId(event->device_id(), device::ResourceKind::kEvent, event->id());
  }
  return absl::OkStatus();
}

absl::Status Runtime::RecordEvent(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
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
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  s->Enqueue(Task{[event] {
                    event->Reset();
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::Status Runtime::StreamWaitEvent(void* stream, void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  const uint64_t target = event->LatestRecord();
  Stream* raw = s.get();
  s->Enqueue(Task{[event, target, raw]() -> absl::Status {
                    while (!event->WaitFor(target, absl::Now() + kWaitSlice)) {
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
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
  return event->IsComplete();
}

absl::Status Runtime::SynchronizeEvent(void* handle, absl::Time deadline) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
  if (!event->WaitFor(event->LatestRecord(), deadline)) {
    return Error(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                 absl::StrCat("event ", event->id(),
                              " did not complete before the timeout"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Runtime::EventTimestamp(void* handle) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> event, ResolveEvent(handle));
  std::optional<absl::Time> ts = event->Timestamp();
  if (!ts.has_value()) {
    return Error(
        ACL_ERROR_RT_EVENT_NOT_COMPLETE,
        absl::StrCat("event ", event->id(), " has no completed record"));
  }
  return static_cast<uint64_t>(absl::ToUnixMicros(*ts));
}

absl::StatusOr<float> Runtime::EventElapsedMs(void* start, void* end) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> s, ResolveEvent(start));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Event> e, ResolveEvent(end));
  std::optional<absl::Time> t0 = s->Timestamp();
  std::optional<absl::Time> t1 = e->Timestamp();
  if (!t0.has_value() || !t1.has_value()) {
    return Error(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                 "both events need a completed record");
  }
  return static_cast<float>(absl::ToDoubleMilliseconds(*t1 - *t0));
}

absl::StatusOr<void*> Runtime::CreateNotify(uint64_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "notify flags must be 0");
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, GetDevice());
  // As in CreateEvent.
  ascend::MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(
      uint32_t id, AllocateIdLocked(device_id, device::ResourceKind::kNotify));
  auto notify = std::make_shared<Notify>(device_id, id);
  notifies_[notify->handle()] = notify;
  return notify->handle();
}

absl::Status Runtime::DestroyNotify(void* handle) {
  ascend::MutexLock lock(&mu_);
  auto it = notifies_.find(handle);
  if (it == notifies_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live notify");
  }
  it->second->Cancel();
  ReleaseId(it->second->device_id(), device::ResourceKind::kNotify,
            it->second->id());
  notifies_.erase(it);
  return absl::OkStatus();
}

absl::Status Runtime::RecordNotify(void* handle, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Notify> notify,
                          ResolveNotify(handle));
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
                          ResolveNotify(handle));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  Stream* raw = s.get();
  s->Enqueue(
      Task{[notify, raw, timeout_ms]() -> absl::Status {
             const absl::Time deadline =
                 timeout_ms == 0 ? absl::InfiniteFuture()
                                 : absl::Now() + absl::Milliseconds(timeout_ms);
             for (;;) {
               absl::Status status = notify->WaitAndReset(
                   std::min(deadline, absl::Now() + kWaitSlice));
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
                          ResolveNotify(handle));
  return notify->id();
}

absl::Status Runtime::LaunchHostFunc(void* stream, aclrtHostFunc fn,
                                     void* args) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  s->Enqueue(Task{[this, fn, args] {
                    fn(args);
                    // Host functions may write simulated device memory.
                    MemoryWritten();
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::Status Runtime::LaunchCallback(aclrtCallback fn, void* user_data,
                                     aclrtCallbackBlockType block,
                                     void* stream) {
  if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("unknown callback block type ", block));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(uint64_t thread, reports_.Subscriber(s->handle()));
  Stream* raw = s.get();
  s->Enqueue(Task{[this, fn, user_data, block, thread, raw]() -> absl::Status {
                    auto item = reports_.Post(thread, fn, user_data);
                    if (block == ACL_CALLBACK_NO_BLOCK) return absl::OkStatus();
                    while (!reports_.WaitDone(item, absl::Now() + kWaitSlice)) {
                      if (raw->aborting()) {
                        return absl::CancelledError("stream destroyed");
                      }
                    }
                    MemoryWritten();
                    return absl::OkStatus();
                  },
                  nullptr});
  return absl::OkStatus();
}

absl::Status Runtime::SubscribeReport(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  return reports_.Subscribe(thread_id, s->handle());
}

absl::Status Runtime::UnsubscribeReport(uint64_t thread_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, ResolveStream(stream));
  return reports_.Unsubscribe(thread_id, s->handle());
}

absl::Status Runtime::ProcessReport(int32_t timeout_ms) {
  if (timeout_ms < -1) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("report timeout ", timeout_ms, " is below -1"));
  }
  const absl::Time deadline =
      timeout_ms == -1 ? absl::InfiniteFuture()
                       : absl::Now() + absl::Milliseconds(timeout_ms);
  const auto thread_id = static_cast<uint64_t>(pthread_self());
  for (;;) {
    // Waiting for a report is not a call in progress: a Lock does not wait
    // for an idle report thread (it would never finish). Running the
    // callback is; it waits while the process is locked.
    ASCEND_RETURN_IF_ERROR(reports_.WaitPending(thread_id, deadline));
    ProcessApiScope gate;
    if (reports_.RunPending(thread_id)) return absl::OkStatus();
  }
}

}  // namespace ascend::rt
