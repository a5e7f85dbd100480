/*
 * ACL runtime API: process lifecycle, lifecycle callbacks, devices, contexts,
 * streams, events, notifies, memory, host functions, error reporting and the
 * process snapshot.
 *
 * Conventions for every function below unless its comment says otherwise:
 *  - Thread safety: callable from any thread concurrently.
 *  - Handles (aclrtContext, aclrtStream, aclrtEvent, aclrtNotify) are owned by
 *    the runtime; the caller releases them with the matching Destroy call. A
 *    handle that is not live returns ACL_ERROR_RT_PARAM_INVALID (107000).
 *  - NULL output pointers return ACL_ERROR_INVALID_PARAM (100000).
 *  - A failing call changes no state.
 *  - Resource-modifying calls block while the process is snapshot-locked
 *    (see aclrtSnapShotProcessLock); queries and synchronisation do not.
 *    Calls made by host functions and report callbacks follow the rule at
 *    aclrtLaunchHostFunc instead.
 */
#ifndef ASCENDCL_ACL_ACL_RT_H_
#define ASCENDCL_ACL_ACL_RT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ---------------------------------------------------------------------------
 * Enumerations
 * ------------------------------------------------------------------------- */

typedef enum aclrtRunMode { ACL_DEVICE = 0, ACL_HOST = 1 } aclrtRunMode;

typedef enum aclrtEventStatus {
  ACL_EVENT_STATUS_COMPLETE = 0,
  ACL_EVENT_STATUS_NOT_READY = 1,
  ACL_EVENT_STATUS_RESERVED = 2
} aclrtEventStatus;

