/*
 * Part of acl/acl_rt.h (include that header, not this one), declared inside
 * its extern "C" block: virtual memory management and inter-process sharing,
 * kernel binaries, functions, arguments and launches, model run instances,
 * capture, labels and conditional streams.
 */
#ifndef ASCENDCL_ACL_RT_VMM_KERNEL_MODEL_API_H_
#define ASCENDCL_ACL_RT_VMM_KERNEL_MODEL_API_H_

#ifndef ASCENDCL_ACL_ACL_RT_H_
#error "include acl/acl_rt.h, not acl/rt/vmm_kernel_model_api.h"
#endif

/* ---------------------------------------------------------------------------
 * Virtual memory management and inter-process sharing
 * ------------------------------------------------------------------------- */

/* Reserves size bytes (rounded up to the 2 MiB granularity) of the current
 * device's virtual address space, at expectPtr when not NULL (2 MiB aligned,
 * else 100000): an address in 16 TiB to 24 TiB aligned to 1 GiB for more
 * than 1 GiB, else to the size's power of two, ending by 24 TiB, or one in
 * the device's own window; 107000 when misaligned, outside or taken (by any
 * device of the process). alignment must be 0; flags 0 or 1 (2 MiB pages
 * either way). Nothing is accessible until aclrtMapMem maps physical memory
 * there. A reservation is address space, not memory: aclrtGetMemInfo is
 * unchanged. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size,
                                                    size_t alignment,
                                                    void *expectPtr,
                                                    uint64_t flags);
/* Releases the reservation starting at virPtr (107000 while any part of it is
 * mapped, or for any other address). */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
/* Allocates size bytes (rounded up to the granularity) of physical memory on
 * device prop->location.id (which must be set in this process) and returns
 * its handle. prop: ACL_MEM_ALLOCATION_TYPE_PINNED device memory; host
 * physical memory and 1 GiB pages answer 207000. flags must be 0. The memory
 * counts against the device in aclrtGetMemInfo. */
ACL_FUNC_VISIBILITY aclError
aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                    const aclrtPhysicalMemProp *prop, uint64_t flags);
/* Drops a reference to a physical allocation (aclrtMallocPhysical,
 * aclrtMemRetainAllocationHandle, aclrtMemImportFromShareableHandle); the
 * memory goes when no reference and no mapping is left, and while another
 * process still maps an exported allocation. 107000 for a freed handle. */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
/* Maps [offset, offset + size) of a physical allocation at virPtr, inside one
 * reservation of the same device and over nothing mapped (all multiples of
 * the granularity); the mapping device gets read-write access at once. One
 * physical allocation may be mapped at several addresses: each shows the same
 * bytes. Copies, memsets, host functions and stream tasks use mapped addresses
 * as they use aclrtMalloc memory, across adjacent mappings of a reservation. */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size,
                                         size_t offset,
                                         aclrtDrvMemHandle handle,
                                         uint64_t flags);
/* Unmaps the mapping starting at virPtr; the reservation stays. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
/* As aclrtMapMem, but the mapping is not accessible until aclrtMemSetAccess
 * grants the mapping device access: copies fail (107000), kernels fault. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size,
                                                 size_t offset,
                                                 aclrtDrvMemHandle handle,
                                                 uint64_t flags);
/* Exports a physical allocation for other processes of this host:
 * *shareableHandle names it (one per allocation; exporting again is 107000).
 * flags: ACL_RT_VMM_EXPORT_FLAG_DEFAULT (only processes named by
 * aclrtMemSetPidToShareableHandle may import) or
 * ..._DISABLE_PID_VALIDATION (any process may). Freed with
 * aclrtFreePhysical, the memory stays while another process maps it. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(
    aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
    uint64_t *shareableHandle);
/* aclrtMemExportToShareableHandle with the handle written to *(uint64_t *)
 * shareableHandle for ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT; fabric handles
 * (across servers) answer 207000. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(
    aclrtDrvMemHandle handle, uint64_t flags,
    aclrtMemSharedHandleType shareType, void *shareableHandle);
/* A handle on deviceId (set in this process) for physical memory another
 * process exported; map it with aclrtMapMem, free it with aclrtFreePhysical.
 * 207006 when the exporter's whitelist does not name this process, 107000
 * for an unknown or withdrawn handle, a dead exporter, or a handle this
 * process exported itself. */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(
    uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle);
