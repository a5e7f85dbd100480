#include "runtime/base/error.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "glog/logging.h"
#include "runtime/base/logging.h"

namespace ascend::rt {
namespace {

constexpr absl::string_view kCodePayload = "ascendcl/error_code";

struct LastError {
  int32_t code = 0;
  std::string message;
  bool has_message = false;
  // The message aclGetRecentErrMsg handed out last: it stays valid until the
  // next message is handed out.
  std::string handed;
};

LastError& ThreadLastError() {
  static thread_local LastError last;
  return last;
}

absl::StatusCode CanonicalFor(int32_t code) {
  if (code >= 100000 && code < 200000)
    return absl::StatusCode::kInvalidArgument;
  if (code >= 200000 && code < 300000) return absl::StatusCode::kUnavailable;
  return absl::StatusCode::kInternal;
}

int32_t MapCanonical(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 0;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kAlreadyExists:
      return ACL_ERROR_RT_PARAM_INVALID;
    case absl::StatusCode::kOutOfRange:
      return ACL_ERROR_RT_INVALID_DEVICEID;
    case absl::StatusCode::kResourceExhausted:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case absl::StatusCode::kUnimplemented:
      return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    case absl::StatusCode::kUnavailable:
      return ACL_ERROR_RT_NO_DEVICE;
    case absl::StatusCode::kDeadlineExceeded:
      return ACL_ERROR_RT_WAIT_TIMEOUT;
    case absl::StatusCode::kFailedPrecondition:
      return ACL_ERROR_RT_DEV_SETUP_ERROR;
    case absl::StatusCode::kDataLoss:
      return ACL_ERROR_RT_SYS_DMA;
    default:
      return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

}  // namespace

absl::Status Error(int32_t code, absl::string_view message) {
  absl::Status status(CanonicalFor(code), message);
  status.SetPayload(kCodePayload, absl::Cord(absl::StrCat(code)));
  return status;
}

int32_t ErrorCode(const absl::Status& status) {
  if (status.ok()) return 0;
  if (auto payload = status.GetPayload(kCodePayload)) {
    int32_t code = 0;
    if (absl::SimpleAtoi(std::string(*payload), &code)) return code;
  }
  return MapCanonical(status.code());
}

int32_t ReportErrorCode(absl::string_view api, int32_t code,
                        absl::string_view message) {
  if (code == 0) return 0;
  // A failure may be the process's first use of the runtime (CANN allows
  // most calls before aclInit): the environment's log set-up applies to it.
  InitLogging();
  LastError& last = ThreadLastError();
  last.code = code;
  last.message = absl::StrCat(api, ": ", message, " (error ", code, ")");
  last.has_message = true;
  // Shown at CANN's default log level (ERROR): bad input gets a clear line.
  LOG(ERROR) << last.message;
  return code;
}

int32_t ReportError(absl::string_view api, const absl::Status& status) {
  if (status.ok()) return 0;
  return ReportErrorCode(api, ErrorCode(status), status.message());
}

int32_t PeekLastError() { return ThreadLastError().code; }

int32_t TakeLastError() {
  LastError& last = ThreadLastError();
  int32_t code = last.code;
  last.code = 0;
  return code;
}

const char* RecentErrorMessage() {
  LastError& last = ThreadLastError();
  if (!last.has_message) return nullptr;
  last.handed.swap(last.message);
  last.message.clear();
  last.has_message = false;
  return last.handed.c_str();
}

}  // namespace ascend::rt
