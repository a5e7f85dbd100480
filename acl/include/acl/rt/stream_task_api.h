/*
 * Part of acl/acl_rt.h (include that header, not this one), declared inside
 * its extern "C" block: streams and their configuration, events, notifies
 * and counting notifies, timeouts and overflow detection, host functions,
 * mbuf buffers, dump configuration, tasks, random numbers, task update and
 * error repair.
 */
#ifndef ASCENDCL_ACL_RT_STREAM_TASK_API_H_
#define ASCENDCL_ACL_RT_STREAM_TASK_API_H_

#ifndef ASCENDCL_ACL_ACL_RT_H_
#error "include acl/acl_rt.h, not acl/rt/stream_task_api.h"
#endif

/* ---------------------------------------------------------------------------
 * Streams, stream configuration, groups and stream attributes
 * ------------------------------------------------------------------------- */

/* Allocates a zeroed stream configuration handle for aclrtCreateStreamV2;
 * NULL when out of host memory. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(
    void);
/* Frees a handle aclrtCreateStreamConfigHandle made. 100000: handle NULL,
 * not made there, or destroyed already (nothing is freed). */
ACL_FUNC_VISIBILITY aclError
aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/* Stores one option in the handle; nothing is created until
 * aclrtCreateStreamV2. valueSize must be the option's: a pointer, size_t,
 * size_t or 4 bytes (flag), uint32_t (priority, 0..7). 100000: NULL handle
 * or attrValue, unknown attr, wrong valueSize, priority above 7. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(
    aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
    const void *attrValue, size_t valueSize);
/* Creates a stream on the current context with handle's priority, flags
 * and work memory (NULL handle: the defaults). 100000: stream NULL, or a
 * flag wider than 32 bits; otherwise aclrtCreateStreamWithConfig's codes. */
ACL_FUNC_VISIBILITY aclError
aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);
/* As aclrtStreamWaitEvent, the wait failing its stream's task with 107019
 * after timeout seconds (0: none). flag is ACL_EVENT_WAIT_DEFAULT or
 * ACL_EVENT_WAIT_EXTERNAL (timeout 0, a stream being captured: else
 * 100000 / 107029). 100000: event NULL or another flag. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream,
                                                          aclrtEvent event,
                                                          uint32_t timeout,
                                                          uint32_t flag);
/* As aclrtStreamWaitEvent, the wait failing its stream's task with 107019
 * after timeout seconds (0: none). 107000: timeout negative; 100000: event
 * NULL. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream,
                                                             aclrtEvent event,
                                                             int32_t timeout);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns NULL. */
ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo);
/* Not supported: the simulated Ascend910B-class device has no compute groups
 * (CANN offers them only on Atlas inference products in Control-CPU form);
 * returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(
    const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
    void *attrValue, size_t valueLen, size_t *paramRetSize);
/* Turns overflow detection of stream (NULL: the default stream) on (1) or
 * off (0); stored. ACL_ERROR_INVALID_PARAM (100000): another flag;
 * ACL_ERROR_RT_PARAM_INVALID (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream,
                                                          uint32_t flag);
/* Writes stream's overflow-detection switch (0 until set).
 * ACL_ERROR_INVALID_PARAM (100000): flag NULL; ACL_ERROR_RT_PARAM_INVALID
 * (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream,
                                                          uint32_t *flag);
/* Writes how many more streams the current device can hold (its free
 * stream ids). ACL_ERROR_INVALID_PARAM (100000): streamCount NULL;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): the backend cannot tell. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);
/* Sets one attribute of stream (NULL: the default stream): failure mode,
 * overflow switch (0/1), op-info cache switch (0/1), custom tag, priority
 * (0..7). Recorded host state; kept by a snapshot. 100000: value NULL;
 * 107000: unknown attribute, bad value, stream not live. */