/* aclrtMemImportFromShareableHandle of *(uint64_t *)shareableHandle onto the
 * current device; flags must be 0; fabric handles answer 207000. */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(
    void *shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags,
    aclrtDrvMemHandle *handle);
/* Adds pid[0..pidNum) to the whitelist of a shareable handle this process
 * exported. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(
    uint64_t shareableHandle, int32_t *pid, size_t pidNum);
/* aclrtMemSetPidToShareableHandle of *(uint64_t *)shareableHandle; fabric
 * handles answer 207000. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(
    void *shareableHandle, aclrtMemSharedHandleType shareType, int32_t *pid,
    size_t pidNum);
/* The granularity of physical allocations, reservations and mappings for
 * prop: 2 MiB for both options on the simulator. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(
    aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
    size_t *granularity);
/* The pid other processes whitelist for this one: getpid() on the simulator
 * (no container translation). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);
/* Shares [devPtr, devPtr + size), inside one allocation or mapping, with
 * other processes under the key written to key (len at least 65). flags:
 * ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (whitelist with
 * aclrtIpcMemSetImportPid) or ..._DISABLE_PID_VALIDATION. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size,
                                                     char *key, size_t len,
                                                     uint64_t flags);
/* Closes key: unmaps it in an importing process; withdraws it in the
 * exporting one (imports made stay valid). */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
/* Maps the memory of key, exported by another process (or this one), into
 * this process's current device and returns its address there. 207006 when
 * the whitelist does not name this process. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr,
                                                    const char *key,
                                                    uint64_t flags);
/* Adds pid[0..num) to the whitelist of a key this process exported. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key,
                                                     int32_t *pid, size_t num);
/* Records the die-to-die link (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO or _HCCS)
 * of a key this process exported; a simulated device has one die, so the
 * choice changes nothing. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key,
                                                aclrtIpcMemAttrType type,
                                                uint64_t attr);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): whitelists processes of other
 * servers (Atlas A3 super-nodes); the simulator shares within one host. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(
    const char *key, aclrtServerPid *serverPids, size_t num);
/* Makes a notify an IPC notify and writes its key (a NUL-terminated string;
 * `len` at least 65) for aclrtNotifyImportByKey in another process of this
 * machine: the notify's flag moves to memory shared with the importers.
 * `flags`: ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (only pids whitelisted with
 * aclrtNotifySetImportPid may import) or
 * ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION. NULL notify or key →
 * ACL_ERROR_INVALID_PARAM; a stale notify, len < 65 or another flag →
 * ACL_ERROR_RT_PARAM_INVALID; a notify exported (or imported) already →
 * ACL_ERROR_RT_INTERNAL_ERROR. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify,
                                                     char *key, size_t len,
                                                     uint64_t flags);
/* Opens the IPC notify behind `key` (from aclrtNotifyGetExportKey, here or
 * in another process of this machine) as a notify of this process on the
 * current device: records and waits on either side act on the one shared
 * flag. `flags` 0..3 (ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS among
 * them) change nothing on the simulator. NULL → ACL_ERROR_INVALID_PARAM;
 * another flag, a malformed key, an exporter gone or a destroyed notify →
 * ACL_ERROR_RT_PARAM_INVALID; this process not whitelisted →
 * ACL_ERROR_RT_NO_PERMISSION. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify,
                                                    const char *key,
                                                    uint64_t flags);
/* Adds `num` pids (aclrtDeviceGetBareTgid, or getpid on the simulator) to
 * the whitelist of a notify this process exported with pid validation.
 * NULL → ACL_ERROR_INVALID_PARAM; a stale notify, one not exported by this
 * process, or num 0 → ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify,
                                                     int32_t *pid, size_t num);
/* Cross-server whitelists: not supported on the simulator, whose processes
 * share notifies within one machine; returns
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(
    aclrtNotify notify, aclrtServerPid *serverPids, size_t num);
/* Sets the access rights of devices to whole mappings covering
 * [virPtr, virPtr + size). The mapping device's right is enforced: a copy
 * that reads without read access or writes without write access fails
 * (107000), a kernel touching it takes a memory fault; other devices'
 * rights are recorded. Carried by the snapshot. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size,
                                               aclrtMemAccessDesc *desc,
                                               size_t count);
/* The access right of location to the mapping holding virPtr: for the
 * mapping device, what is enforced; for another, what was recorded
 * (ACL_RT_MEM_ACCESS_FLAGS_NONE when nothing was). */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr,
                                               aclrtMemLocation *location,
                                               uint64_t *flag);
