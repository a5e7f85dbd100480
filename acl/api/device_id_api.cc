// ACL entry points: device-id translation. There is no device remapping on
// this runtime, so user, logical and physical device ids coincide.
#include <cstdint>
#include <string>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"

namespace {

aclError SameId(const char* api, int32_t id, int32_t* out) {
  if (out == nullptr) {
    return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                       "output must not be NULL");
  }
  if (id < 0 || id >= ascend::acl::DeviceCount()) {
    return ascend::rt::ReportErrorCode(
        api, ACL_ERROR_RT_INVALID_DEVICEID,
        "device id " + std::to_string(id) + " out of range");
  }
  *out = id;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid,
                                       int32_t* const logicDevId) try {
  return SameId(__func__, userDevid, logicDevId);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId,
                                       int32_t* const userDevid) try {
  return SameId(__func__, logicDevId, userDevid);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId,
                                      int32_t* const logicDevId) try {
  return SameId(__func__, phyDevId, logicDevId);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId,
                                      int32_t* const phyDevId) try {
  return SameId(__func__, logicDevId, phyDevId);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId,
                                     int32_t* const userDevId) try {
  return SameId(__func__, phyDevId, userDevId);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId,
                                     int32_t* const phyDevId) try {
  return SameId(__func__, userDevId, phyDevId);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
