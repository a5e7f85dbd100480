// The simulator control entry point (aclsim/aclsim.h).
#include "acl/api/api_util.h"
#include "aclsim/aclsim.h"
#include "runtime/memory/memory.h"
#include "runtime/snapshot_support/snapshot_support.h"

extern "C" {

aclError aclsimInjectFault(int32_t deviceId, aclsimFault fault) try {
  const int32_t raw = ascend::acl::RawEnum(fault);
  if (raw < ACLSIM_FAULT_DEVICE_MEMORY_LOSS ||
      raw > ACLSIM_FAULT_NEXT_COPY_CORRUPTS) {
    return ascend::acl::InvalidEnum(__func__, "fault", "aclsimFault", raw);
  }
  // Never gated: faults can be injected in any process state.
  return ACL_RESULT(ascend::acl::Fam<ascend::rt::SnapshotSupport>().InjectFault(
      deviceId, static_cast<ascend::device::Fault>(raw)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclsimInjectMemoryError(int32_t deviceId, void* devPtr,
                                 size_t size) try {
  // Never gated, like aclsimInjectFault.
  return ACL_RESULT(ascend::acl::Fam<ascend::rt::Memory>().InjectMemoryError(
      deviceId, devPtr, size));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