typedef enum aclrtEventRecordedStatus {
  ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

typedef enum aclrtStreamStatus {
  ACL_STREAM_STATUS_COMPLETE = 0,
  ACL_STREAM_STATUS_NOT_READY = 1,
  ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

typedef enum aclrtCallbackBlockType {
  ACL_CALLBACK_NO_BLOCK = 0,
  ACL_CALLBACK_BLOCK = 1
} aclrtCallbackBlockType;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_DEFAULT = 4,
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
  ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
  ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
  ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
  ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

typedef enum aclrtMemAttr {
  ACL_DDR_MEM = 0,
  ACL_HBM_MEM = 1,
  ACL_DDR_MEM_HUGE = 2,
  ACL_DDR_MEM_NORMAL = 3,
  ACL_HBM_MEM_HUGE = 4,
  ACL_HBM_MEM_NORMAL = 5,
  ACL_DDR_MEM_P2P_HUGE = 6,
  ACL_DDR_MEM_P2P_NORMAL = 7,
  ACL_HBM_MEM_P2P_HUGE = 8,
  ACL_HBM_MEM_P2P_NORMAL = 9,
  ACL_HBM_MEM_HUGE1G = 10,
  ACL_HBM_MEM_P2P_HUGE1G = 11,
  ACL_MEM_NORMAL = 12,
  ACL_MEM_HUGE = 13,
  ACL_MEM_HUGE1G = 14,
  ACL_MEM_P2P_NORMAL = 15,
  ACL_MEM_P2P_HUGE = 16,
  ACL_MEM_P2P_HUGE1G = 17
} aclrtMemAttr;

typedef enum aclrtLastErrLevel { ACL_RT_THREAD_LEVEL = 0 } aclrtLastErrLevel;

typedef enum aclrtDeviceStatus {
  ACL_RT_DEVICE_STATUS_NORMAL = 0,
  ACL_RT_DEVICE_STATUS_ABNORMAL = 1,
  ACL_RT_DEVICE_STATUS_END = 0xFFFF
} aclrtDeviceStatus;

typedef enum aclRegisterCallbackType {
  ACL_REG_TYPE_ACL_MODEL = 0,
  ACL_REG_TYPE_ACL_OP_EXECUTOR = 1,
  ACL_REG_TYPE_ACL_OP_CBLAS = 2,
  ACL_REG_TYPE_ACL_OP_COMPILER = 3,
  ACL_REG_TYPE_ACL_TDT_CHANNEL = 4,
  ACL_REG_TYPE_ACL_TDT_QUEUE = 5,
  ACL_REG_TYPE_ACL_DVPP = 6,
  ACL_REG_TYPE_ACL_RETR = 7,
  ACL_REG_TYPE_OTHER = 0xFFFF
} aclRegisterCallbackType;

typedef enum aclrtSnapShotStage {
  ACL_RT_SNAPSHOT_LOCK_PRE = 0,
  ACL_RT_SNAPSHOT_BACKUP_PRE = 1,
  ACL_RT_SNAPSHOT_BACKUP_POST = 2,
  ACL_RT_SNAPSHOT_RESTORE_PRE = 3,
  ACL_RT_SNAPSHOT_RESTORE_POST = 4,
  ACL_RT_SNAPSHOT_UNLOCK_POST = 5
} aclrtSnapShotStage;

/* CANN's ACL-level state enum has no BACKED_UP member; the full state is
 * available from rtSnapShotProcessGetState in runtime/rt_snapshot.h. */
typedef enum aclrtProcessState {
  ACL_RT_PROCESS_STATE_RUNNING = 0,
  ACL_RT_PROCESS_STATE_LOCKED = 1
} aclrtProcessState;

#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* ---------------------------------------------------------------------------
 * Callback and argument types
 * ------------------------------------------------------------------------- */

/* Init callbacks receive the raw bytes of the config file and their length
 * ("" and 0 without a file). The bytes are owned by the runtime and valid only
 * during the call; userData is the pointer given at registration. */
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len,
                                        void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

typedef void (*aclrtCallback)(void *userData);
typedef void (*aclrtHostFunc)(void *args);

/* Stage callbacks: return 0 for success; deviceId is the logical device id. */
typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void *args);

typedef struct aclrtSnapShotBackupArgs {
  uint32_t backupFlags;
  char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
  uint32_t restoreFlags;
  char reserved[60];
} aclrtSnapShotRestoreArgs;

/* ---------------------------------------------------------------------------
 * Lifecycle
 * ------------------------------------------------------------------------- */

/* Initialises ACL. configPath may be NULL or "" (no config) or name a JSON
 * file of at most 10 MiB with `{` and `[` each nested at most 10 deep.
 * Notifies init callbacks in the order ACL_REG_TYPE_ACL_MODEL,
 * ACL_REG_TYPE_ACL_OP_EXECUTOR (only with a non-empty configPath),
 * ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER, each with the raw file bytes
 * ("" and 0 without a file). Opens no device.
 * Returns 0; ACL_ERROR_REPEAT_INITIALIZE (100002) when already initialised
 * (the reference count is still incremented; nothing is read or notified);
 * ACL_ERROR_INVALID_FILE (100003) for a path that is not a readable regular
 * file or is too large; ACL_ERROR_PARSE_FILE (100006) for invalid JSON or
 * deeper nesting; ACL_ERROR_INVALID_PARAM (100000) when the content differs
 * from that of the first successful aclInit of the process (NULL, "" and an
 * empty file all count as empty content) or err_msg_mode /
 * acl_graph.event_mode is not the string "0" or "1"; ACL_ERROR_FAILURE
 * (500001) for a malformed defaultDevice, StackSize or printf FIFO size; or
 * the code of the first failing init callback, unchanged. A failure undoes
 * nothing (callbacks already notified stay initialised).
 * Thread safety: aclInit, aclFinalize and aclFinalizeReference are
 * serialised. A callback may call them: aclInit from an init callback
 * returns 100002 and the running aclInit, if it succeeds, holds that extra
 * reference. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/* Finalizes ACL whatever the reference count: notifies finalize callbacks
 * in the order ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL,
 * ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER and sets the count to 0. Does not
 * reset devices. Returns 0; ACL_ERROR_REPEAT_FINALIZE (100037) when not
 * initialised, including a process that never called aclInit (CANN runs the
 * finalize callbacks there; this runtime runs none), and when called from a
 * finalize callback; or the code of the first failing finalize callback,
 * unchanged (the count is kept, so the call can be retried). */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/* Drops one reference; finalizes (as aclFinalize) when the count goes from
 * 1 to 0. Writes the count left to *refCount when refCount is not NULL (on a
 * failure: the unchanged count). Returns 0, ACL_ERROR_REPEAT_FINALIZE
 * (100037) at count 0 or from a finalize callback, or a finalize callback's
 * failure code. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/* Register a callback for a component type (any value is accepted as a
 * type). Every type except ACL_REG_TYPE_OTHER holds one callback (a second
 * registration returns ACL_ERROR_INTERNAL_ERROR, 500000); OTHER holds any
 * number, duplicates included, called in registration order. NULL cbFunc
 * returns ACL_ERROR_INVALID_PARAM (100000). Registrations last across
 * init/finalize cycles. An init callback registered while ACL is
 * initialised runs at once with the current config bytes (its result is
 * ignored); one registered during an aclInit that has already notified its
 * type runs when that aclInit succeeds. Finalize callbacks never run at
 * registration. userData is owned by the caller and passed back unchanged.
 * Callbacks may call these functions and the lifecycle functions; a change
 * made from a callback applies to the notifications that start after it. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(
    aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData);
/* Removes the first registration of (type, cbFunc), whatever its userData:
 * 0, 100000 for NULL, or 500000 when not registered. Called from another
 * thread than a running aclInit/finalize, it waits for it to finish, so the
 * callback is not called once this returns. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(
    aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
ACL_FUNC_VISIBILITY aclError
aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                            aclFinalizeCallbackFunc cbFunc, void *userData);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(
    aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc);

/* ---------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------- */

/* Binds the calling thread to deviceId, opening the device (and creating its
 * default context and stream) on first use; each call adds one reference.
 * Opening a device that another thread has just reset waits (up to 30 s)
 * until the old instance is gone (its teardown finished, no call in flight
 * on another thread still using it).
 * Errors: ACL_ERROR_RT_INVALID_DEVICEID (107001). */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
/* Drops one reference; the device closes (all its resources are released)
 * when the count reaches 0. Errors: 107001. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
/* Closes the device regardless of its reference count. Errors: 107001. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);
/* Device of the calling thread's current context.
 * Errors: 100000 (NULL), ACL_ERROR_RT_CONTEXT_NULL (107002) without one. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);
/* Wait for all work on the current device. Errors: 107002 without a device. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
/* Same with a timeout in ms (-1: none):
 * ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046) on timeout. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
ACL_FUNC_VISIBILITY aclError
aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer,
                                                      int32_t deviceId,
                                                      int32_t peerDeviceId);
/* flags must be 0. Errors: 107001 for a bad peer, 100000 for bad flags. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId,
                                                         uint32_t flags);
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* ---------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------- */

/* Creates a context on deviceId (adding a device reference) and makes it the
 * calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context,
                                                int32_t deviceId);
/* Destroys a context made by aclrtCreateContext, with its streams. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);
ACL_FUNC_VISIBILITY aclError
aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);

/* ---------------------------------------------------------------------------
 * Streams. A NULL stream argument means the current context's default stream.
 * ------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream,
                                                         uint32_t priority,
                                                         uint32_t flag);
/* Waits for the stream's pending work, then destroys it. A task failure that
 * no aclrtSynchronizeDevice has reported yet is left to the next one on the
 * stream's device. Only a stream of the current context:
 * ACL_ERROR_RT_STREAM_CONTEXT (107003) otherwise. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Discards pending work that has not started, and any task failure, then
 * destroys the stream (of the current context, as aclrtDestroyStream). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* timeout in ms, -1 waits forever: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046)
 * on timeout. */
ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream,
                                              aclrtStreamStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream,
                                              int32_t *streamId);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream,
                                                 uint32_t *flags);
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream,
                                                    uint32_t *priority);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream,
                                                       uint64_t mode);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(
    int32_t *leastPriority, int32_t *greatestPriority);