/* The handle of an event created with ACL_EVENT_IPC, for
 * aclrtIpcOpenEventHandle in another process of this machine (or this
 * one): the event's record state lives in memory shared with the openers.
 * Repeated calls give the same handle; an opened event gives its origin's.
 * NULL → ACL_ERROR_INVALID_PARAM; a stale event or one without
 * ACL_EVENT_IPC → ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError
aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
/* Opens the IPC event behind `handle` as an event of this process on the
 * current device: stream waits, synchronisation and status queries see the
 * records of every process, and records made here are seen there. A
 * record of a process that died no longer holds waits (it cannot
 * complete). NULL event → ACL_ERROR_INVALID_PARAM; not a handle,
 * a destroyed event or a gone process → ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle,
                                                     aclrtEvent *event);
/* The handle of the physical allocation mapped at virPtr, with one more
 * reference (release it with aclrtFreePhysical). */
ACL_FUNC_VISIBILITY aclError
aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle);
/* The properties a physical allocation was made with. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(
    aclrtDrvMemHandle handle, aclrtPhysicalMemProp *prop);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): CANN offers it on Atlas A3 only;
 * the simulated Ascend910B1 is an Atlas A2 part. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr,
                                                              size_t size,
                                                              size_t alignment,
                                                              void *expectPtr,
                                                              uint64_t flags);
/* The start and size of the device allocation holding ptr, or of the mapping
 * holding a mapped address. 107000 for other pointers. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase,
                                                     size_t *psize);
/* Validates that [devPtr, devPtr + size) is memory of another device than
 * dstDevId with peer access enabled between them; the simulator's devices
 * address each other's memory directly, so there are no page tables to build.
 * flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size,
                                            int32_t dstDevId, uint64_t flags);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): link selection between the two
 * dies of an Atlas A3 part; a simulated device has one die. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst,
                                                     size_t size,
                                                     void *virPtrSrc,
                                                     uint32_t linkIdx);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): link selection between the two
 * dies of an Atlas A3 part; a simulated device has one die. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle,
                                                aclrtMemLinkType adviceLink);

/* ---------------------------------------------------------------------------
 * Kernel binaries, functions, arguments and launches
 * ------------------------------------------------------------------------- */

/* Sets (NULL: clears) the one deprecated exception callback, called with
 * the exception information of every failing task. */
ACL_DEPRECATED ACL_FUNC_VISIBILITY aclError
aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
/* Registers an exception callback (NULL: 100000); each distinct function
 * once. Called on the failing stream's executor thread before the failure is
 * reported to synchronize calls. */
ACL_FUNC_VISIBILITY aclError
aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
/* Removes a registered exception callback (NULL: 100000; unknown: no-op).
 */
ACL_FUNC_VISIBILITY aclError
aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);
/* The failed task's id (NULL info: 0xFFFFFFFF). */
ACL_FUNC_VISIBILITY uint32_t
aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
/* The failed task's stream id (NULL info: 0xFFFFFFFF). */
ACL_FUNC_VISIBILITY uint32_t
aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
/* The id of the thread that enqueued the failed task (NULL info:
 * 0xFFFFFFFF). */
