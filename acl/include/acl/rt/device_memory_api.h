/*
 * Part of acl/acl_rt.h (include that header, not this one), declared inside
 * its extern "C" block: system parameters, versions, device attributes and
 * topology, memory variants and host registration, copies, fills, cache
 * maintenance and reductions.
 */
#ifndef ASCENDCL_ACL_RT_DEVICE_MEMORY_API_H_
#define ASCENDCL_ACL_RT_DEVICE_MEMORY_API_H_

#ifndef ASCENDCL_ACL_ACL_RT_H_
#error "include acl/acl_rt.h, not acl/rt/device_memory_api.h"
#endif

/* ---------------------------------------------------------------------------
 * System parameters, versions and device-id translation
 * ------------------------------------------------------------------------- */

/* Deprecated (use aclsysGetVersionStr / aclsysGetVersionNum). Fills *version
 * from the package's version.info under $ASCEND_HOME_PATH/share/info (the
 * text and its two to four dot-separated parts, missing ones "0").
 * ACL_ERROR_INVALID_PARAM (100000): version NULL or name not an
 * aclCANNPackageName; ACL_ERROR_INVALID_FILE (100003): no such file or
 * version (always for the driver: none is installed). */
ACL_DEPRECATED ACL_FUNC_VISIBILITY aclError
aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);
/* Writes the current context's value of opt (ACL_OPT_DETERMINISTIC,
 * _ENABLE_DEBUG_KERNEL, _STRONG_CONSISTENCY). ACL_ERROR_INVALID_PARAM
 * (100000): value NULL or another opt; ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
 * (107021): the context never set it. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt,
                                                    int64_t *value);
/* Sets the current context's value of opt (options as
 * aclrtCtxGetSysParamOpt; ACL_OPT_DETERMINISTIC takes 0-3, the others 0-1).
 * ACL_ERROR_INVALID_PARAM (100000): another opt; ACL_ERROR_RT_PARAM_INVALID
 * (107000): value out of range. */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt,
                                                    int64_t value);
/* Writes the process's value of opt (0 until set). ACL_ERROR_INVALID_PARAM
 * (100000): value NULL or opt not an aclSysParamOpt. */
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt,
                                                 int64_t *value);
/* Sets the process's value of opt (ACL_OPT_DETERMINISTIC takes 0-3, the
 * others 0-1; stored for kernels). ACL_ERROR_INVALID_PARAM (100000): opt not
 * an aclSysParamOpt; ACL_ERROR_RT_PARAM_INVALID (107000): value out of range.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt,
                                                 int64_t value);
/* Selects the task scheduler (stored only: the simulator has one).
 * ACL_ERROR_INVALID_PARAM (100000): not ACL_TS_ID_AICORE or _AIVECTOR. */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);
/* Writes ACL_MAJOR_VERSION, ACL_MINOR_VERSION and ACL_PATCH_VERSION of
 * this runtime. Errors: 100000 when any pointer is NULL. */
ACL_DEPRECATED ACL_FUNC_VISIBILITY aclError aclrtGetVersion(
    int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);
/* *checkResult = 1 when every address of addrList is device memory and
 * ACL_RT_MEM_TYPE_DEV is in memType, else 0. Errors: 100000 for NULL;
 * 107000 for size 0, reserve != 0 or memType bits outside DEV|DVPP|RSVD. */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size,
                                               uint32_t memType,
                                               uint32_t *checkResult,
                                               uint32_t reserve);