ACL_FUNC_VISIBILITY aclError
aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                        aclrtStreamAttrValue *value);
/* Writes one attribute of stream (NULL: the default stream) to *value.
 * 100000: value NULL; 107000: unknown attribute, stream not live. */
ACL_FUNC_VISIBILITY aclError
aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                        aclrtStreamAttrValue *value);
/* Registers callback under regName (NULL callback: unregisters); it is
 * called after each stream creation and before each accepted destroy.
 * 100000: regName NULL or empty; 107000: the name is registered already. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(
    const char *regName, aclrtStreamStateCallback callback, void *args);

/* ---------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------- */

/* Creates an event with an OR of ACL_EVENT_SYNC,
 * ACL_EVENT_CAPTURE_STREAM_PROGRESS, ACL_EVENT_TIME_LINE (and 0x4), or
 * ACL_EVENT_IPC alone. 100000: event NULL; 107000: another flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event,
                                                        uint32_t flag);
/* As aclrtRecordEvent; flag is ACL_EVENT_RECORD_DEFAULT or
 * ACL_EVENT_RECORD_EXTERNAL (a stream being captured only, else 107029).
 * 100000: event NULL or another flag. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event,
                                                      aclrtStream stream,
                                                      uint32_t flag);
/* Writes COMPLETE when no stream wait on event is queued or running (also
 * before any wait), NOT_READY otherwise. 100000: event or status NULL;
 * 207000: an event made by aclrtCreateEventExWithFlag. */
ACL_FUNC_VISIBILITY aclError
aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);
/* Writes the event's id on its device. 100000: event or eventId NULL;
 * 107000: event not live; 207000: an IPC event. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event,
                                             uint32_t *eventId);
/* Writes how many more events the current device can hold (its free event
 * ids). Codes as aclrtGetStreamAvailableNum. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);

/* ---------------------------------------------------------------------------
 * Notifies and counting notifies
 * ------------------------------------------------------------------------- */

/* Creates a count notify (a 32-bit count, 0) on the current device.
 * 100000: cntNotify NULL; 107000: flag not 0; 207009: out of ids. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify,
                                                  uint64_t flag);
/* Destroys a count notify; a wait on it still queued fails its task.
 * 100000: cntNotify NULL; 107000: not live. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
/* Clears the pending record of num notifies at once (host state, not in
 * stream order). Every handle is checked first: 100000: notifies NULL;
 * 107000: num 0 or a handle not live (then no notify changes). */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies,
                                                   size_t num);
/* Enqueues on stream a task that sets, adds to (modulo 2^32), ORs or ANDs
 * the count with info->value. 100000: info or cntNotify NULL; 107000: an
 * unknown mode, a notify or stream not live. */
ACL_FUNC_VISIBILITY aclError
aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                     aclrtCntNotifyRecordInfo *info);
/* Enqueues on stream a wait until the count compares with info->value as
 * info->mode asks, clearing it when info->isClear is not 0; after
 * info->timeout seconds (0: none) the task fails with 107019. 100000: info
 * or cntNotify NULL; 107000: an unknown mode, a notify or stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(
    aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo *info);
/* Enqueues on stream a task that sets the count to 0. 100000: cntNotify
 * NULL; 107000: a notify or stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify,
                                                 aclrtStream stream);
/* Writes the count notify's id on its device. 100000: cntNotify or
 * notifyId NULL; 107000: not live. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify,
                                                 uint32_t *notifyId);

/* ---------------------------------------------------------------------------
 * Timeouts, overflow detection and saturation
 * ------------------------------------------------------------------------- */

/* Sets the event-wait timeout in seconds (0: none). Stored; stream waits on
 * events are not bounded by it on the simulator. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);
/* Sets the operator execute timeout in seconds (0: the longest), rounded
 * up to whole intervals (aclrtGetOpTimeOutInterval), at most 254. Stored for
 * kernels; the simulator runs no operators yet. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
/* As aclrtSetOpExecuteTimeOut, in milliseconds. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);
/* As aclrtSetOpExecuteTimeOut, in microseconds; writes the timeout in
 * effect to *actualTimeout. ACL_ERROR_INVALID_PARAM (100000): actualTimeout
 * NULL; no current device: the code aclrtGetDevice returns. */