ACL_FUNC_VISIBILITY uint32_t
aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
/* The failed task's device id (NULL info: 0xFFFFFFFF). */
ACL_FUNC_VISIBILITY uint32_t
aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
/* The failed task's error code (NULL info: 0xFFFFFFFF). */
ACL_FUNC_VISIBILITY uint32_t
aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);
/* A kernel task's arguments; NULL and 0 for other tasks. */
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(
    const aclrtExceptionInfo *info, void **devArgsPtr, uint32_t *devArgsLen);
/* A kernel task's function; NULL for other tasks. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(
    const aclrtExceptionInfo *info, aclrtFuncHandle *func);
/* Sets (NULL: clears) the callback told, with the exception information and
 * userData, when a kernel of the binary fails; the last one set wins. Called
 * on the failing stream's executor before the process-wide exception
 * callbacks. */
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(
    aclrtBinHandle binHandle, aclrtOpExceptionCallback callback,
    void *userData);
/* The device address of the device global whose host symbol (the binary's
 * initial image of it) is symbol; ACL_ERROR_RT_INVALID_SYMBOL (107043) for
 * any other pointer. */
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void *symbol,
                                                   void **devPtr);
/* The size of the device global whose host symbol is symbol. */
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void *symbol,
                                                size_t *size);
/* Copies count bytes at offset of a device global (by host symbol) to dst,
 * as aclrtMemcpy. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax,
                                                   const void *symbol,
                                                   size_t count, size_t offset,
                                                   aclrtMemcpyKind kind);
/* As aclrtMemcpyFromSymbol, in stream order. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(
    void *dst, size_t dstMax, const void *symbol, size_t count, size_t offset,
    aclrtMemcpyKind kind, aclrtStream stream);
/* Copies count bytes from src to offset of a device global (by host symbol),
 * as aclrtMemcpy. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void *symbol,
                                                 const void *src, size_t count,
                                                 size_t offset,
                                                 aclrtMemcpyKind kind);
/* As aclrtMemcpyToSymbol, in stream order. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(
    const void *symbol, const void *src, size_t count, size_t offset,
    aclrtMemcpyKind kind, aclrtStream stream);
/* Describes a binary held in the caller's memory (kept by reference: it
 * must stay valid until aclrtBinaryLoad); NULL for NULL data or 0 bytes. */
ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data,
                                                  size_t dataLen);
/* Frees an aclrtCreateBinary description (not the loaded binary). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);
/* Loads the described binary on the current device, as
 * aclrtBinaryLoadFromData. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary,
                                             aclrtBinHandle *binHandle);
/* Unloads a binary: its functions and argument lists become invalid and its
 * device image and globals are freed; launches already queued still run. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
/* The kernel named kernelName of the binary (the same handle each time);
 * ACL_ERROR_RT_KERNEL_LOOKUP (507027) when there is none. */
ACL_FUNC_VISIBILITY aclError
aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                       aclrtFuncHandle *funcHandle);
/* Launches numBlocks blocks of the kernel in stream order; argsData is device
 * memory of the stream's device holding the arguments, read when the kernel
 * runs. The blocks run in parallel on the device's simulated cores (limited
 * by aclrtSetDeviceResLimit / aclrtSetStreamResLimit); the next task starts
 * when all have finished. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle,
                                               uint32_t numBlocks,
                                               const void *argsData,
                                               size_t argsSize,
                                               aclrtStream stream);
/* Discards the stream's pending tasks, makes a running wait give up and a
 * running kernel run no further blocks, and waits for the running task to
 * end; the stream stays usable. A stream bound to a model with
 * aclmdlRIBindStream: ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);
/* Loads a simulated kernel binary (a host shared object following
 * aclsim/aclsim_kernel.h) from a file onto the current device: its image is
 * copied to device memory and its device globals placed there. Every load
 * is its own instance. */