/* Makes the stream wait until the event's last record has completed. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream,
                                                  aclrtEvent event);

/* ---------------------------------------------------------------------------
 * Events and notifies
 * ------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* flag: an OR of ACL_EVENT_TIME_LINE, SYNC, CAPTURE_STREAM_PROGRESS and
 * DEVICE_USE_ONLY, or ACL_EVENT_EXTERNAL alone. Without ACL_EVENT_SYNC
 * (EXTERNAL aside) the event is not waited for (aclrtStreamWaitEvent and its
 * forms) or reset: ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event,
                                                      uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event,
                                              aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event,
                                             aclrtStream stream);
/* A never-recorded event reports ACL_EVENT_RECORDED_STATUS_COMPLETE. */
ACL_FUNC_VISIBILITY aclError
aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event,
                                             aclrtEventStatus *status);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event,
                                                              int32_t timeout);
/* Completion time of the event's last record, in microseconds. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event,
                                                    uint64_t *timestamp);
/* Milliseconds between two completed records. Errors: 107000 for a bad
 * handle, ACL_ERROR_RT_EVENT_NOT_COMPLETE (507006) if either is pending. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms,
                                                   aclrtEvent startEvent,
                                                   aclrtEvent endEvent);

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify,
                                               uint64_t flag);
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify,
                                               aclrtStream stream);
/* Enqueues a wait for the notify followed by its reset; timeout in ms, 0
 * waits forever. A wait that times out fails the stream's task with 107019. */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify,
                                                     aclrtStream stream,
                                                     uint32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify,
                                              uint32_t *notifyId);

