// The synchronisation family (DESIGN.md §1.7, §5.4, §5.13, §5.17): events,
// notifies and count notifies, the stream tasks that record, wait on and
// reset them, and their sharing between processes.
//
//   Sync& sync = *Sync::Of(runtime);
//   ASCEND_ASSIGN_OR_RETURN(void* event, sync.CreateEvent(ACL_EVENT_SYNC));
//   ASCEND_RETURN_IF_ERROR(sync.RecordEvent(event, producer));
//   ASCEND_RETURN_IF_ERROR(sync.StreamWaitEvent(consumer, event));
//
// Its objects live in the runtime's handle table (Runtime::AddObject); their
// kinds' ids and "out of ids" codes are the core's descriptors
// (runtime/resource_kinds.cc). Every record, wait and reset goes through the
// runtime's task path as one submission, so a capture records it and a
// model replays it like any other task (DESIGN.md §1.6). The family reaches
// the core only through Runtime's public interface.
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_RUNTIME_SYNC_SYNC_H_
#define ASCENDCL_RUNTIME_SYNC_SYNC_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "runtime/family.h"
#include "runtime/runtime.h"
#include "runtime/sync/cnt_notify.h"
#include "runtime/sync/event.h"
#include "runtime/sync/notify.h"

namespace ascend::rt {

class Sync final : public Family {
 public:
  explicit Sync(Runtime& runtime) : runtime_(runtime) {}
  Sync(const Sync&) = delete;
  Sync& operator=(const Sync&) = delete;

  // The family of `runtime`, or null when it was built without it.
  static Sync* Of(const Runtime& runtime);

  // A null stream is the current context's default stream.
  // --- Events (event.cc) ----------------------------------------------------
  // `origin`: aclrtCreateEvent (the default) or aclrtCreateEventWithFlag.
  absl::StatusOr<void*> CreateEvent(
      uint32_t flags, Event::Origin origin = Event::Origin::kCreateEvent);
  absl::Status DestroyEvent(void* event);
  absl::Status RecordEvent(void* event, void* stream);
  absl::Status ResetEvent(void* event, void* stream);
  absl::Status StreamWaitEvent(void* stream, void* event);
  // `refuse_extended`: as aclrtQueryEvent, which does not take the events of
  // aclrtCreateEventExWithFlag (207000).
  absl::StatusOr<bool> EventComplete(void* event, bool refuse_extended = false);
  absl::Status SynchronizeEvent(void* event, absl::Time deadline);
  // Microseconds since the Unix epoch.
  absl::StatusOr<uint64_t> EventTimestamp(void* event);
  absl::StatusOr<float> EventElapsedMs(void* start, void* end);

  // --- Event flags (event.cc, DESIGN.md §5.13) ------------------------------
  // aclrtCreateEventExWithFlag: an OR of ACL_EVENT_SYNC,
  // ACL_EVENT_CAPTURE_STREAM_PROGRESS and ACL_EVENT_TIME_LINE, or
  // ACL_EVENT_IPC alone (else 107000).
  absl::StatusOr<void*> CreateEventEx(uint32_t flags);
  absl::Status RecordEventWithFlag(void* event, void* stream, uint32_t flag);
  // A wait that fails its stream with 107019 when the event's record has not
  // run `timeout` after the wait started (zero: no timeout).
  absl::Status StreamWaitEventFor(void* stream, void* event,
                                  absl::Duration timeout,
                                  uint32_t flag = ACL_EVENT_WAIT_DEFAULT);
  // aclrtRecordEventWithFlag's record (ACL_EVENT_RECORD_EXTERNAL only while
  // capturing, which the caller checked).
  absl::Status RecordEventFlagged(void* event, void* stream, uint32_t flag);
  absl::Status StreamWaitEventWithFlag(void* stream, void* event,
                                       uint32_t timeout_s, uint32_t flag);
  absl::StatusOr<uint32_t> EventId(void* event);
  // True when no stream wait on the event is queued or running.
  absl::StatusOr<bool> EventWaitsComplete(void* event);

  // --- Notifies (notify.cc) -------------------------------------------------
  absl::StatusOr<void*> CreateNotify(uint64_t flags);
  absl::Status DestroyNotify(void* notify);
  absl::Status RecordNotify(void* notify, void* stream);
  // Fails the stream's work with 107019 when no record came `timeout` after
  // the wait started (zero: no timeout; aclrtWaitAndResetNotify counts
  // seconds, 08 notify management).
  absl::Status WaitAndResetNotify(void* notify, void* stream,
                                  absl::Duration timeout);
  absl::StatusOr<uint32_t> NotifyId(void* notify);
  // Clears every notify's pending record; all or (107000) none.
  absl::Status ResetNotifies(void* const* notifies, size_t count);

  // --- Count notifies (cnt_notify.cc, DESIGN.md §5.13) ----------------------
  absl::StatusOr<void*> CreateCntNotify(uint64_t flags);
  absl::Status DestroyCntNotify(void* notify);
  absl::Status RecordCntNotify(void* notify, void* stream,
                               aclrtCntNotifyRecordMode mode, uint32_t value);
  // Blocks `stream` until the count releases the wait; fails the stream with
  // 107019 after `timeout_s` seconds (0: no timeout).
  absl::Status WaitCntNotify(void* notify, void* stream,
                             aclrtCntNotifyWaitMode mode, uint32_t value,
                             uint32_t timeout_s, bool clear);
  absl::Status ResetCntNotify(void* notify, void* stream);
  absl::StatusOr<uint32_t> CntNotifyId(void* notify);
  absl::StatusOr<uint32_t> CntNotifyValue(void* notify);

  // --- IPC events and notifies (ipc_sync.cc, DESIGN.md §5.17) ---------------
  // The handle of an ACL_EVENT_IPC event (107000 for any other event),
  // exported at the first call; an opened event reports its origin's.
  absl::Status IpcGetEventHandle(void* event, char handle[64]);
  // An event of this process on the shared state of `handle`'s event.
  absl::StatusOr<void*> IpcOpenEventHandle(const char handle[64]);
  // Exports `notify` (once) and writes its key (NUL-terminated) to `key`.
  absl::Status NotifyGetExportKey(void* notify, char* key, size_t len,
                                  uint64_t flags);
  absl::Status NotifySetImportPids(void* notify, const int32_t* pids,
                                   size_t num);
  absl::StatusOr<void*> NotifyImportByKey(const char* key, uint64_t flags);

 private:
  // 207000 when `api` does not take `event`: IPC events, and when
  // `extended_too` the events of aclrtCreateEventExWithFlag.
  // The checks of every record (wait): an IPC event on a stream being
  // captured; a flag other than the one the event's first call with a flag
  // fixed (`fixed`).
  static absl::Status CheckRecordOrWait(const Event& event,
                                        const Stream& stream, int64_t fixed,
                                        uint32_t flag, const char* what);
  static absl::Status RefuseEventUse(const Event& event, bool extended_too,
                                     const char* api);
  // 107000 when `api` (a stream wait or a reset) gets an event created with
  // flags but without ACL_EVENT_SYNC, except ACL_EVENT_EXTERNAL and
  // ACL_EVENT_IPC events (07; DESIGN.md §5.22).
  static absl::Status RefuseUnsynchronized(const Event& event, const char* api);

  Runtime& runtime_;
};

// The family's registration (runtime/process/families.cc): its participants
// carry the ids and host-side state of events, notifies and count notifies.
FamilyRegistration SyncFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_SYNC_SYNC_H_