ACL_FUNC_VISIBILITY aclError
aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                        aclrtBinHandle *binHandle);
/* The device address and size of the binary's image. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(
    const aclrtBinHandle binHandle, void **binAddr, size_t *binSize);
/* The function whose entry address (aclrtGetFunctionAddr) is funcEntry. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(
    aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle *funcHandle);
/* The device address and size of the binary's device global name;
 * ACL_ERROR_RT_SYMBOL_NOT_FOUND (107042) when it has none of that name. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle,
                                                  const char *name, void **dptr,
                                                  size_t *size);
/* The function of a kernel compiled into the program (registered with
 * aclsimRegisterKernel under symbol), or of a loaded binary by its entry. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void *symbol,
                                                  aclrtFuncHandle *funcHandle);
/* The host code the simulated cores run for the function (both kinds of
 * core run the same entry). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle,
                                                  void **aicAddr,
                                                  void **aivAddr);
/* The size of the function's entry symbol (0 when the loader cannot tell). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle,
                                                  size_t *aicSize,
                                                  size_t *aivSize);
/* The bytes of host memory an argument-list handle needs
 * (aclrtKernelArgsInitByUserMem). */
ACL_FUNC_VISIBILITY aclError
aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize);
/* The argument memory a list of userArgsSize parameter bytes needs: the
 * size rounded up to 8 (the simulator adds nothing of its own). */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(
    aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize);
/* Starts an argument list for the function in runtime-managed memory; it
 * lives as long as the function's binary. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle,
                                                 aclrtArgsHandle *argsHandle);
/* Starts an argument list in the caller's memory: argsHandle is
 * aclrtKernelArgsGetHandleMemSize bytes, userHostMem actualArgsSize bytes
 * for the parameters and place-holder data. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(
    aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void *userHostMem,
    size_t actualArgsSize);
/* Appends a parameter (copied), at its natural alignment; at most 128. */
ACL_FUNC_VISIBILITY aclError
aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                      aclrtParamHandle *paramHandle);
/* Appends a pointer parameter whose data (aclrtKernelArgsGetPlaceHolderBuffer)
 * the launch copies along and points it at. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(
    aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle);
/* The host buffer of dataSize bytes of a place-holder; the caller fills it
 * before the launch. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
    void **bufferAddr);
/* Replaces an appended parameter's value (same size); finalize again before
 * launching. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(
    aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
    size_t paramSize);
/* Launches the kernel with a finalized argument list (copied at the call)
 * and launch attributes (cfg may be NULL); reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve);
/* Ends an argument list (every place-holder needs its buffer; a described
 * kernel needs all its parameters). */
ACL_FUNC_VISIBILITY aclError
aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
/* Copies the function's name, NUL-terminated, into name (maxLen bytes). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle,
                                                  uint32_t maxLen, char *name);
/* As aclrtBinaryLoadFromFile, from memory; no file is written. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(
    const void *data, size_t length, const aclrtBinaryLoadOptions *options,
    aclrtBinHandle *binHandle);
/* Registers the binary's function funcName as the AI CPU kernel
 * kernelName (it runs on the simulated cores like any kernel). */
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle,
                                                  const char *funcName,
                                                  const char *kernelName,
                                                  aclrtFuncHandle *funcHandle);
/* As aclrtLaunchKernel, with launch attributes (cfg may be NULL):
 * block-index offset, engine (AI Core or vector cores), timeout; scheduling,
 * dump, prefetch and profiling hints are accepted and change nothing. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
    size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream);
/* Launches with arguments in host memory (copied at the call); each
 * place-holder's pointer at addrOffset is pointed at the copy of the data
 * at dataOffset. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(
    aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
    aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum);
/* Launches with one pointer per parameter; needs the function's parameter
 * description. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(
    void *func, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg *cfg, void **args);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): SIMT kernels exist on Ascend
 * 950 parts; the simulated Ascend910B has none. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(
    void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): SIMT kernels exist on Ascend
 * 950 parts; the simulated Ascend910B has none. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(
    void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs,
    size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
    size_t placeHolderNum);
/* Asks the stream's running task to stop (a kernel runs no further blocks);
 * later tasks run as usual. Not the default stream (100000), nor a stream
 * bound to a model with aclmdlRIBindStream (107000). */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