/* ---------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------- */

/* Allocates size bytes of device memory on the current device, zero-filled.
 * Errors: 100000 (NULL/size 0), 107002 (no current device),
 * ACL_ERROR_RT_MEMORY_ALLOCATION (207001) when the device is full. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
                                         aclrtMemMallocPolicy policy);
/* Frees memory from aclrtMalloc: 107000 for an address that is not the base
 * of a live allocation. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
/* Page-locked host memory (not part of a snapshot backup). */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free,
                                             size_t *total);

/* Synchronous copy. kind must match where dst and src live
 * (ACL_MEMCPY_DEFAULT infers it; INNER_DEVICE_TO_DEVICE needs both on one
 * device, INTER_DEVICE_TO_DEVICE on two). A copy between two devices needs
 * peer access between them: aclrtDeviceEnablePeerAccess on either device
 * naming the other. Waits for nothing queued on streams: order it with
 * aclrtSynchronizeStream. count 0 succeeds at once. Errors: 100000 (NULL,
 * count > destMax, unknown kind), 107000 (kind does not match where dst and
 * src live, a range runs past its allocation, or a pointer is in device
 * memory but not in a live allocation: freed, or its device was reset),
 * 207006 ACL_ERROR_RT_NO_PERMISSION (two devices without peer access; the
 * reference gives no code for this, 207006 is the closest documented one).
 * aclrtMemcpyAsync checks the same when called, with the same codes. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax,
                                         const void *src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax,
                                              const void *src, size_t count,
                                              aclrtMemcpyKind kind,
                                              aclrtStream stream);
/* Synchronous byte fill of device (or host) memory. Errors: 100000 (NULL,
 * count > maxCount), 107000 (the range runs past its allocation, or devPtr
 * is in device memory but not in a live allocation: freed, or its device
 * was reset). */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount,
                                         int32_t value, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount,
                                              int32_t value, size_t count,
                                              aclrtStream stream);
/* Stream waits until *(uint64_t*)devAddr compares to value as flag says
 * (ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR). devAddr must be 8-byte aligned. */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value,
                                            uint32_t flag, aclrtStream stream);
/* Stream stores value to *(uint64_t*)devAddr; flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value,
                                             uint32_t flag, aclrtStream stream);

/* ---------------------------------------------------------------------------
 * Host functions and callbacks
 * ------------------------------------------------------------------------- */

