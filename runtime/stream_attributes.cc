// Stream attributes (aclrtSetStreamAttribute / aclrtGetStreamAttribute):
// host state of each stream, carried by the stream participant.
#include <cstring>
#include <functional>
#include <memory>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {
namespace {

constexpr uint32_t kLowestPriority = 7;

absl::Status RequireSwitch(uint32_t value, const char* what) {
  if (value > 1) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(what, " ", value, " is neither 0 nor 1"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<aclrtStreamAttrValue> Runtime::GetStreamAttribute(
    void* handle, aclrtStreamAttr attr) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  const StreamAttributes attributes = stream->attributes();
  aclrtStreamAttrValue value;
  std::memset(&value, 0, sizeof value);
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      value.failureMode = stream->stop_on_failure() ? ACL_STOP_ON_FAILURE
                                                    : ACL_CONTINUE_ON_FAILURE;
      return value;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      value.overflowSwitch = attributes.overflow_switch;
      return value;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      value.userCustomTag = attributes.user_custom_tag;
      return value;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      value.cacheOpInfoSwitch = attributes.cache_op_info;
      return value;
    case ACL_STREAM_ATTR_PRIORITY:
      value.streamPriority = attributes.priority;
      return value;
  }
  return Error(
      ACL_ERROR_RT_PARAM_INVALID,
      absl::StrCat("unknown stream attribute ", static_cast<int>(attr)));
}

absl::Status Runtime::SetStreamAttribute(void* handle, aclrtStreamAttr attr,
                                         const aclrtStreamAttrValue& value) {
  if (attr == ACL_STREAM_ATTR_FAILURE_MODE) {
    // The same call as aclrtSetStreamFailureMode.
    return SetStreamFailureMode(handle, value.failureMode);
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                          ResolveStream(handle));
  std::function<void(StreamAttributes&)> change;
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      return absl::OkStatus();  // handled above
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      ASCEND_RETURN_IF_ERROR(
          RequireSwitch(value.overflowSwitch, "overflow switch"));
      change = [v = value.overflowSwitch](StreamAttributes& a) {
        a.overflow_switch = v;
      };
      break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      change = [v = value.userCustomTag](StreamAttributes& a) {
        a.user_custom_tag = v;
      };
      break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      ASCEND_RETURN_IF_ERROR(
          RequireSwitch(value.cacheOpInfoSwitch, "operator info cache switch"));
      change = [v = value.cacheOpInfoSwitch](StreamAttributes& a) {
        a.cache_op_info = v;
      };
      break;
    case ACL_STREAM_ATTR_PRIORITY:
      if (value.streamPriority > kLowestPriority) {
        return Error(ACL_ERROR_RT_PARAM_INVALID,
                     absl::StrCat("stream priority ", value.streamPriority,
                                  " outside [0, 7]"));
      }
      change = [v = value.streamPriority](StreamAttributes& a) {
        a.priority = v;
      };
      break;
    default:
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("unknown stream attribute ", static_cast<int>(attr)));
  }
  stream->UpdateAttributes(change);
  return absl::OkStatus();
}

}  // namespace ascend::rt
