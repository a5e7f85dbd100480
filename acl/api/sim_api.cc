// The simulator control entry point (aclsim/aclsim.h).
#include "acl/api/api_util.h"
#include "aclsim/aclsim.h"

extern "C" {

aclError aclsimInjectFault(int32_t deviceId, aclsimFault fault) {
  if (fault < ACLSIM_FAULT_DEVICE_MEMORY_LOSS ||
      fault > ACLSIM_FAULT_NEXT_COPY_CORRUPTS) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "unknown fault");
  }
  // Never gated: faults can be injected in any process state.
  return ACL_RESULT(ascend::acl::Runtime().InjectFault(
      deviceId, static_cast<ascend::device::Fault>(fault)));
}

}  // extern "C"