/* ACL_FUNC_ATTR_KERNEL_TYPE (AI Core, or AI CPU for aclrtRegisterCpuFunc),
 * KERNEL_RATIO (0: not a mixed kernel), KERNEL_SCHED_MODE (0: normal). */
ACL_FUNC_VISIBILITY aclError
aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle,
                          aclrtFuncAttribute attrType, int64_t *attrValue);
/* The binary the function belongs to. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(
    const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle);
/* The parameter count of a kernel that describes its parameters
 * (aclsimKernelInfo); 107000 for one that does not. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void *func,
                                                        size_t *paramCount);
/* The offset and size of parameter paramIndex in the argument bytes. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void *func,
                                                       size_t paramIndex,
                                                       size_t *paramOffset,
                                                       size_t *paramSize);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): dynamic unified buffers belong
 * to SIMT kernels (Ascend 950). */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(
    void *func, uint32_t flags, size_t *dynamicUbufSize);

/* ---------------------------------------------------------------------------
 * Model run instances, capture, labels and conditional streams
 * ------------------------------------------------------------------------- */

/* The type, task group, attached op information and operands of a model task
 * (kernel, event record/wait/reset, value write/wait). 107000 for NULL or a
 * task of no live model. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task,
                                                   aclmdlRITaskParams *params);
/* Stages new operands for a model task of the same type; they take effect
 * with aclmdlRIUpdate. 107000 for NULL, a type mismatch or bad operands;
 * 207000 for a task whose operands cannot be set. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task,
                                                   aclmdlRITaskParams *params);
/* A recorded kernel launch's attribute (scheduling mode, timeout). 107000
 * for another task type or an attribute that cannot be queried. */
ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(
    aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
    aclrtLaunchKernelAttrValue *attrValue);
/* Applies the staged aclmdlRITaskSetParams / aclmdlRITaskDisable changes of a
 * captured model. 207000 for a built model. */
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);
/* Stages skipping a model task (effective with aclmdlRIUpdate). */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);
/* A label of the current device, set with aclrtSetLabel. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);
/* Marks the current position of a stream bound to a model as the label's
 * target. 107005 when the stream is bound to no model. */
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label,
                                           aclrtStream stream);
/* Destroys a label (label lists keep what they need). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);
/* A list of 1..65535 labels for aclrtSwitchLabelByIndex. */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels,
                                                  size_t num,
                                                  aclrtLabelList *labelList);
/* Destroys a label list. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);
/* A model task: when it runs, reads a uint32 index from device memory at
 * ptr and jumps to that label of the list (an index past maxValue - 1 takes
 * the last label). */
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr,
                                                     uint32_t maxValue,
                                                     aclrtLabelList labelList,
                                                     aclrtStream stream);
/* A model task: starts activeStream, a stream of the same model, alongside. */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream,
                                               aclrtStream stream);
/* A model task: compares two device values (int32 or int64) when it runs;
 * when the condition holds execution moves to trueStream and this stream
 * stops. falseStream is reserved (NULL). */
ACL_FUNC_VISIBILITY aclError
aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                  aclrtCompareDataType dataType, aclrtStream trueStream,
                  aclrtStream falseStream, aclrtStream stream);