/* Device-id translation. This runtime has no device remapping (no
 * ASCEND_RT_VISIBLE_DEVICES, no containers): user, logical and physical ids
 * are the same, so each of the six writes its input id to the output.
 * Errors: ACL_ERROR_INVALID_PARAM (100000) for a NULL output;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) for an id that is not in
 * [0, aclrtGetDeviceCount), output untouched. */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(
    const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(
    const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError
aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);

/* ---------------------------------------------------------------------------
 * Device attributes, limits, resources and topology
 * ------------------------------------------------------------------------- */

/* Writes the device's utilisation: cube, vector and AI CPU 0 (no simulated
 * work occupies a core), memory -1 (never reported). ACL_ERROR_INVALID_PARAM
 * (100000): utilizationInfo NULL or its utilizationExtend not NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001): no such device. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(
    int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);
/* Sets the process's floating-point overflow mode (saturation or Inf/NaN;
 * stored for kernels). ACL_ERROR_RT_PARAM_INVALID (107000): any other mode. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
/* Writes the process's overflow mode (saturation until set).
 * ACL_ERROR_INVALID_PARAM (100000): mode NULL. */
ACL_FUNC_VISIBILITY aclError
aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);
/* Aborts every task of an open device: pending tasks are discarded and a
 * running wait gives up; the task-abort callbacks run before (PRE) and after
 * (POST). timeout: ms, 0 = no limit, at most 36 minutes (else 100000).
 * 107001 when the device is not set, 107020 on timeout, a callback's
 * non-zero return as is. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId,
                                                  uint32_t timeout);
/* Writes attribute attr of device deviceId to *value (core counts, unified
 * buffer, memory and L2 sizes, chip id, architecture; DESIGN.md §5.12).
 * ACL_ERROR_INVALID_PARAM (100000): value NULL; ACL_ERROR_RT_INVALID_DEVICEID
 * (107001): no such device; ACL_ERROR_RT_PARAM_INVALID (107000): attr is not
 * an aclrtDevAttr; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): SIMT,
 * super-pod, connection and form-factor attributes. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId,
                                                aclrtDevAttr attr,
                                                int64_t *value);
/* Writes the device's UUID: "aclsim", a version-8 marker and the device id,
 * stable and distinct per device. ACL_ERROR_INVALID_PARAM (100000): uuid
 * NULL; ACL_ERROR_RT_INVALID_DEVICEID (107001): no such device. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId,
                                                aclrtUuid *uuid);
/* Sets a process-wide device limit: the SIMD stack size (values above the
 * 32 KiB default round up to 16 KiB; smaller ones are ignored) or the SIMD
 * printf FIFO per core ([1 KiB, 64 MiB], rounded up to 8).
 * ACL_ERROR_INVALID_PARAM (100000): limit not an aclrtDeviceLimit or value
 * above UINT32_MAX; ACL_ERROR_RT_PARAM_INVALID (107000): FIFO size out of
 * range; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): the SIMT limits. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit,
                                                 size_t value);
/* Writes a process-wide device limit (32 KiB each until set). Codes as
 * aclrtDeviceSetLimit; value NULL: ACL_ERROR_INVALID_PARAM (100000). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit,
                                                 size_t *value);
/* Writes the device's PCI bus id, "domain:bus:device.function" (12
 * characters and a NUL). Simulated devices are reported as PCIe cards of the
 * host: device d is 0000:BB:DD.0 with BB = 1 + d % 255 and DD = d / 255 in
 * hex (device 0: 0000:01:00.0). Errors: 100000 (NULL, or len below 13),
 * 107001 (no such device). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId,
                                                    char *pciBusId,
                                                    int32_t len);
/* The device at a PCI bus id (see aclrtDeviceGetPCIBusId; hex digits in
 * either case). Errors: 100000 (NULL, or not of the form
 * domain:bus:device.function), 107001 (no device at that id). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId,
                                                      int32_t *deviceId);
/* Writes, for each of count operations, the bit mask of
 * aclrtAtomicOperationCapability the device and the host support (integer
 * and float scalars; no DMA or SIMD atomics; DESIGN.md §5.12). Writes nothing
 * on failure. ACL_ERROR_RT_PARAM_INVALID (107000): an array NULL, count 0 or
 * an operation not an aclrtAtomicOperation; ACL_ERROR_RT_INVALID_DEVICEID
 * (107001): no such device. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(
    uint32_t *capabilities, const aclrtAtomicOperation *operations,
    const uint32_t count, int32_t deviceId);
/* As aclrtDeviceGetHostAtomicCapabilities, between two distinct
 * devices (the same device twice: ACL_ERROR_RT_PARAM_INVALID, 107000). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(
    uint32_t *capabilities, const aclrtAtomicOperation *operations,
    const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId);
/* Writes 1 to *active while device deviceId is set (its primary context
 * exists), else 0. ACL_ERROR_INVALID_PARAM (100000): active NULL or flags not
 * NULL (reserved); ACL_ERROR_RT_INVALID_DEVICEID (107001): no such device. */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId,
                                                     uint32_t *flags,
                                                     int32_t *active);
