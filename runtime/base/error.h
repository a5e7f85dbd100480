// The one mapping between absl::Status and ACL/RT numeric error codes, and the
// per-thread last-error record behind aclrtGetLastError / aclGetRecentErrMsg.
//
// Layers below ACL speak absl::Status. A status made with Error(code, msg)
// carries its exact ACL code as a payload; a status from the device layer
// carries only a canonical code, mapped by ErrorCode() to the runtime code
// the reference uses for that kind of failure.
//
//   return Error(ACL_ERROR_RT_INVALID_DEVICEID, "device 9 out of range");
//   ...
//   aclError code = ReportError(status);  // maps, logs, records for the thread
#ifndef ASCENDCL_RUNTIME_BASE_ERROR_H_
#define ASCENDCL_RUNTIME_BASE_ERROR_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ascend::rt {

// A status carrying the exact numeric ACL/RT code `code` (non-zero).
absl::Status Error(int32_t code, absl::string_view message);

// The ACL/RT code for `status`: 0 when ok, the payload when present, else a
// mapping of the canonical code.
int32_t ErrorCode(const absl::Status& status);

// Maps `status` to its code; for a failure also logs it (glog ERROR, after
// InitLogging: a failure may be the process's first ACL call) and records it
// as the calling thread's last error. `api` names the entry point.
int32_t ReportError(absl::string_view api, const absl::Status& status);

// Records a failure code and message directly (for entry points that fail
// before building a status); logs it as ReportError does.
int32_t ReportErrorCode(absl::string_view api, int32_t code,
                        absl::string_view message);

// The calling thread's last error code (0 if none); Take also clears it.
int32_t PeekLastError();
int32_t TakeLastError();

// Hands out the calling thread's most recent error message once: a second
// call returns nullptr until another error is recorded (as CANN's
// aclGetRecentErrMsg does). The text stays valid until the thread's next
// message is handed out.
const char* RecentErrorMessage();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BASE_ERROR_H_
