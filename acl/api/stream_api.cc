// ACL entry points: streams, events and notifies.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"

using ascend::acl::Fam;

namespace {
// The process runtime always has the synchronisation family (runtime/process).
ascend::rt::Sync& Sync() { return ascend::acl::Fam<ascend::rt::Sync>(); }
}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_RETURN_VALUE(stream, Fam<ascend::rt::Streams>().CreateStream(0, 0));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority,
                                     uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_RETURN_VALUE(stream,
                   Fam<ascend::rt::Streams>().CreateStream(priority, flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyStream(aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(
      Fam<ascend::rt::Streams>().DestroyStream(stream, /*force=*/false));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyStreamForce(aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(
      Fam<ascend::rt::Streams>().DestroyStream(stream, /*force=*/true));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeStream(aclrtStream stream) try {
  return ACL_RESULT(Fam<ascend::rt::Streams>().SynchronizeStream(
      stream, absl::InfiniteFuture()));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream,
                                           int32_t timeout) try {
  absl::Time deadline;
  if (!ascend::acl::DeadlineFromTimeout(timeout, &deadline)) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "timeout must be -1 or positive");
  }
  return ACL_RESULT(
      Fam<ascend::rt::Streams>().SynchronizeStream(stream, deadline));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) try {
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> idle = Fam<ascend::rt::Streams>().StreamIdle(stream);
  if (!idle.ok()) return ACL_RESULT(idle.status());
  *status = *idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) try {
  ACL_REQUIRE_NOT_NULL(streamId);
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *streamId = static_cast<int32_t>(info->id);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) try {
  ACL_REQUIRE_NOT_NULL(flags);
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *flags = info->flags;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) try {
  ACL_REQUIRE_NOT_NULL(priority);
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *priority = info->priority;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) try {
  return ACL_RESULT(
      Fam<ascend::rt::Streams>().SetStreamFailureMode(stream, mode));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().StreamWaitEvent(stream, event));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateEvent(aclrtEvent* event) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(event, Sync().CreateEvent(0));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(
      event, Sync().CreateEvent(flag, ascend::rt::Event::Origin::kWithFlag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyEvent(aclrtEvent event) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().DestroyEvent(event));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().RecordEvent(event, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().ResetEvent(event, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtQueryEventStatus(aclrtEvent event,
                               aclrtEventRecordedStatus* status) try {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> done = Sync().EventComplete(event);
  if (!done.ok()) return ACL_RESULT(done.status());
  *status = *done ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                  : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) try {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> done =
      Sync().EventComplete(event, /*refuse_extended=*/true);
  if (!done.ok()) return ACL_RESULT(done.status());
  *status = *done ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeEvent(aclrtEvent event) try {
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().SynchronizeEvent(event, absl::InfiniteFuture()));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event,
                                          int32_t timeout) try {
  ACL_REQUIRE_NOT_NULL(event);
  absl::Time deadline;
  if (!ascend::acl::DeadlineFromTimeout(timeout, &deadline)) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "timeout must be -1 or positive");
  }
  return ACL_RESULT(Sync().SynchronizeEvent(event, deadline));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) try {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(timestamp);
  ACL_RETURN_VALUE(timestamp, Sync().EventTimestamp(event));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent,
                               aclrtEvent endEvent) try {
  ACL_REQUIRE_NOT_NULL(ms);
  ACL_REQUIRE_NOT_NULL(startEvent);
  ACL_REQUIRE_NOT_NULL(endEvent);
  ACL_RETURN_VALUE(ms, Sync().EventElapsedMs(startEvent, endEvent));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_RETURN_VALUE(notify, Sync().CreateNotify(flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyNotify(aclrtNotify notify) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  return ACL_RESULT(Sync().DestroyNotify(notify));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  return ACL_RESULT(Sync().RecordNotify(notify, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream,
                                 uint32_t timeout) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  // `timeout` is in seconds, 0 waits forever (08 notify management).
  return ACL_RESULT(
      Sync().WaitAndResetNotify(notify, stream, absl::Seconds(timeout)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) try {
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(notifyId);
  ACL_RETURN_VALUE(notifyId, Sync().NotifyId(notify));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