/* Writes the cores of kind type device deviceId may use: its limit, else
 * the hardware's. ACL_ERROR_RT_PARAM_INVALID (107000): type not an
 * aclrtDevResLimitType; ACL_ERROR_INVALID_PARAM (100000): value NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001): no such device;
 * ACL_ERROR_RT_DEV_SETUP_ERROR (507033): the device is not set. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId,
                                                    aclrtDevResLimitType type,
                                                    uint32_t *value);
/* Limits the cores of kind type of device deviceId (kept until
 * aclrtResetDeviceResLimit or the device's reset). Codes as
 * aclrtGetDeviceResLimit; a value above the hardware's count:
 * ACL_ERROR_RT_PARAM_INVALID (107000). */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId,
                                                    aclrtDevResLimitType type,
                                                    uint32_t value);
/* Drops device deviceId's core limits. ACL_ERROR_RT_INVALID_DEVICEID
 * (107001): no such device; ACL_ERROR_RT_DEV_SETUP_ERROR (507033): not set. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);
/* Writes the cores of kind type stream (NULL: the default stream) may use:
 * its limit, else its device's. ACL_ERROR_RT_PARAM_INVALID (107000): type
 * not an aclrtDevResLimitType or stream not live; ACL_ERROR_INVALID_PARAM
 * (100000): value NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream,
                                                    aclrtDevResLimitType type,
                                                    uint32_t *value);
/* Limits the cores of kind type for stream (NULL: the default stream); the
 * limit may exceed the device's, not the hardware's (else
 * ACL_ERROR_RT_PARAM_INVALID, 107000). It applies to threads that call
 * aclrtUseStreamResInCurrentThread. Codes as aclrtGetStreamResLimit. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream,
                                                    aclrtDevResLimitType type,
                                                    uint32_t value);
/* Drops stream's core limits (NULL: the default stream).
 * ACL_ERROR_RT_PARAM_INVALID (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);
/* The calling thread uses stream's core limits (NULL: the default
 * stream) until it unuses it; the last call wins.
 * ACL_ERROR_RT_PARAM_INVALID (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError
aclrtUseStreamResInCurrentThread(aclrtStream stream);
/* Ends the calling thread's use of stream's limits if stream is the one
 * it uses (another stream: nothing changes, success).
 * ACL_ERROR_RT_PARAM_INVALID (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError
aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
/* Writes the cores of kind type the calling thread may use on its current
 * device: its stream's limit, else the device's, else the hardware's.
 * ACL_ERROR_RT_PARAM_INVALID (107000): type not an aclrtDevResLimitType;
 * ACL_ERROR_INVALID_PARAM (100000): value NULL; no current device: the
 * code aclrtGetDevice returns. */
ACL_FUNC_VISIBILITY aclError
aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);
/* Writes how two distinct devices connect: ACL_RT_DEVS_TOPOLOGY_HCCS for
 * every simulated pair. ACL_ERROR_INVALID_PARAM (100000): value NULL;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001): no such device;
 * ACL_ERROR_RT_PARAM_INVALID (107000): the same device twice. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId,
                                                 uint32_t otherDeviceId,
                                                 uint64_t *value);
/* Registers (callback non-NULL) or removes (NULL) a device-state callback
 * under a unique non-empty regName (100000 otherwise; 107000 when taken). It
 * is called before and after a device opens (aclrtSetDevice) and closes
 * (aclrtResetDevice), on the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(
    const char *regName, aclrtDeviceStateCallback callback, void *args);
/* Registers (callback non-NULL) or removes (NULL) a callback that
 * aclrtDeviceTaskAbort calls before and after aborting, under a unique
 * non-empty regName (100000 otherwise; 107000 when taken). */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(
    const char *regName, aclrtDeviceTaskAbortCallback callback, void *args);
/* Writes 1 when peer access between deviceId and peerDeviceId is enabled
 * (either direction), else 0. ACL_ERROR_INVALID_PARAM (100000): status NULL;
 * ACL_ERROR_RT_PARAM_INVALID (107000): a device id out of range. */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId,
                                                         int32_t peerDeviceId,
                                                         int32_t *status);
/* Flushes the current device's L2: nothing to do on the coherent simulator.
 * ACL_ERROR_INVALID_PARAM (100000): rsv not NULL; no current device: the
 * code aclrtGetDevice returns. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv);

/* ---------------------------------------------------------------------------
 * Memory: allocation variants, host registration, attributes and managed memory
 * ------------------------------------------------------------------------- */