/* Starts capturing the stream's tasks into a model instead of running them.
 * 107027 when it is captured already; 107000 for an unknown mode. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream,
                                                  aclmdlRICaptureMode mode);
/* The stream's capture status and, while capturing, the model. Costs one
 * load when nothing is captured anywhere. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(
    aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI);
/* Ends the capture begun on the stream and returns the model. 107029 when
 * not capturing, 107036 on a joined stream, 107038 from another thread
 * (unless RELAXED), 107025 when a joined stream was not joined back, 107033
 * with a task group open, 507903 after invalidation. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream,
                                                aclmdlRI *modelRI);
/* Logs the recorded graph (DOT) at INFO level. */
ACL_DEPRECATED ACL_FUNC_VISIBILITY aclError
aclmdlRIDebugPrint(aclmdlRI modelRI);
/* Writes the recorded graph as chrome://tracing JSON to path. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI,
                                                    const char *path,
                                                    uint32_t flags);
/* Swaps the calling thread's capture interaction mode with *mode. */
ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/* Queues one execution of the model on the stream. 107027 on a stream
 * being captured; 507011 for a model not complete. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI,
                                                  aclrtStream stream);
/* Runs a built model and waits: timeout in ms, -1 forever; 507046 on
 * timeout (the model is aborted). */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
/* Destroys a model; its destroy callbacks run. Executions queued keep it
 * until they ran. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
/* Opens a task group on a capturing stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
/* Closes the stream's task group and returns it. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream,
                                                       aclrtTaskGrp *handle);
/* Tasks issued to the (ordinary) stream until UpdateEnd replace the
 * group's tasks one by one, in the stream's order. */
ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
/* Ends the update: 507000 when the count differs, 107040 for a type
 * mismatch. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);
/* An empty model for the build API (flag 0). */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI,
                                                uint32_t flag);
/* The flag of aclmdlRIBindStream: a stream that runs from the start of each
 * execution, or one that runs when activated (aclrtActiveStream). */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

/* Binds an ACL_STREAM_PERSISTENT stream: its tasks are recorded into the
 * model. flag ACL_MODEL_STREAM_FLAG_HEAD (0) starts with each execution,
 * ACL_MODEL_STREAM_FLAG_DEFAULT (0x7FFFFFFF) when activated. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI,
                                                aclrtStream stream,
                                                uint32_t flag);
/* Ends the stream's program in the model. */
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI,
                                             aclrtStream stream);
/* Completes the model (reserve NULL); bound streams record no more. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
/* Unbinds a stream; its recorded program stays with the model. */
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI,
                                                  aclrtStream stream);
/* Names the model (up to 511 bytes kept). */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI,
                                             const char *name);
/* The model's name, truncated to maxLen - 1 bytes. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen,
                                             char *name);
/* The model's id. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI,
                                           uint32_t *modelRIId);
/* func(userData) runs when the model is destroyed. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI,
                                                             aclrtCallback func,
                                                             void *userData);
/* Removes a destroy callback by function. */
ACL_FUNC_VISIBILITY aclError
aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);
/* The model's streams (NULL array: the count). 107039 when the array is
 * too small. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI,
                                                aclrtStream *streams,
                                                uint32_t *numStreams);
/* The tasks of a model stream, in order. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream,
                                                      aclmdlRITask *tasks,
                                                      uint32_t *numTasks);
/* The task's aclmdlRITaskType. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task,
                                                 aclmdlRITaskType *type);
/* The task's position in the model's recording order. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task,
                                                  uint32_t *id);
/* Stops the model's running execution (it fails with 507023). */
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);
/* A condition value (8 bytes of device memory) of a captured model; with
 * ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT reset at every execution. */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(
    aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
    aclmdlRICondHandle *handle);
/* The condition value's device address. */
ACL_FUNC_VISIBILITY aclError
aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr);
/* A task on a capturing stream running branch models by the condition
 * value (IF, WHILE, SWITCH); the branches are returned in modelRIArray and
 * captured with aclmdlRICaptureToModelRIBegin. */
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params,
                                                 aclrtStream stream,
                                                 uint32_t flags);
/* Captures the stream into a branch model of aclmdlRIAddCondTask. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(
    aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode);

#endif /* ASCENDCL_ACL_RT_VMM_KERNEL_MODEL_API_H_ */
