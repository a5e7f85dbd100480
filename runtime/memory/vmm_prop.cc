// The validation of an aclrtPhysicalMemProp and the granularity it gives
// (runtime/memory/vmm.h; DESIGN.md §5.18).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "runtime/base/error.h"
#include "runtime/memory/vmm.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"

namespace ascend::rt {
namespace {

constexpr uint64_t kHugeGranularity = uint64_t{2} << 20;

bool IsDeviceAttr(int32_t attr) {
  switch (attr) {
    case ACL_HBM_MEM_HUGE:
    case ACL_HBM_MEM_NORMAL:
    case ACL_HBM_MEM_P2P_HUGE:
    case ACL_HBM_MEM_P2P_NORMAL:
    case ACL_MEM_NORMAL:
    case ACL_MEM_HUGE:
    case ACL_MEM_P2P_NORMAL:
    case ACL_MEM_P2P_HUGE:
      return true;
    default:
      return false;
  }
}

bool IsHuge1gAttr(int32_t attr) {
  return attr == ACL_HBM_MEM_HUGE1G || attr == ACL_MEM_HUGE1G ||
         attr == ACL_HBM_MEM_P2P_HUGE1G || attr == ACL_MEM_P2P_HUGE1G;
}

bool IsHostAttr(int32_t attr) {
  return attr == ACL_DDR_MEM_HUGE || attr == ACL_DDR_MEM_NORMAL ||
         attr == ACL_DDR_MEM_P2P_HUGE || attr == ACL_DDR_MEM_P2P_NORMAL;
}

}  // namespace

absl::Status Vmm::ValidateProp(const aclrtPhysicalMemProp& prop) const {
  const int32_t handle_type = static_cast<int32_t>(prop.handleType);
  if (handle_type != ACL_MEM_HANDLE_TYPE_NONE &&
      handle_type != ACL_MEM_HANDLE_TYPE_POSIX) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("prop.handleType ", handle_type,
                              " is not an aclrtMemHandleType"));
  }
  if (static_cast<int32_t>(prop.allocationType) !=
      ACL_MEM_ALLOCATION_TYPE_PINNED) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("prop.allocationType ",
                              static_cast<int32_t>(prop.allocationType),
                              " is not ACL_MEM_ALLOCATION_TYPE_PINNED"));
  }
  const int32_t location = static_cast<int32_t>(prop.location.type);
  const int32_t attr = static_cast<int32_t>(prop.memAttr);
  if (location == ACL_MEM_LOCATION_TYPE_HOST ||
      location == ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
    if (!IsHostAttr(attr) && !IsDeviceAttr(attr)) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   absl::StrCat("prop.memAttr ", attr,
                                " is not a memory attribute for host memory"));
    }
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "host physical memory is not simulated: the simulator's "
                 "physical memory is device memory");
  }
  if (location != ACL_MEM_LOCATION_TYPE_DEVICE) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("prop.location.type ", location,
                              " is not a location physical memory can have"));
  }
  if (IsHuge1gAttr(attr)) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "1 GiB pages are not simulated");
  }
  if (!IsDeviceAttr(attr)) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("prop.memAttr ", attr,
                              " is not a memory attribute for device memory"));
  }
  if (prop.location.id >= static_cast<uint32_t>(runtime_.DeviceCount())) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("prop.location.id ", prop.location.id,
                              " is not a device"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> Vmm::Granularity(const aclrtPhysicalMemProp& prop,
                                          bool recommended) const {
  ASCEND_RETURN_IF_ERROR(ValidateProp(prop));
  (void)recommended;  // one page size: both answers are the same
  return kHugeGranularity;
}

}  // namespace ascend::rt