/* aclrtMalloc of size rounded up to a multiple of 32 bytes (no extra bytes
 * beyond that). Errors as aclrtMalloc. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size,
                                                aclrtMemMallocPolicy policy);
/* The same as aclrtMalloc: simulated device memory is ordinary host memory,
 * so it is always cache-coherent. Errors as aclrtMalloc. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size,
                                               aclrtMemMallocPolicy policy);
/* aclrtMalloc with a configuration (cfg may be NULL): ACL_RT_MEM_ATTR_MODULE_ID
 * charges the memory to that module (aclrtGetMemUsageInfo), DEVICE_ID must be
 * the current device, VA_FLAG must be 0 or 1, RSV entries are ignored. Any
 * policy integer is accepted (outside the enum the page size follows the
 * size). The pointer is freed with aclrtFree. Errors: 100000 for a NULL
 * devPtr, size 0 or NULL cfg->attrs with numAttrs > 0; 107000 for another
 * device, a bad VA flag or an unknown attribute type; then aclrtMalloc's. */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size,
                                                aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);
/* Device memory for the task scheduler: on the simulator an allocation like
 * aclrtMallocWithCfg's (same arguments and errors), recorded as task
 * scheduler memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(
    void **devPtr, size_t size, aclrtMemMallocPolicy policy,
    aclrtMallocConfig *cfg);
/* aclrtMallocHost with a configuration (cfg may be NULL, validated as for
 * aclrtMallocWithCfg). Freed with aclrtFreeHost. Errors: 100000 for NULL ptr
 * or size 0; 107000 for a bad configuration; 207001 out of memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size,
                                                    aclrtMallocConfig *cfg);
/* Where ptr lives: DEVICE (with its device id), MANAGED, HOST (pinned or
 * registered host memory) or UNREGISTERED, and the page size. Not gated; an
 * O(log n) lookup. Errors: 100000 for NULL arguments; 107000 for a pointer in
 * a device's address space but in no live allocation. */
ACL_FUNC_VISIBILITY aclError
aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);
/* Reads one advice or prefetch attribute of [ptr, ptr + size), which must lie
 * in one aclrtMemAllocManaged allocation: int32 values (dataSize 4; a
 * non-zero multiple of 4 for ACCESSED_BY), -1 for the host, -2 for none or
 * mixed. Errors: 100000 for NULL, size 0 or an unknown attribute; 107000 for
 * a range outside managed memory or a wrong dataSize. */
ACL_FUNC_VISIBILITY aclError
aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
                       size_t size, void *data, size_t dataSize);
/* aclrtMemManagedGetAttr for numAttributes attributes at once (data[i] of
 * dataSizes[i] bytes). Errors as aclrtMemManagedGetAttr; 100000 also for
 * numAttributes 0 or a NULL data[i]. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(
    aclrtMemManagedRangeAttribute *attributes, size_t numAttributes,
    const void *ptr, size_t size, void **data, size_t *dataSizes);
/* Registers [ptr, ptr + size) of host memory for device access and returns
 * its device address (*devPtr == ptr on the simulator). Errors: 100000 for
 * NULL arguments or size 0; 207000 for IOMEMORY, READONLY or unknown type
 * bits; 107000 for device memory; 507910 for a range overlapping a
 * registered one. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size,
                                               aclrtHostRegisterType type,
                                               void **devPtr);
/* Registers a host range with ACL_HOST_REG_* flags (MAPPED, PINNED; IOMEMORY
 * and READONLY are 207000). Errors: 100000 for NULL ptr or size 0; 107000
 * for an empty or unknown flag set, PINNED on aclrtMallocHost memory or
 * device memory; 507910 for an overlap. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size,
                                                 uint32_t flag);
/* The device address of a pointer inside a registered host range (the same
 * address on the simulator). Errors: 100000 for NULL arguments or flag != 0;
 * 507911 when pHost is not registered. */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost,
                                                       void **pDevice,
                                                       uint32_t flag);
/* Ends the registration starting at ptr. Errors: 100000 for NULL; 507911
 * when no registration starts there. */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);
