// ACL entry points: events with creation, record and wait flags, event ids
// and wait status, and notify batch reset (DESIGN.md §5.13).
#include <cstdint>
#include <string>

#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/sync/sync.h"

namespace {
// The process runtime always has the synchronisation family (runtime/process).
ascend::rt::Sync& Sync() { return ascend::acl::Fam<ascend::rt::Sync>(); }
}  // namespace

extern "C" {

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(event, Sync().CreateEventEx(flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream,
                                  uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(Sync().RecordEventWithFlag(event, stream, flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event,
                                      uint32_t timeout, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(
      Sync().StreamWaitEventWithFlag(stream, event, timeout, flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event,
                                         int32_t timeout) try {
  ACL_GATE();
  if (timeout < 0) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        "timeout " + std::to_string(timeout) + " must be 0 (none) or positive");
  }
  ACL_REQUIRE_NOT_NULL(event);
  return ACL_RESULT(
      Sync().StreamWaitEventFor(stream, event, absl::Seconds(timeout)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) try {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(eventId);
  ACL_RETURN_VALUE(eventId, Sync().EventId(event));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtQueryEventWaitStatus(aclrtEvent event,
                                   aclrtEventWaitStatus* status) try {
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> done = Sync().EventWaitsComplete(event);
  if (!done.ok()) return ACL_RESULT(done.status());
  *status =
      *done ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notifies);
  return ACL_RESULT(Sync().ResetNotifies(notifies, num));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
