// The C interface of the task timeline (ascendcl/timeline.h, DESIGN.md
// §5.24): the observer a profiler sets, device-side marks, and the model
// lookup of a subscription.
#include <string>

#include "acl/acl_base.h"
#include "acl/api/api_util.h"
#include "ascendcl/timeline.h"
#include "runtime/model/model.h"
#include "runtime/timeline/timeline.h"

using ascend::rt::ReportErrorCode;
using ascend::rt::Timeline;

namespace {
// Messages are kept to this many bytes.
constexpr size_t kMaxMarkBytes = 255;
}  // namespace

extern "C" {

aclError ascendclTimelineSetObserver(ascendclTaskObserver observer,
                                     void* userData) try {
  Timeline* timeline = ascend::acl::FamIfPresent<Timeline>();
  if (timeline == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "this runtime has no timeline");
  }
  return ACL_RESULT(timeline->SetObserver(observer, userData));
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclTimelineMark(aclrtStream stream, const char* message) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(message);
  Timeline* timeline = ascend::acl::FamIfPresent<Timeline>();
  if (timeline == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "this runtime has no timeline");
  }
  std::string text(message, strnlen(message, kMaxMarkBytes));
  return ACL_RESULT(timeline->Mark(stream, std::move(text)));
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclTimelineModelDevice(uint32_t modelId, int32_t* deviceId) try {
  ACL_REQUIRE_NOT_NULL(deviceId);
  ascend::rt::Models* models = ascend::acl::FamIfPresent<ascend::rt::Models>();
  std::optional<int32_t> device =
      models != nullptr ? models->DeviceOfModel(modelId) : std::nullopt;
  if (!device.has_value()) {
    return ReportErrorCode(
        __func__, ACL_ERROR_INVALID_MODEL_ID,
        "no live model runtime instance has id " + std::to_string(modelId));
  }
  *deviceId = *device;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
