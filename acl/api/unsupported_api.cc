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
                                            void** args) {
  return NotSupported(__func__);
}

aclError aclrtLaunchSIMTKernelWithHostArgs(
    void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg* cfg, void* hostArgs,
    size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray,
    size_t placeHolderNum) {
  return NotSupported(__func__);
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags,
                                              size_t* dynamicUbufSize) {
  return NotSupported(__func__);
}

// The overflow workspace the hardware's saturation unit writes for AI Core
// kernels; simulated kernels are host code with no such unit.
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) {
  return NotSupported(__func__);
}

// --- Model run instances, labels, capture (issue 18) -----------------------

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  return NotSupported(__func__);
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  return NotSupported(__func__);
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task,
                                        aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue* attrValue) {
  return NotSupported(__func__);
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) { return NotSupported(__func__); }

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  return NotSupported(__func__);
}

aclError aclrtCreateLabel(aclrtLabel* label) { return NotSupported(__func__); }

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtDestroyLabel(aclrtLabel label) { return NotSupported(__func__); }

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num,
                              aclrtLabelList* labelList) {
  return NotSupported(__func__);
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  return NotSupported(__func__);
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue,
                                 aclrtLabelList labelList, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond,
                           void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream,
                           aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream,
                                aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  return NotSupported(__func__);
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) { return NotSupported(__func__); }

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path,
                                uint32_t flags) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  return NotSupported(__func__);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  return NotSupported(__func__);
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) { return NotSupported(__func__); }

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream,
                                        aclrtTaskGrp handle) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  return NotSupported(__func__);
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream,
                            uint32_t flag) {
  return NotSupported(__func__);
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
  return NotSupported(__func__);
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  return NotSupported(__func__);
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  return NotSupported(__func__);
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  return NotSupported(__func__);
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func,
                                         void* userData) {
  return NotSupported(__func__);
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI,
                                           aclrtCallback func) {
  return NotSupported(__func__);
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams,
                            uint32_t* numStreams) {
  return NotSupported(__func__);
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks,
                                  uint32_t* numTasks) {
  return NotSupported(__func__);
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
  return NotSupported(__func__);
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
  return NotSupported(__func__);
}

aclError aclmdlRIAbort(aclmdlRI modelRI) { return NotSupported(__func__); }

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
  return NotSupported(__func__);
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle,
                                      uint64_t** ptr) {
  return NotSupported(__func__);
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream,
                             uint32_t flags) {
  return NotSupported(__func__);
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode) {
  return NotSupported(__func__);
}

// --- Not supported by a host-memory simulator ------------------------------

aclError aclrtGetHardwareSyncAddr(void** addr) {
  return NotSupported(__func__);
}

// Compute groups: the simulated Ascend910B-class device has none (CANN
// offers them only on Atlas inference products in Control-CPU form).
aclError aclrtSetGroup(int32_t groupId) { return NotSupported(__func__); }

aclError aclrtGetGroupCount(uint32_t* count) { return NotSupported(__func__); }

aclrtGroupInfo* aclrtCreateGroupInfo(void) {
  NotSupported(__func__);
  return nullptr;
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo) {
  return NotSupported(__func__);
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo) {
  return NotSupported(__func__);
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo,
                                 int32_t groupIndex, aclrtGroupAttr attr,
                                 void* attrValue, size_t valueLen,
                                 size_t* paramRetSize) {
  return NotSupported(__func__);
}

// Cross-server pid whitelists: a simulator process runs on one machine, with
// no super-pod servers to share a notify with.
aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify,
                                            aclrtServerPid* serverPids,
                                            size_t num) {
  return NotSupported(__func__);
}

// --- Pending (issue 15) ----------------------------------------------------

aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId,
                              aclrtTaskUpdateInfo* info,
                              aclrtStream execStream) {
  return NotSupported(__func__);
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr,
                                  const size_t infoSize) {
  return NotSupported(__func__);
}

aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr,
                                      const size_t infoSize) {
  return NotSupported(__func__);
}

// --- Virtual memory and IPC (issue 16) -------------------------------------

aclError aclrtIpcMemImportPidInterServer(const char* key,
                                         aclrtServerPid* serverPids,
                                         size_t num) {
  return NotSupported(__func__);
}

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size,
                                          size_t alignment, void* expectPtr,
                                          uint64_t flags) {
  return NotSupported(__func__);
}

aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc,
                                 uint32_t linkIdx) {
  return NotSupported(__func__);
}

aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle,
                            aclrtMemLinkType adviceLink) {
  return NotSupported(__func__);
}

}  // extern "C"