/* Whether accelerator hacType of a device can access registered host memory:
 * always ACL_RT_HOST_MEM_MAP_SUPPORTED on the simulator. Errors: 100000 for
 * NULL or an unknown hacType; 107001 for a device id out of range. */
ACL_FUNC_VISIBILITY aclError
aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                            aclrtHostMemMapCapability *capabilities);
/* Writes a device range's cached data back and invalidates it. The
 * simulator's memory is coherent, so this only checks its arguments (CANN
 * needs no call on current parts either). Not blocked by a snapshot lock.
 * Errors: 100000 (NULL devPtr, size 0), 107000 (the range runs past its
 * device allocation, or devPtr is a freed device pointer). */
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
/* Invalidates a device range's cached data. A checked no-op on the
 * coherent simulator, like aclrtMemFlush, with the same codes. */
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);
/* Memory addressable from host and device (flag ACL_RT_MEM_ATTACH_GLOBAL),
 * size rounded up to 2 MiB; freed with aclrtFree. Its contents and address
 * survive a snapshot. Errors: 100000 for NULL ptr, size 0 or another flag;
 * then aclrtMalloc's. */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size,
                                                  uint32_t flag);
/* Waits for all work on the current device (as aclrtSynchronizeDevice),
 * then frees devPtr (as aclrtFree). Errors: 100000 for NULL; the code of the
 * synchronisation (107002 without a current device, or a task failure),
 * with nothing freed; then aclrtFree's codes. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);
/* Waits for all work on the current device, then frees hostPtr (as
 * aclrtFreeHost). Errors as aclrtFreeWithDevSync, then aclrtFreeHost's. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);
/* Records advice for the 2 MiB pages of [ptr, ptr + size) of managed memory
 * (size a multiple of 2 MiB), read back with aclrtMemManagedGetAttr(s).
 * Errors: 100000 for NULL, size 0 or an unknown advise; 107000 for a range
 * outside managed memory, a bad size or a bad location. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(
    const void *const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
    aclrtMemManagedLocation location);
/* Per-module device memory usage (name, current and peak bytes), largest
 * current first, at most inputNum entries; *outputNum is how many. Errors:
 * 100000 for NULL; 107000 for inputNum 0; 107001 for a bad device id. */
ACL_FUNC_VISIBILITY aclError
aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo,
                     size_t inputNum, size_t *outputNum);
/* The ranges of an open device hit by an uncorrectable memory error (at most
 * arraySize; *retSize is how many). Errors: 100000 for NULL; 107001 for a
 * device out of range or not set; 207000 where the backend cannot tell. */
ACL_FUNC_VISIBILITY aclError
aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray,
                   size_t arraySize, size_t *retSize);
/* Repairs the listed memory-error ranges: they read again, as zero. Every
 * entry must overlap a current error (else 107000 and nothing repaired).
 * Errors also: 100000 for NULL or arraySize 0; aclrtGetMemUceInfo's. */
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId,
                                               aclrtMemUceInfo *memUceInfoArray,
                                               size_t arraySize);
/* Frees an mbuf and the mbufs appended to its chain; the data region lives
 * while a reference copy does. 100000 for NULL, 107000 for a stale mbuf. */
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);
/* Orders a prefetch of managed [ptr, ptr + size) (size a multiple of 2 MiB)
 * to location on stream, recorded as the last prefetch location (the move
 * itself is a no-op on the simulator). Errors: 100000 for NULL, size 0 or
 * flags != 0; 107000 for a range outside managed memory or a bad location;
 * the stream's codes. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(
    const void *ptr, size_t size, aclrtMemManagedLocation location,
    uint32_t flags, aclrtStream stream);
/* Several prefetches: range i goes to the location k whose index range
 * [prefetchLocIdxs[k], prefetchLocIdxs[k + 1]) holds i. Errors as
 * aclrtMemManagedPrefetchAsync; 100000 also for NULL arrays, zero counts or
 * count < numPrefetchLocs; 107000 for indexes not starting at 0 or not
 * increasing. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(
    const void **ptrs, size_t *sizes, size_t count,
    aclrtMemManagedLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, uint64_t flags, aclrtStream stream);

/* ---------------------------------------------------------------------------
 * Copies, fills, cache maintenance and reductions
 * ------------------------------------------------------------------------- */

