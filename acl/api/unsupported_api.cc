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

// --- Kernels (issue 17) ----------------------------------------------------

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback,
                                         void* userData) {
  return NotSupported(__func__);
}

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) {
  return NotSupported(__func__);
}

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) {
  return NotSupported(__func__);
}

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol,
                               size_t count, size_t offset,
                               aclrtMemcpyKind kind) {
  return NotSupported(__func__);
}

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax,
                                    const void* symbol, size_t count,
                                    size_t offset, aclrtMemcpyKind kind,
                                    aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                             size_t offset, aclrtMemcpyKind kind) {
  return NotSupported(__func__);
}

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src,
                                  size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  return NotSupported(__func__);
}

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) {
  NotSupported(__func__);
  return nullptr;
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  return NotSupported(__func__);
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle) {
  return NotSupported(__func__);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  return NotSupported(__func__);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle,
                                const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
  return NotSupported(__func__);
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                           const void* argsData, size_t argsSize,
                           aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtStreamAbort(aclrtStream stream) { return NotSupported(__func__); }

aclError aclrtBinaryLoadFromFile(const char* binPath,
                                 aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  return NotSupported(__func__);
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle,
                                  void** binAddr, size_t* binSize) {
  return NotSupported(__func__);
}

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle,
                                       uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) {
  return NotSupported(__func__);
}

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name,
                              void** dptr, size_t* size) {
  return NotSupported(__func__);
}

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
  return NotSupported(__func__);
}

aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr,
                              void** aivAddr) {
  return NotSupported(__func__);
}

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize,
                              size_t* aivSize) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle,
                                         size_t* memSize) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle,
                                   size_t userArgsSize,
                                   size_t* actualArgsSize) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle,
                             aclrtArgsHandle* argsHandle) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle,
                                      aclrtArgsHandle argsHandle,
                                      void* userHostMem,
                                      size_t actualArgsSize) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param,
                               size_t paramSize,
                               aclrtParamHandle* paramHandle) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle,
                                             size_t dataSize,
                                             void** bufferAddr) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle,
                                   aclrtParamHandle paramHandle, void* param,
                                   size_t paramSize) {
  return NotSupported(__func__);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle,
                                     uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle,
                                     void* reserve) {
  return NotSupported(__func__);
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  return NotSupported(__func__);
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen,
                              char* name) {
  return NotSupported(__func__);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  return NotSupported(__func__);
}

aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName,
                              const char* kernelName,
                              aclrtFuncHandle* funcHandle) {
  return NotSupported(__func__);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                             const void* argsData, size_t argsSize,
                             aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  return NotSupported(__func__);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle,
                                       uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) {
  return NotSupported(__func__);
}

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks,
                                        aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg,
                                        void** args) {
  return NotSupported(__func__);
}

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

aclError aclrtStreamStop(aclrtStream stream) { return NotSupported(__func__); }

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle,
                                   aclrtFuncAttribute attrType,
                                   int64_t* attrValue) {
  return NotSupported(__func__);
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle,
                                aclrtBinHandle* binHandle) {
  return NotSupported(__func__);
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  return NotSupported(__func__);
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex,
                                   size_t* paramOffset, size_t* paramSize) {
  return NotSupported(__func__);
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags,
                                              size_t* dynamicUbufSize) {
  return NotSupported(__func__);
}

// The overflow workspace handed to AI Core kernels (their overflow flags).
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