/* Runs fn(args) in stream order on a runtime thread. Host functions may read
 * and write simulated device memory directly. Unlike the reference, this
 * call blocks while the process is snapshot-locked, like every resource-
 * modifying call: a host function may write device memory.
 * Snapshot rule for host functions (and report callbacks): a snapshot Backup
 * drains every stream, so the resource-modifying calls a host function makes
 * (launching the next host function, say) do not block while the process is
 * LOCKED; they proceed, and Backup's drain waits for the work they queue, on
 * any stream. Once a Backup has drained the streams -- from the start of its
 * copy, through BACKED_UP, until Unlock or the next Backup -- they fail at
 * once with ACL_ERROR_RT_NO_PERMISSION (207006) and change nothing. A host
 * function that keeps queueing work fails the Backup with 507908 after the
 * snapshot timeout.
 * Errors: 100000 (NULL fn), 107000 (stream not live), 107002 (no current
 * context), 207006 (made by a host function after Backup's drain). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream,
                                                 aclrtHostFunc fn, void *args);
/* Enqueues fn(userData), run by the thread subscribed to the stream with
 * aclrtSubscribeReport when that thread calls aclrtProcessReport. BLOCK makes
 * the stream wait for the callback; NO_BLOCK does not. Blocks while the
 * process is snapshot-locked; made by a host function or callback it follows
 * aclrtLaunchHostFunc's rule. A callback that reaches its thread while the
 * process is LOCKED runs if the thread is already inside aclrtProcessReport
 * (see there), so a BLOCK callback does not stall a Backup's drain.
 * Errors: ACL_ERROR_RT_STREAM_NO_CB_REG (107015) without a subscriber,
 * 207006 (made by a host function after Backup's drain). */
ACL_FUNC_VISIBILITY aclError
aclrtLaunchCallback(aclrtCallback fn, void *userData,
                    aclrtCallbackBlockType blockType, aclrtStream stream);
/* Makes threadId the thread that runs the stream's callbacks. One thread per
 * stream (107011); a thread serves the streams of one device
 * (ACL_ERROR_RT_THREAD_SUBSCRIBE, 107012, for a stream of another). */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId,
                                                  aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId,
                                                    aclrtStream stream);
/* Runs one pending callback of the streams the calling thread subscribed to,
 * waiting at most timeout ms (-1 forever) for it. While the process is
 * snapshot-locked it blocks on entry; the wait for a callback does not hold
 * up a lock. As in the reference, a thread already inside runs a callback
 * that reaches it while the process is LOCKED, and the resource-modifying
 * calls that callback makes proceed: Backup's drain waits for the callback.
 * A callback that reaches it after a Backup has drained the streams waits
 * for the Unlock (or the next Backup) before it runs.
 * Errors: ACL_ERROR_RT_THREAD_SUBSCRIBE (107012) when the thread subscribed
 * to nothing, ACL_ERROR_RT_REPORT_TIMEOUT (507012) on timeout. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/* ---------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------- */

/* The calling thread's last runtime error; GetLast also clears it. */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);
/* Text of the calling thread's most recent error, handed out once: the next
 * call returns NULL until another error is recorded. NULL when there is none.
 * The string is owned by the runtime and stays valid until the thread's next
 * message is handed out. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* ---------------------------------------------------------------------------
 * Process snapshot
 * pid must be getpid() and reserve/args must be NULL, else 100000. A snapshot
 * call made from inside a stage callback changes nothing and returns its own
 * failure code (Lock 507906, Unlock 507907, Backup 507908, Restore 507909,
 * callback Register/Unregister 507913) instead of deadlocking. The full state
 * table is in runtime/rt_snapshot.h.
 * ------------------------------------------------------------------------- */

/* RUNNING -> LOCKED. Runs LOCK_PRE callbacks first, then waits for runtime
 * background threads to park and for in-flight resource-modifying calls to
 * finish (those of host functions and callbacks may still start afterwards,
 * see aclrtLaunchHostFunc). Errors: 507906 (not RUNNING), 507905 (timeout,
 * back to RUNNING), 507912 (a callback failed). */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void *reserve);
