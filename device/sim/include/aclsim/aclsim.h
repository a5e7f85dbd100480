/*
 * Control API of the simulated NPU (the default "sim" device backend), for
 * tests of applications and of the runtime that need device faults.
 *
 * Environment read when the runtime first opens the backend:
 *   ACLSIM_DEVICE_COUNT      number of simulated devices (default 8)
 *   ACLSIM_DEVICE_MEMORY_MB  device address space per device (default 65536)
 *   ACLSIM_SOC_NAME          reported SoC name
 */
#ifndef ASCENDCL_ACLSIM_ACLSIM_H_
#define ASCENDCL_ACLSIM_ACLSIM_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclsimFault {
  /* Contents of every allocation on the device are lost (read as 0) until a
   * snapshot Restore brings them back. */
  ACLSIM_FAULT_DEVICE_MEMORY_LOSS = 0,
  /* The next device copy done by the runtime on that device fails. */
  ACLSIM_FAULT_NEXT_COPY_FAILS = 1,
  /* The next device copy on that device silently flips one byte. */
  ACLSIM_FAULT_NEXT_COPY_CORRUPTS = 2
} aclsimFault;

/* Injects a fault into simulated device deviceId. Works in any process state
 * and never blocks. Returns 0; ACL_ERROR_INVALID_PARAM (100000) for a device
 * that does not exist or an unknown fault; ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * (207000) when the active backend is not the simulator. */
ACL_FUNC_VISIBILITY aclError aclsimInjectFault(int32_t deviceId,
                                               aclsimFault fault);

/* Marks [devPtr, devPtr + size), which must lie in one live allocation of
 * the open simulated device deviceId, as hit by an uncorrectable memory
 * error: copies reading any of it fail with ACL_ERROR_RT_DEVICE_MEM_ERROR
 * (507053) until aclrtMemUceRepair (or aclrtRepairError) repairs it, the
 * allocation is freed, the device is reset or a snapshot Restore writes the
 * memory again. aclrtGetMemUceInfo reports the range. Never blocks, works
 * in any process state. Returns 0; ACL_ERROR_INVALID_PARAM (100000) for a
 * device that does not exist or a range outside its live allocations;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) when the active backend is not
 * the simulator. */
ACL_FUNC_VISIBILITY aclError aclsimInjectMemoryError(int32_t deviceId,
                                                     void *devPtr, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLSIM_ACLSIM_H_ */