ACL_FUNC_VISIBILITY aclError
aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout);
/* Writes the timeout granularity in microseconds (4294967 on the
 * simulator). ACL_ERROR_INVALID_PARAM (100000): interval NULL; no current
 * device: the code aclrtGetDevice returns. */
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval);
/* Enqueues on stream a task that writes the device's overflow flags (the
 * first 8 bytes, little-endian; zeros up to 64 bytes or outputSize if
 * smaller) to the device memory at outputAddr. ACL_ERROR_INVALID_PARAM
 * (100000): outputAddr NULL; ACL_ERROR_RT_PARAM_INVALID (107000): outputSize
 * 0, a stream not live, or a destination outside a live device allocation. */
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr,
                                                    size_t outputSize,
                                                    aclrtStream stream);
/* Enqueues on stream a task that clears the device's overflow flags.
 * ACL_ERROR_RT_PARAM_INVALID (107000): stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): the overflow workspace is
 * written by the hardware's saturation unit, which host-code kernels do not
 * have. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr);
/* As aclrtGetOverflowStatus. */
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr,
                                                         uint64_t outputSize,
                                                         aclrtStream stream);
/* As aclrtResetOverflowStatus. */
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);
/* As aclrtGetOverflowStatus (checkMode selects nothing: a device has
 * one set of flags). */
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr,
                                                            uint64_t outputSize,
                                                            uint32_t checkMode,
                                                            aclrtStream stream);
/* As aclrtResetOverflowStatus (checkMode selects nothing). */
ACL_FUNC_VISIBILITY aclError
aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);
/* Writes the operator execute timeout in effect, in milliseconds (the
 * longest, about 1091 s, until set). ACL_ERROR_INVALID_PARAM (100000):
 * timeoutMs NULL. */
ACL_FUNC_VISIBILITY aclError
aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs);

/* ---------------------------------------------------------------------------
 * Host functions
 * ------------------------------------------------------------------------- */

/* Hands host functions launched on exeStream to the thread
 * hostFuncThreadId, which runs them in aclrtProcessHostFunc. 100000:
 * exeStream NULL; 107000: stream not live; 107011: the stream has a
 * thread already. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId,
                                                    aclrtStream exeStream);
/* Runs one host function handed to the calling thread, waiting up to
 * timeout ms (-1: for ever). 107000: another timeout; 107012: the thread
 * is subscribed to no stream; 507012: the timeout passed. */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);
/* Ends the subscription of exeStream to hostFuncThreadId. 100000:
 * exeStream NULL; 107000: stream not live; 107011: exeStream is not
 * subscribed to that thread. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId,
                                                      aclrtStream exeStream);

/* ---------------------------------------------------------------------------
 * Mbuf buffers
 * ------------------------------------------------------------------------- */

/* The index-th mbuf of a chain (0: the head). 107000 past the end. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf,
                                                  uint32_t index,
                                                  aclrtMbuf *buf);
/* Number of mbufs in a chain, its head included. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf,
                                                 uint32_t *num);
/* Appends an mbuf (not chained, not heading a chain) to headBuf's chain
 * (at most 128 mbufs); 107000 otherwise. */
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf,
                                                 aclrtMbuf buf);
/* A new mbuf sharing buf's data region (its data length and user data
 * copied). */
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf,
                                             aclrtMbuf *newBuf);