/* LOCKED/BACKED_UP -> RUNNING, waking blocked threads; then UNLOCK_POST.
 * Errors: 507907 (RUNNING), 507912. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void *reserve);
/* LOCKED -> BACKED_UP: drains streams (until none has work left: host
 * functions and callbacks may queue more) and saves device memory and
 * resource tables to host. Errors: 507908 (not LOCKED, streams not drained
 * within the snapshot timeout, or backup failed; state stays LOCKED), 107002
 * (no open device), 507912. */
ACL_FUNC_VISIBILITY aclError
aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args);
/* BACKED_UP -> LOCKED: re-opens devices and brings memory and handles back.
 * Errors: 507909 (not BACKED_UP, or restore failed: state stays BACKED_UP
 * with the backup intact), 507912. */
ACL_FUNC_VISIBILITY aclError
aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args);
/* A stage callback may call other ACL functions: resource-modifying ones do
 * not block in it (the lock holder is waiting for the callback); snapshot
 * functions return their failure code.
 * Errors: 107000 (bad stage or NULL), 507913 (already registered). */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(
    aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void *args);
/* Errors: 107000 (bad stage, NULL, or not registered). */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(
    aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);

/* ---------------------------------------------------------------------------
 * System information and package versions (implemented in acl/sysinfo).
 * None of these needs aclInit; all are callable from any thread and change
 * no state.
 * ------------------------------------------------------------------------- */

/* Size of the caller's buffer for aclsysGetVersionStr, terminating NUL
 * included, and of the parts of a version (see the numeric encoding). */
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* Values written by aclrtGetDeviceCapability. */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

typedef enum aclrtDevFeatureType {
  ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
  ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21
} aclrtDevFeatureType;

typedef enum aclrtErrorType {
  ACL_RT_NO_ERROR = 0,
  ACL_RT_ERROR_MEMORY = 1,
  ACL_RT_ERROR_L2 = 2,
  ACL_RT_ERROR_AICORE = 3,
  ACL_RT_ERROR_LINK = 4,
  ACL_RT_ERROR_L3_PORT = 5,
  ACL_RT_ERROR_OTHERS = 0xFFFF
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
  ACL_RT_AICORE_ERROR_UNKNOWN = 0,
  ACL_RT_AICORE_ERROR_SW = 1,
  ACL_RT_AICORE_ERROR_HW_LOCAL = 2
} aclrtAicoreErrorType;

#define UCE_INFO_RESERVED_SIZE 14
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20

