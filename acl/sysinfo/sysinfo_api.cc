// ACL entry points: run mode, SoC name and compatibility, device
// capabilities and error records, CANN attributes, data type sizes and
// float16 conversion. None needs aclInit; none changes state.
#include <cstring>
#include <iterator>
#include <string>

#include "absl/status/statusor.h"
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/base/float16.h"
#include "runtime/device_info/device_info.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;
using ascend::acl::Runtime;

namespace {

// The attributes this runtime supports (see aclGetCannAttributeList).
constexpr aclCannAttr kSupportedAttributes[] = {ACL_CANN_ATTR_INF_NAN};

// These take the caller's raw integer (see RawEnum in acl/api/api_util.h).
bool IsKnownAttribute(int32_t attr) {
  return attr == ACL_CANN_ATTR_INF_NAN || attr == ACL_CANN_ATTR_BF16 ||
         attr == ACL_CANN_ATTR_JIT_COMPILE;
}

bool IsKnownFeature(int32_t feature) {
  return feature == ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV ||
         feature == ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV;
}

aclError InvalidDevice(const char* api, int32_t device_id) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_RT_INVALID_DEVICEID,
      "device id " + std::to_string(device_id) + " is out of range");
}

}  // namespace

extern "C" {

aclError aclrtGetRunMode(aclrtRunMode* runMode) try {
  ACL_REQUIRE_NOT_NULL(runMode);
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

const char* aclrtGetSocName(void) try {
  // The backend is fixed for the life of the process, so is its name.
  static const std::string* const name = [] {
    auto* backend = Runtime().backend();
    return new std::string(backend == nullptr ? "" : backend->SocName());
  }();
  return name->empty() ? nullptr : name->c_str();
}
ACL_ENTRY_CATCH(const char*)

aclError aclrtCheckArchCompatibility(const char* socVersion,
                                     int32_t* canCompatible) try {
  ACL_REQUIRE_NOT_NULL(socVersion);
  ACL_REQUIRE_NOT_NULL(canCompatible);
  const char* own = aclrtGetSocName();
  *canCompatible = own != nullptr && std::strcmp(own, socVersion) == 0 ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDeviceCapability(int32_t deviceId,
                                  aclrtDevFeatureType devFeatureType,
                                  int32_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  if (deviceId < 0 || deviceId >= ascend::acl::DeviceCount()) {
    return InvalidDevice(__func__, deviceId);
  }
  const int32_t raw_feature = RawEnum(devFeatureType);
  if (!IsKnownFeature(raw_feature)) {
    return InvalidEnum(__func__, "devFeatureType", "aclrtDevFeatureType",
                       raw_feature);
  }
  *value = ACL_DEV_FEATURE_NOT_SUPPORT;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) try {
  ACL_REQUIRE_NOT_NULL(errorInfo);
  absl::StatusOr<bool> abnormal =
      Fam<ascend::rt::DeviceInfo>().DeviceAbnormal(deviceId);
  if (!abnormal.ok()) return ACL_RESULT(abnormal.status());
  std::memset(errorInfo, 0, sizeof *errorInfo);
  errorInfo->errorType = *abnormal ? ACL_RT_ERROR_OTHERS : ACL_RT_NO_ERROR;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList,
                                 size_t* num) try {
  ACL_REQUIRE_NOT_NULL(cannAttrList);
  ACL_REQUIRE_NOT_NULL(num);
  *cannAttrList = kSupportedAttributes;
  *num = std::size(kSupportedAttributes);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw_attr = RawEnum(cannAttr);
  if (!IsKnownAttribute(raw_attr)) {
    return InvalidEnum(__func__, "cannAttr", "aclCannAttr", raw_attr);
  }
  *value = 0;
  for (aclCannAttr supported : kSupportedAttributes) {
    if (supported == raw_attr) *value = 1;
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

size_t aclDataTypeSize(aclDataType dataType) try {
  // Outside [ACL_DT_UNDEFINED, ACL_FLOAT4_E1M2] the value may lie outside the
  // enum's range, where loading it as the enum would be undefined.
  const int32_t raw = RawEnum(dataType);
  if (raw < ACL_DT_UNDEFINED || raw > ACL_FLOAT4_E1M2) return 0;
  switch (dataType) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    case ACL_DT_UNDEFINED:
    case ACL_STRING:
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
      return 0;
  }
  return 0;  // not an aclDataType value
}
ACL_ENTRY_CATCH(size_t)

aclFloat16 aclFloatToFloat16(float value) try {
  return ascend::rt::FloatToHalf(value);
}
ACL_ENTRY_CATCH(aclFloat16)

float aclFloat16ToFloat(aclFloat16 value) try {
  return ascend::rt::HalfToFloat(value);
}
ACL_ENTRY_CATCH(float)

}  // extern "C"
