// ACL entry points: streams, events and notifies.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"

using ascend::acl::Runtime;

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_RETURN_VALUE(stream, Runtime().CreateStream(0, 0));
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority,
                                     uint32_t flag) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_RETURN_VALUE(stream, Runtime().CreateStream(priority, flag));
}

aclError aclrtDestroyStream(aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Runtime().DestroyStream(stream, /*force=*/false));
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Runtime().DestroyStream(stream, /*force=*/true));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return ACL_RESULT(
      Runtime().SynchronizeStream(stream, absl::InfiniteFuture()));
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream,
                                           int32_t timeout) {
  absl::Time deadline;
  if (!ascend::acl::DeadlineFromTimeout(timeout, &deadline)) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "timeout must be -1 or positive");
  }
  return ACL_RESULT(Runtime().SynchronizeStream(stream, deadline));
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> idle = Runtime().StreamIdle(stream);
  if (!idle.ok()) return ACL_RESULT(idle.status());
  *status = *idle ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  ACL_REQUIRE_NOT_NULL(streamId);
  absl::StatusOr<ascend::rt::StreamInfo> info = Runtime().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *streamId = static_cast<int32_t>(info->id);
  return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  ACL_REQUIRE_NOT_NULL(flags);
  absl::StatusOr<ascend::rt::StreamInfo> info = Runtime().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *flags = info->flags;
  return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  ACL_REQUIRE_NOT_NULL(priority);
  absl::StatusOr<ascend::rt::StreamInfo> info = Runtime().GetStreamInfo(stream);
  if (!info.ok()) return ACL_RESULT(info.status());
  *priority = info->priority;
  return ACL_SUCCESS;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return ACL_RESULT(Runtime().SetStreamFailureMode(stream, mode));
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Runtime().StreamWaitEvent(stream, event));
}

aclError aclrtCreateEvent(aclrtEvent* event) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(event, Runtime().CreateEvent(0));
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(event, Runtime().CreateEvent(flag));
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Runtime().DestroyEvent(event));
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Runtime().RecordEvent(event, stream));
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Runtime().ResetEvent(event, stream));
}

aclError aclrtQueryEventStatus(aclrtEvent event,
                               aclrtEventRecordedStatus* status) {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> done = Runtime().EventComplete(event);
  if (!done.ok()) return ACL_RESULT(done.status());
  *status = *done ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                  : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> done =
      Runtime().EventComplete(event, /*refuse_extended=*/true);
  if (!done.ok()) return ACL_RESULT(done.status());
  *status = *done ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Runtime().SynchronizeEvent(event, absl::InfiniteFuture()));
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(event);
  absl::Time deadline;
  if (!ascend::acl::DeadlineFromTimeout(timeout, &deadline)) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "timeout must be -1 or positive");
  }
  return ACL_RESULT(Runtime().SynchronizeEvent(event, deadline));
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(timestamp);
  ACL_RETURN_VALUE(timestamp, Runtime().EventTimestamp(event));
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent,
                               aclrtEvent endEvent) {
  ACL_REQUIRE_NOT_NULL(ms);
  ACL_REQUIRE_NOT_NULL(startEvent);
  ACL_REQUIRE_NOT_NULL(endEvent);
  ACL_RETURN_VALUE(ms, Runtime().EventElapsedMs(startEvent, endEvent));
}

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_RETURN_VALUE(notify, Runtime().CreateNotify(flag));
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  return ACL_RESULT(Runtime().DestroyNotify(notify));
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  return ACL_RESULT(Runtime().RecordNotify(notify, stream));
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream,
                                 uint32_t timeout) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  return ACL_RESULT(Runtime().WaitAndResetNotify(notify, stream, timeout));
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(notifyId);
  ACL_RETURN_VALUE(notifyId, Runtime().NotifyId(notify));
}

}  // extern "C"