/* Copies size bytes at offset of the 96-byte user-data region out;
 * size + offset > 96: 100000. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf,
                                                 void *dataPtr, size_t size,
                                                 size_t offset);
/* Copies size bytes into the 96-byte user-data region at offset;
 * size + offset > 96: 100000. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf,
                                                 const void *dataPtr,
                                                 size_t size, size_t offset);
/* The mbuf's data region and its size. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf,
                                             void **dataPtr, size_t *size);
/* The mbuf's valid-data length (0 until set). */
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len);
/* Sets the valid-data length; 107000 when it exceeds the data region. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);
/* Allocates an mbuf with a size-byte data region (host memory on this
 * runtime); size 0 or over 4 GiB: 100000. Free with aclrtFreeBuf. */
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size);

/* ---------------------------------------------------------------------------
 * Dump configuration
 * ------------------------------------------------------------------------- */

/* Starts a dump configuration round. ACL_ERROR_UNINITIALIZE (100001): before
 * aclInit; ACL_ERROR_REPEAT_INITIALIZE (100002): a round is open. */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
/* Validates the dump configuration file (as aclInit's config; a "dump"
 * member must be an object whose dump_path is a string) and accepts it; this
 * runtime produces no dumps (logged once). ACL_ERROR_UNINITIALIZE (100001),
 * ACL_ERROR_DUMP_NOT_RUN (100045): no round open; ACL_ERROR_INVALID_PARAM
 * (100000): dumpCfgPath NULL; ACL_ERROR_INVALID_FILE (100003),
 * ACL_ERROR_PARSE_FILE (100006), ACL_ERROR_INVALID_DUMP_CONFIG (100009). */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
/* Ends the dump round. ACL_ERROR_UNINITIALIZE (100001): before aclInit;
 * ACL_ERROR_DUMP_NOT_RUN (100045): no round open. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

/* ---------------------------------------------------------------------------
 * Tasks, profiling, random numbers, task update and error repair
 * ------------------------------------------------------------------------- */

/* The per-stream id of the last task the calling thread enqueued (0 before
 * any). */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);
/* Enqueues a trace point on stream (NULL: the default stream): a task that
 * does nothing, since no profiler collects it. ACL_ERROR_INVALID_PARAM
 * (100000): userdata NULL; ACL_ERROR_RT_PARAM_INVALID (107000): length
 * outside [1, 18] or stream not live. */
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void *userdata, int32_t length,
                                            aclrtStream stream);
/* Not supported: there is no hardware synchronisation register to hand out an
 * address of; returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000). */
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void **addr);
/* Enqueues a random-number task (dropout bitmask, uniform, normal,
 * truncated normal) writing randomNum results; Philox4x32-10 keyed by the
 * seed, counter from randomCounterAddr (16 bytes, advanced past the blocks
 * used). 100000 for NULL taskInfo, non-NULL reserve or an invalid
 * dataType; 107000 for a bad function/type pairing, NULL or non-device
 * addresses or bad parameter sizes. */
ACL_FUNC_VISIBILITY aclError
aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo,
                    const aclrtStream stream, void *reserve);
/* ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000): rewrites hardware queue entries,
 * which simulated tasks do not have. */
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream,
                                                  uint32_t taskId,
                                                  aclrtTaskUpdateInfo *info,
                                                  aclrtStream execStream);
/* Clears the tasks a persistent stream recorded into a model still being
 * built. */
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);
/* Repairs what aclrtGetErrorVerbose reported: for ACL_RT_ERROR_MEMORY the
 * detail's ranges (every current range when hasDetail is 0), as
 * aclrtMemUceRepair; ACL_RT_NO_ERROR succeeds. Errors: 100000 for NULL or a
 * detail arraySize outside [1, 20]; 207000 for other error types. */
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId,
                                              const aclrtErrorInfo *errorInfo);
/* Attaches info to the task the calling thread recorded last into a
 * model (507000 when none). */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr,
                                                      const size_t infoSize);
/* Attaches info to the task the calling thread recorded last into a
 * model (507000 when none). */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(
    const char *const extendInfoPtr, const size_t infoSize);

#endif /* ASCENDCL_ACL_RT_STREAM_TASK_API_H_ */
