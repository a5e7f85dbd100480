// ACL entry points declared for compatibility with CANN but not available on
// this runtime yet (or never, for the "not supported" ones; see
// acl/API_COVERAGE.md). Each returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// (207000), or NULL / 0 where it returns a handle or a number, logs one line
// naming itself, records the code as the thread's last error, writes no
// output, changes no state and never throws.
//
// When a function gets a real implementation, move it to its family's file
// and mark it "implemented" in acl/api_status.txt.
#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "acl/api/api_util.h"

using ascend::acl::NotSupported;

extern "C" {

// --- Kernels: what this simulated device does not have ---------------------

// SIMT kernels (a thread grid per block, dynamic unified-buffer sizes) exist
// on Ascend 950 parts only; the simulated Ascend910B has none.
aclError aclrtLaunchSIMTKernelWithArgsArray(void* func, dim3 gridDim,
                                            dim3 blockDim, size_t dynUbufSize,
                                            aclrtStream stream,
                                            aclrtLaunchKernelCfg* cfg,
                                            void** args) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchSIMTKernelWithHostArgs(
    void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg* cfg, void* hostArgs,
    size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray,
    size_t placeHolderNum) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// Rewrites a task's hardware queue entry (SQE) in place: the simulator's
// tasks are host closures with no queue entries to rewrite.
aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId,
                              aclrtTaskUpdateInfo* info,
                              aclrtStream execStream) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// The overflow workspace the hardware's saturation unit writes for AI Core
// kernels; simulated kernels are host code with no such unit.
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// --- Not supported by a host-memory simulator ------------------------------

aclError aclrtGetHardwareSyncAddr(void** addr) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// Compute groups: the simulated Ascend910B-class device has none (CANN
// offers them only on Atlas inference products in Control-CPU form).
aclError aclrtSetGroup(int32_t groupId) try { return NotSupported(__func__); }
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetGroupCount(uint32_t* count) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclrtGroupInfo* aclrtCreateGroupInfo(void) try {
  NotSupported(__func__);
  return nullptr;
}
ACL_ENTRY_CATCH(aclrtGroupInfo*)

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo,
                                 int32_t groupIndex, aclrtGroupAttr attr,
                                 void* attrValue, size_t valueLen,
                                 size_t* paramRetSize) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// Cross-server pid whitelists: a simulator process runs on one machine, with
// no super-pod servers to share a notify with.
aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify,
                                            aclrtServerPid* serverPids,
                                            size_t num) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

// --- Virtual memory and IPC (DESIGN.md §5.18) -----------------------------

aclError aclrtIpcMemImportPidInterServer(const char* key,
                                         aclrtServerPid* serverPids,
                                         size_t num) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size,
                                          size_t alignment, void* expectPtr,
                                          uint64_t flags) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc,
                                 uint32_t linkIdx) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle,
                            aclrtMemLinkType adviceLink) try {
  return NotSupported(__func__);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