/* A device memory range hit by an uncorrectable error. */
typedef struct aclrtMemUceInfo {
  void *addr;
  size_t len;
  size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef struct aclrtMemUceInfoArray {
  size_t arraySize;
  aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
  aclrtMemUceInfoArray uceInfo;       /* errorType ACL_RT_ERROR_MEMORY */
  aclrtAicoreErrorType aicoreErrType; /* errorType ACL_RT_ERROR_AICORE */
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
  uint8_t tryRepair; /* 1: the error can be repaired in place */
  uint8_t hasDetail; /* 1: detail holds the member named by errorType */
  uint8_t reserved[2];
  aclrtErrorType errorType;
  aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/* Package versions. aclsysGetVersionStr and aclsysGetVersionNum read
 *   $ASCEND_HOME_PATH/share/info/<pkgName>/version.info
 * (an installed tree has share/info/runtime/version.info, and its set_env.sh
 * exports ASCEND_HOME_PATH). The version is the value of the first line that
 * starts with "Version=" (leading blanks ignored), with surrounding blanks
 * removed. If the file is missing and pkgName contains '-', the name with
 * every '-' replaced by '_' is tried instead (otherwise, if it contains '_',
 * with '_' replaced by '-'), as CANN's packages use both spellings.
 *
 * Numeric encoding (aclsysGetVersionNum) of version text
 *   MAJOR.MINOR.PATCH[[SEP]TAG[[SEP]N]]      SEP: '.' or '-'
 *   TAG: alpha, beta or rc, in any case; N defaults to 0
 *   num = MAJOR * 10000000 + MINOR * 100000 + PATCH * 1000 - W + N
 *   W: alpha 300, beta 200, rc 100, no TAG 0
 * where MAJOR <= 213 (so num fits in int32_t), MINOR, PATCH and N <= 99, and
 * each number has fewer than ACL_PKG_VERSION_PARTS_MAX_SIZE digits. Examples:
 * 9.0.0 -> 90000000, 8.5.1 -> 80501000, 8.5.0.beta.1 -> 80499801, 8.5.0-rc2
 * -> 80499902: numbers grow with the release, and alpha < beta < rc <
 * release. Other text (for example "8.0.RC1", "8.5", "8.5.0.1") has no
 * number. */

/* Copies the version text of pkgName, NUL-terminated, to versionStr, which
 * must hold ACL_PKG_VERSION_MAX_SIZE bytes (at most strlen + 1 are written).
 * Errors (versionStr untouched):
 *  ACL_ERROR_INVALID_PARAM (100000): a NULL argument, or a pkgName that is
 *    empty, "." or "..", or contains '/';
 *  ACL_ERROR_INVALID_FILE (100003): ASCEND_HOME_PATH unset or empty, no
 *    readable version.info for the package, no Version= line, or an empty
 *    value on the first one (what CANN returns when a package is not
 *    installed);
 *  ACL_ERROR_INTERNAL_ERROR (500000): the version text has
 *    ACL_PKG_VERSION_MAX_SIZE characters or more (as CANN). */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName,
                                                 char *versionStr);

/* The version of pkgName in the numeric encoding above. Errors as
 * aclsysGetVersionStr, plus ACL_ERROR_INTERNAL_ERROR (500000), as CANN, for
 * version text that has no numeric encoding (*versionNum untouched). */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName,
                                                 int32_t *versionNum);

/* *runMode = ACL_HOST: this runtime always runs on the host.
 * Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

/* *canCompatible = 1 when code built for socVersion runs on the current
 * devices, that is when socVersion equals aclrtGetSocName() exactly (the
 * simulator is compatible only with its own name), else 0 (also when there
 * is no SoC name). Errors: 100000 for a NULL argument. */
ACL_FUNC_VISIBILITY aclError
aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/* *value = ACL_DEV_FEATURE_SUPPORT or ACL_DEV_FEATURE_NOT_SUPPORT for one
 * feature of device deviceId. This runtime supports neither feature (no AI
 * Core task update, no cross-device memory-queue events), so *value is
 * ACL_DEV_FEATURE_NOT_SUPPORT. Errors: 100000 for a NULL value or a
 * devFeatureType that is not an aclrtDevFeatureType value;
 * ACL_ERROR_RT_INVALID_DEVICEID (107001) for a device id out of range. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(
    int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value);

/* The error record of device deviceId, written to *errorInfo (zeroed
 * first): errorType ACL_RT_NO_ERROR when no error is recorded, or
 * ACL_RT_ERROR_OTHERS while the device is abnormal (aclrtQueryDeviceStatus
 * reports ACL_RT_DEVICE_STATUS_ABNORMAL, for example after a simulated
 * memory-loss fault, until a snapshot restore or re-opening the device).
 * tryRepair and hasDetail are always 0: this runtime has no in-place repair
 * (restore from a snapshot instead). Works whether or not the device is set.
 * Errors: 100000 for NULL; 107001 for a device id out of range. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId,
                                                  aclrtErrorInfo *errorInfo);

/* The rest of the runtime interface, in parts of this header (in this
 * order: each part uses the types of those before it). */
/* clang-format off */
#include "acl/rt/runtime_types.h"
#include "acl/rt/launch_task_types.h"
#include "acl/rt/device_memory_api.h"
#include "acl/rt/stream_task_api.h"
#include "acl/rt/vmm_kernel_model_api.h"
/* clang-format on */

#ifdef __cplusplus
}
#endif

/* The allocator interface uses aclrtStream, declared above. */
#include "acl/acl_rt_allocator.h"

#endif /* ASCENDCL_ACL_ACL_RT_H_ */