/* Fills N 32-bit elements at ptr with value, at once (waits for nothing
 * queued on streams). ptr must be 4-byte aligned memory from aclrtMalloc or
 * aclrtMallocHost. N 0 succeeds at once. Errors: 100000 (NULL or misaligned
 * ptr, N * 4 > memSize, host memory not from aclrtMallocHost), 107000 (the
 * range runs past its device allocation, or ptr is a freed device
 * pointer). */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize,
                                            uint32_t value, size_t N);
/* aclrtMemsetD32 as a task on stream (NULL: the default stream), with
 * the same codes checked when called; a fill of host memory is done at once,
 * as CANN does. 107000 for a stream that is not live. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize,
                                                 uint32_t value, size_t N,
                                                 aclrtStream stream);
/* Deprecated form of aclrtMemcpyAsync. The condition is
 * page-locking: when host memory is involved that did not come from
 * aclrtMallocHost, the call waits for the stream's queued work and copies
 * before returning; otherwise the copy is queued. Codes as aclrtMemcpyAsync
 * (100000 also for a NULL dst or src). */
ACL_DEPRECATED ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(
    void *dst, size_t destMax, const void *src, size_t count,
    aclrtMemcpyKind kind, aclrtStream stream);
/* Copies height rows of width bytes, row i from src + i * spitch to
 * dst + i * dpitch, host to device or device to host, at once. width or
 * height 0 succeeds at once. Errors: 100000 (NULL pointer, width > dpitch or
 * width > spitch, kind not HOST_TO_DEVICE / DEVICE_TO_HOST /
 * DEVICE_TO_DEVICE / DEFAULT), 107000 (width > 5000000, height > 5242880,
 * kind does not match the pointers, a pitched region runs past its
 * allocation, the pointers make it host to host or device to device),
 * 207000 (kind DEVICE_TO_DEVICE: only the asynchronous form copies within
 * devices). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch,
                                           const void *src, size_t spitch,
                                           size_t width, size_t height,
                                           aclrtMemcpyKind kind);
/* aclrtMemcpy2d as one task on stream (NULL: the default stream);
 * device to device is allowed too. Same codes, checked when called; 107000
 * for a stream that is not live. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch,
                                                const void *src, size_t spitch,
                                                size_t width, size_t height,
                                                aclrtMemcpyKind kind,
                                                aclrtStream stream);
/* Queues a cache operation (prefetch, write-back, invalidate, flush) on
 * a range of the stream's device memory. The simulator's memory is coherent:
 * the task checks nothing more and changes no bytes. Errors: 100000 (NULL
 * src, size 0), 107000 (the range is not device memory of the stream's
 * device, or the stream is not live), 207000 (unknown cmoType). */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size,
                                           aclrtCmoType cmoType,
                                           aclrtStream stream);
/* Size of a memory copy descriptor (32 bytes). Errors: 100000 (NULL
 * descSize, unknown kind), 207000 (kind other than
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE). */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind,
                                                    size_t *descSize);
/* Writes srcAddr, dstAddr and count into the descriptor at desc (device
 * memory of at least aclrtGetMemcpyDescSize bytes). Errors: 100000 (NULL
 * desc, srcAddr or dstAddr, count 0, config not NULL, unknown kind), 107000
 * (desc is not such device memory), 207000 (kind other than
 * ACL_MEMCPY_INNER_DEVICE_TO_DEVICE). */
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc,
                                                aclrtMemcpyKind kind,
                                                void *srcAddr, void *dstAddr,
                                                size_t count, void *config);
/* Queues a copy within one device whose base addresses are read
 * from device memory when the task runs: count bytes from *src +
 * srcDataOffset to *dst + dstDataOffset, where dst and src point to device
 * memory holding the bases. count 0 succeeds at once. Errors when called:
 * 107000 (kind other than ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL dst or
 * src, count > destMax, dst or src not device memory, stream not live); the
 * copy's own checks (107000) fail the task, reported by the next
 * synchronize. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                           const void **src, size_t count, size_t srcDataOffset,
                           aclrtMemcpyKind kind, aclrtStream stream);
/* Queues the copy a descriptor (aclrtSetMemcpyDesc) describes; the
 * task reads the descriptor when it runs, so rewriting it before then
 * changes the copy. Errors when called: 100000 (NULL desc or stream, unknown
 * kind), 107000 (desc is not device memory of the descriptor's size, stream
 * not live), 207000 (kind other than ACL_MEMCPY_INNER_DEVICE_TO_DEVICE); a
 * descriptor never set, or a copy that fails its checks, fails the task
 * (107000 at the next synchronize). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc,
                                                      aclrtMemcpyKind kind,
                                                      aclrtStream stream);
/* Enqueues dst[i] = dst[i] op src[i] over count bytes of device memory on
 * the stream's device (SUM, MAX, MIN; EQUAL: 207000) for int8, int16,
 * int32, fp16, fp32, bf16 (other types: 207000). 100000 for NULL dst/src,
 * non-NULL reserve or an invalid enum; 107000 for memory outside a live
 * allocation of the stream's device or misaligned to the element size. */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(
    void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
    aclDataType type, aclrtStream stream, void *reserve);
