// The capture's hook on the task path (DESIGN.md §1.6, §5.21).
#include <utility>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "device/base/status_macros.h"
#include "runtime/model/model.h"
#include "runtime/sync/event.h"
#include "runtime/task_path.h"

namespace ascend::rt {
namespace {

// The synchronous calls the capture modes call unsafe (15 model runtime
// instances, aclmdlRICaptureBegin `mode`): refused with 107030 where the
// modes in force forbid them. Other synchronous writes pass. Async copies
// with a pageable host side are the modes' other unsafe calls
// (HostOp::kPageableCopy).
bool UnsafeInCapture(absl::string_view api) {
  return api == "aclrtMemcpy" || api == "aclrtMemset" || api == "aclrtMemcpy2d";
}

}  // namespace

absl::Status Models::CaptureHook::OnSubmit(Submission& s, bool& taken) {
  if (!s.divertable) return absl::OkStatus();
  Stream& stream = *s.stream;
  if (s.kind == TaskKind::kEventWait) {
    // A stream waiting for a record of a graph being captured joins that
    // capture; a wait recorded in a model (captured or built) for an event
    // recorded outside it waits until the event is set.
    if (ABSL_PREDICT_FALSE(models_.capturing()) && !stream.recording()) {
      ASCEND_RETURN_IF_ERROR(models_.JoinCapture(*s.event, s.stream));
    }
    if (stream.recording()) {
      ASCEND_ASSIGN_OR_RETURN(
          s.options.wait_until_set,
          models_.WaitsUntilSet(stream, *s.event, s.params.flag));
    }
  }
  // A capturing stream, or a stream bound to a model being built.
  if (ABSL_PREDICT_TRUE(!stream.recording())) return absl::OkStatus();
  const bool external_record = s.kind == TaskKind::kEventRecord &&
                               s.params.flag == ACL_EVENT_RECORD_EXTERNAL;
  const bool external_wait = s.kind == TaskKind::kEventWait &&
                             s.params.flag == ACL_EVENT_WAIT_EXTERNAL;
  if (external_record || external_wait) {
    ASCEND_RETURN_IF_ERROR(
        models_.NoteExternalUse(stream, *s.event, external_record));
  }
  std::shared_ptr<TaskRecorder> recorder = stream.recorder();
  if (recorder == nullptr) return absl::OkStatus();
  if (s.make) {
    recorder->RecordMaker(stream, s.params,
                          [make = std::move(s.make), options = s.options] {
                            return make(options);
                          });
  } else {
    recorder->Record(stream, std::move(s.task));
  }
  taken = true;
  return absl::OkStatus();
}

absl::Status Models::CaptureHook::OnAccess(const HostAccess& access) {
  // Each check costs one load while nothing is captured.
  switch (access.op) {
    case HostOp::kMemoryWrite:
      if (!UnsafeInCapture(access.api)) return absl::OkStatus();
      return models_.CheckUnsafeCall(access.api);
    case HostOp::kPageableCopy:
      return models_.CheckUnsafeCall(access.api);
    case HostOp::kTeardown:
      return absl::OkStatus();
    case HostOp::kStreamSynchronize:
    case HostOp::kStreamQuery:
    case HostOp::kStreamDestroy:
      return RefuseCapturing(*access.stream, access.api);
    case HostOp::kEventQuery:
    case HostOp::kEventSynchronize:
      return models_.RefuseCapturedEvent(*access.event, access.api);
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