/* aclrtCmoAsync carrying a barrier id: an INVALID operation with
 * barrierId > 0 is what aclrtCmoWaitBarrier waits for. CANN requires a stream
 * bound to a model; model binding is not built yet, so any stream is taken.
 * Errors: 100000 (NULL src), 107000 (size 0, INVALID with barrierId 0,
 * another type with barrierId != 0, range not device memory of the stream's
 * device), 207000 (unknown cmoType). */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size,
                                                      aclrtCmoType cmoType,
                                                      uint32_t barrierId,
                                                      aclrtStream stream);
/* Queues a wait until every INVALID cache operation issued (on any
 * stream) before this call with one of taskInfo's barrier ids has run.
 * Errors: 107000 (NULL taskInfo, barrierNum 0 or > 6, an entry not INVALID
 * or with barrierId 0, stream not live), 100000 (flag not 0). */
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo,
                                                 aclrtStream stream,
                                                 uint32_t flag);
/* Copies numBatches buffers at once (host to device or device to host
 * each), after one validation pass over all of them: attrs[k] names where
 * dst and src of copies attrsIndexes[k] .. attrsIndexes[k + 1] - 1 live
 * (HOST / HOST_NUMA, or DEVICE with its id). All sizes 0: success at once.
 * *failIndex is SIZE_MAX unless a particular copy is at fault, then its
 * index. Errors: 100000 (NULL failIndex, sizes or another array, numBatches
 * 0, a size > its destMax, non-zero rsv bytes), 107000 (numAttrs 0 or >
 * numBatches, attrsIndexes not 0-based and increasing below numBatches, a
 * location that does not match, a host-to-host or device-to-device pair, a
 * range past its allocation, a freed device pointer), 507013 (a simulated
 * DMA fault). */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                 size_t *attrsIndexes, size_t numAttrs, size_t *failIndex);
/* aclrtMemcpyBatch without failIndex. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs,
                                                void **srcs, size_t *sizes,
                                                size_t numBatches,
                                                aclrtMemcpyBatchAttr *attrs,
                                                size_t *attrsIndexes,
                                                size_t numAttrs);
/* aclrtMemcpyBatch as one task on stream (NULL: the default stream),
 * checked when called; an empty copy among non-empty ones is refused
 * (107000, as CANN), and so is a stream that is not live. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(
    void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
    size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
    size_t numAttrs, size_t *failIndex, aclrtStream stream);
/* aclrtMemcpyBatchAsync without failIndex. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(
    void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
    size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
    size_t numAttrs, aclrtStream stream);
/* Size of a cache operation descriptor (32 bytes). 107000 for a NULL
 * size. */
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size);
/* Writes src and size into the descriptor at cmoDesc (device memory of
 * at least aclrtCmoGetDescSize bytes). Errors: 107000 (NULL cmoDesc or src,
 * size 0, cmoDesc not such device memory). */
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src,
                                             size_t size);
/* Queues the cache operation on the range a descriptor
 * (aclrtCmoSetDesc) names, read when the task runs; a no-op on the coherent
 * simulator. Errors: 107000 (NULL cmoDesc, reserve not NULL, cmoDesc not
 * device memory, stream not live), 207000 (unknown cmoType); a descriptor
 * never set or naming no device memory fails the task (107000). */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc,
                                                   aclrtCmoType cmoType,
                                                   aclrtStream stream,
                                                   const void *reserve);

#endif /* ASCENDCL_ACL_RT_DEVICE_MEMORY_API_H_ */
