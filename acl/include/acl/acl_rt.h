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
 * stream's device. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Discards pending work that has not started, and any task failure, then
 * destroys the stream. */
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

/* ===========================================================================
 * The rest of the runtime interface. Types, flags and functions below match
 * CANN's runtime headers in name, signature and value. Unless its comment
 * says otherwise, each function below is not available on this runtime yet:
 * it returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) (a function that
 * returns a handle or a number returns NULL or 0 instead), logs one line
 * naming itself, records the code as the thread's last error, and changes
 * nothing else: no output is written and no argument is checked.
 * acl/API_COVERAGE.md lists every function with its status.
 * ======================================================================== */

/* ---------------------------------------------------------------------------
 * Flags, enumerations and argument types
 * ------------------------------------------------------------------------- */

/* Event creation flags (aclrtCreateEventWithFlag, aclrtCreateEventExWithFlag).
 */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* Further stream creation flags (aclrtCreateStreamWithConfig). */
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U

/* Notify creation flags (aclrtCreateNotify). */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* Flags for exporting and importing a notify across processes. */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

/* Flags for exporting and importing device memory across processes. */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL

/* Flags for exporting a physical-memory handle as a shareable handle. */
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

/* Flags of aclrtHostRegisterV2. */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

/* Detail levels of aclmdlRIDebugJsonPrint. */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* Sizes and flags of memory-error records, IPC event handles and memory links.
 */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define ACL_IPC_EVENT_HANDLE_SIZE 64U
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

/* Values of the device attribute ACL_DEV_ATTR_HD_CONNECT_TYPE. */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* Flags of aclrtRecordEventWithFlag and aclrtStreamWaitEventWithFlag. */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* Argument type of aclrtSetTsDevice. */
typedef enum aclrtTsId {
  ACL_TS_ID_AICORE = 0,
  ACL_TS_ID_AIVECTOR = 1,
  ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/* Argument type of aclrtQueryEventWaitStatus. */
typedef enum aclrtEventWaitStatus {
  ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
  ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
  ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* Argument type of aclrtMemManagedAdvise. */
typedef enum aclrtMemManagedAdviseType {
  ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
  ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
  ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_SET_ACCESSED_BY,
  ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

/* Member type of aclrtMemManagedLocation. */
typedef enum aclrtMemManagedLocationType {
  ACL_MEM_LOCATIONTYPE_INVALID = 0,
  ACL_MEM_LOCATIONTYPE_DEVICE,
  ACL_MEM_LOCATIONTYPE_HOST,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;

/* Argument type of aclrtMemManagedAdvise, aclrtMemManagedPrefetchAsync,
 * aclrtMemManagedPrefetchBatchAsync. */
typedef struct aclrtMemManagedLocation {
  aclrtMemManagedLocationType type;
  int32_t id;
} aclrtMemManagedLocation;

/* Argument type of aclrtHostRegister. */
typedef enum {
  ACL_HOST_REGISTER_MAPPED = 0,
  ACL_HOST_REGISTER_IOMEMORY = 0x04,
  ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

/* Member type of aclrtMallocAttribute. */
typedef enum {
  ACL_RT_MEM_ATTR_RSV = 0,
  ACL_RT_MEM_ATTR_MODULE_ID,
  ACL_RT_MEM_ATTR_DEVICE_ID,
  ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

/* Member type of aclrtMallocAttribute. */
typedef union {
  uint16_t moduleId;
  uint32_t deviceId;
  uint32_t vaFlag;
  uint8_t rsv[8];
} aclrtMallocAttrValue;

/* Member type of aclrtMallocConfig. */
typedef struct {
  aclrtMallocAttrType attr;
  aclrtMallocAttrValue value;
} aclrtMallocAttribute;

/* Argument type of aclrtMallocWithCfg, aclrtMallocForTaskScheduler,
 * aclrtMallocHostWithCfg. */
typedef struct {
  aclrtMallocAttribute *attrs;
  size_t numAttrs;
} aclrtMallocConfig;

/* Argument type of aclrtIpcMemImportPidInterServer,
 * aclrtNotifySetImportPidInterServer. */
typedef struct {
  uint32_t sdid;
  int32_t *pid;
  size_t num;
} aclrtServerPid;

/* Part of the runtime interface; no function here takes it directly. */
enum aclrtMemPgType {
  NORMAL_PAGE_TYPE = 0U,
  HUGE_PAGE_TYPE,
  HUGE1G_PAGE_TYPE,
};

/* Part of the runtime interface; no function here takes it directly. */
enum aclrtMemType {
  HBM_TYPE = 0U,
  DDR_TYPE,
  P2P_HBM_TYPE,
  P2P_DDR_TYPE,
};

/* Values of the IPC memory attribute ACL_RT_IPC_MEM_ATTR_ACCESS_LINK. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

/* Argument type of aclrtIpcMemSetAttr. */
typedef enum {
  ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

/* Argument type of aclrtGetGroupInfoDetail. */
typedef enum aclrtGroupAttr {
  ACL_GROUP_AICORE_INT,
  ACL_GROUP_AIV_INT,
  ACL_GROUP_AIC_INT,
  ACL_GROUP_SDMANUM_INT,
  ACL_GROUP_ASQNUM_INT,
  ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

/* Argument type of aclrtSetDeviceSatMode, aclrtGetDeviceSatMode. */
typedef enum aclrtFloatOverflowMode {
  ACL_RT_OVERFLOW_MODE_SATURATION = 0,
  ACL_RT_OVERFLOW_MODE_INFNAN,
  ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

/* Argument type of aclrtSetStreamConfigOpt. */
typedef enum {
  ACL_RT_STREAM_WORK_ADDR_PTR = 0,
  ACL_RT_STREAM_WORK_SIZE,
  ACL_RT_STREAM_FLAG,
  ACL_RT_STREAM_PRIORITY,
} aclrtStreamConfigAttr;

/* Argument type of aclrtCreateStreamConfigHandle,
 * aclrtDestroyStreamConfigHandle, aclrtSetStreamConfigOpt and others. */
typedef struct aclrtStreamConfigHandle {
  void *workptr;
  size_t workSize;
  size_t flag;
  uint32_t priority;
} aclrtStreamConfigHandle;

/* Member type of aclrtUtilizationInfo. */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

/* Argument type of aclrtGetDeviceUtilizationRate. */
typedef struct aclrtUtilizationInfo {
  int32_t cubeUtilization;
  int32_t vectorUtilization;
  int32_t aicpuUtilization;
  int32_t memoryUtilization;
  aclrtUtilizationExtendInfo *utilizationExtend;
} aclrtUtilizationInfo;

/* Argument type of aclrtCreateGroupInfo, aclrtDestroyGroupInfo,
 * aclrtGetAllGroupInfo and others. */
typedef struct tagRtGroupInfo aclrtGroupInfo;

/* Argument type of aclrtGetTaskIdFromExceptionInfo,
 * aclrtGetStreamIdFromExceptionInfo, aclrtGetThreadIdFromExceptionInfo and
 * others. */
typedef struct rtExceptionInfo aclrtExceptionInfo;

/* Member type of aclrtMemLocation. */
typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED,
  ACL_MEM_LOCATION_TYPE_MANAGED,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

/* Argument type of aclrtMemGetAccess. */
typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

/* Argument type of aclrtPointerGetAttributes. */
typedef struct aclrtPtrAttributes {
  aclrtMemLocation location;
  uint32_t pageSize;
  uint32_t rsv[4];
} aclrtPtrAttributes;

/* Argument type of aclrtGetMemUsageInfo. */
typedef struct aclrtMemUsageInfo {
  char name[32];
  uint64_t curMemSize;
  uint64_t memPeakSize;
  size_t reserved[8];
} aclrtMemUsageInfo;

/* Argument type of aclrtMemManagedGetAttr, aclrtMemManagedGetAttrs. */
typedef enum aclrtMemManagedRangeAttribute {
  ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;

/* Member type of aclrtPhysicalMemProp. */
typedef enum aclrtMemAllocationType {
  ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

/* Argument type of aclrtMemExportToShareableHandle. */
typedef enum aclrtMemHandleType {
  ACL_MEM_HANDLE_TYPE_NONE = 0,
  ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

/* Argument type of aclrtMemExportToShareableHandleV2,
 * aclrtMemImportFromShareableHandleV2, aclrtMemSetPidToShareableHandleV2. */
typedef enum aclrtMemSharedHandleType {
  ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

/* Part of the runtime interface; no function here takes it directly. */
typedef struct aclrtMemFabricHandle {
  uint8_t data[128];
} aclrtMemFabricHandle;

/* Argument type of aclrtMallocPhysical, aclrtMemGetAllocationGranularity,
 * aclrtMemGetAllocationPropertiesFromHandle. */
typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

/* Argument type of aclrtMemGetAllocationGranularity. */
typedef enum aclrtMemGranularityOptions {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

/* Argument type of aclrtMallocPhysical, aclrtFreePhysical, aclrtMapMem and
 * others. */
typedef void *aclrtDrvMemHandle;

/* Argument type of aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister, aclrtExceptionInfoCallbackUnregister. */
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/* Argument type of aclrtBinarySetExceptionCallback. */
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo,
                                         void *userData);

/* Argument type of aclrtCreateBinary, aclrtDestroyBinary, aclrtBinaryLoad. */
typedef void *aclrtBinary;

/* Argument type of aclrtBinarySetExceptionCallback, aclrtBinaryLoad,
 * aclrtBinaryUnLoad and others. */
typedef void *aclrtBinHandle;

/* Argument type of aclrtGetFuncHandleFromExceptionInfo, aclrtBinaryGetFunction,
 * aclrtLaunchKernel and others. */
typedef void *aclrtFuncHandle;

/* Argument type of aclrtKernelArgsInit, aclrtKernelArgsInitByUserMem,
 * aclrtKernelArgsAppend and others. */
typedef void *aclrtArgsHandle;

/* Argument type of aclrtKernelArgsAppend, aclrtKernelArgsAppendPlaceHolder,
 * aclrtKernelArgsGetPlaceHolderBuffer and others. */
typedef void *aclrtParamHandle;

/* Argument type of aclmdlRIUpdate, aclmdlRICaptureGetInfo, aclmdlRICaptureEnd
 * and others. */
typedef void *aclmdlRI;

/* Argument type of aclmdlRICaptureBegin, aclmdlRICaptureThreadExchangeMode,
 * aclmdlRICaptureToModelRIBegin. */
typedef enum {
  ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
  ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

/* Argument type of aclmdlRICaptureGetInfo. */
typedef enum {
  ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
  ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

/* Most uncorrectable-error ranges reported at once. */
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128

/* Argument type of aclrtCmoAsync, aclrtCmoAsyncWithBarrier,
 * aclrtCmoAsyncWithDesc. */
typedef enum aclrtCmoType {
  ACL_RT_CMO_TYPE_PREFETCH = 0,
  ACL_RT_CMO_TYPE_WRITEBACK,
  ACL_RT_CMO_TYPE_INVALID,
  ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

/* Kernel binary magic numbers (ACL_RT_BINARY_LOAD_OPT_MAGIC). */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/* Member type of aclrtBinaryLoadOption. */
typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

/* Member type of aclrtBinaryLoadOption. */
typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

/* Member type of aclrtBinaryLoadOptions. */
typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

/* Argument type of aclrtBinaryLoadFromFile, aclrtBinaryLoadFromData. */
typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption *options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

/* Member type of aclrtLaunchKernelAttrValue. */
typedef enum {
  ACL_RT_ENGINE_TYPE_AIC = 0,
  ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

/* Argument type of aclrtLaunchSIMTKernelWithArgsArray,
 * aclrtLaunchSIMTKernelWithHostArgs. */
#ifndef __BISHENG_CCEC__
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
#if __cplusplus >= 201103L
  constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1)
      : x(vx), y(vy), z(vz) {}
#else
  dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1)
      : x(vx), y(vy), z(vz) {}
#endif
#endif
} dim3;
#endif

/* Argument type of aclmdlRIKernelTaskGetAttribute. */
typedef enum aclrtLaunchKernelAttrId {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
  ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE ACL_DEPRECATED = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
  ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

/* Member type of aclrtLaunchKernelAttrValue. */
typedef struct {
  uint32_t timeoutLow;
  uint32_t timeoutHigh;
} aclrtTimeoutUs;

/* Argument type of aclmdlRIKernelTaskGetAttribute. */
typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  ACL_DEPRECATED
  uint32_t localMemorySize;
  uint32_t dynUBufSize;
  aclrtEngineType engineType;
  uint32_t blockDimOffset;
  uint8_t isBlockTaskPrefetch;
  uint8_t isDataDump;
  uint16_t timeout;
  aclrtTimeoutUs timeoutUs;
  uint8_t enableProfiling;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

/* Member type of aclrtLaunchKernelCfg. */
typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

/* Argument type of aclrtLaunchKernelWithConfig, aclrtLaunchKernelV2,
 * aclrtLaunchKernelWithHostArgs and others. */
typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr *attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

/* Argument type of aclrtSetStreamAttribute, aclrtGetStreamAttribute. */
typedef enum {
  ACL_STREAM_ATTR_FAILURE_MODE = 1,
  ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
  ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
  ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
  ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* Argument type of aclrtSetStreamAttribute, aclrtGetStreamAttribute. */
typedef union {
  uint64_t failureMode;
  uint32_t overflowSwitch;
  uint32_t userCustomTag;
  uint32_t cacheOpInfoSwitch;
  uint32_t streamPriority;
  uint32_t reserve[4];
} aclrtStreamAttrValue;

/* Argument type of aclmdlRITaskGetType. */
typedef enum aclmdlRITaskType {
  ACL_MODEL_RI_TASK_DEFAULT,
  ACL_MODEL_RI_TASK_KERNEL,
  ACL_MODEL_RI_TASK_EVENT_RECORD,
  ACL_MODEL_RI_TASK_EVENT_WAIT,
  ACL_MODEL_RI_TASK_EVENT_RESET,
  ACL_MODEL_RI_TASK_VALUE_WRITE,
  ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIKernelTaskParams {
  aclrtFuncHandle funcHandle;
  aclrtLaunchKernelCfg *cfg;
  void *args;
  uint32_t isHostArgs;
  size_t argsSize;
  uint32_t numBlocks;
  uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIEventRecordTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIEventWaitTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIEventResetTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIValueWriteTaskParams {
  void *devAddr;
  uint64_t value;
} aclmdlRIValueWriteTaskParams;

/* Member type of aclmdlRITaskParams. */
typedef struct aclmdlRIValueWaitTaskParams {
  void *devAddr;
  uint64_t value;
  uint32_t flag;
} aclmdlRIValueWaitTaskParams;

/* Argument type of aclmdlRITaskGetParams, aclmdlRITaskSetParams. */
typedef struct aclmdlRITaskParams {
  aclmdlRITaskType type;
  uint32_t rsv0[3];
  aclrtTaskGrp taskGrp;
  void *opInfoPtr;
  size_t opInfoSize;
  uint8_t rsv1[32];
#if defined(__GNUC__) || defined(__clang__)
  __extension__
#endif
      union {
    uint8_t rsv2[128];
    struct aclmdlRIKernelTaskParams kernelTaskParams;
    struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
    struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
    struct aclmdlRIEventResetTaskParams eventResetTaskParams;
    struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
    struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
  };
} aclmdlRITaskParams;

/* Argument type of aclrtGetDeviceInfo. */
typedef enum {
  ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
  ACL_DEV_ATTR_WARP_SIZE = 202,
  ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
  ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED = 204,
  ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
  ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
  ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
  ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
  ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
  ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
  ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
  ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
  ACL_DEV_ATTR_SMP_ID = 401U,
  ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
  ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,
  ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
  ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
  ACL_DEV_ATTR_SUPER_POD_ID = 405U,
  ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
  ACL_DEV_ATTR_MAINBOARD_ID = 407U,
  ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
  ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
  ACL_DEV_ATTR_IS_VIRTUAL = 501U,
  ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

/* Values of the device attribute ACL_DEV_ATTR_DEVICE_FORM_FACTOR. */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* Argument type of aclrtReduceAsync. */
typedef enum {
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
  ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* Argument type of aclrtGetDeviceResLimit, aclrtSetDeviceResLimit,
 * aclrtGetStreamResLimit and others. */
typedef enum {
  ACL_RT_DEV_RES_CUBE_CORE = 0,
  ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;

/* Argument type of aclrtSwitchStream. */
typedef enum {
  ACL_RT_EQUAL = 0,
  ACL_RT_NOT_EQUAL,
  ACL_RT_GREATER,
  ACL_RT_GREATER_OR_EQUAL,
  ACL_RT_LESS,
  ACL_RT_LESS_OR_EQUAL
} aclrtCondition;

/* Argument type of aclrtSwitchStream. */
typedef enum {
  ACL_RT_SWITCH_INT32 = 0,
  ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

/* Member type of aclrtBarrierTaskInfo. */
typedef struct {
  aclrtCmoType cmoType;
  uint32_t barrierId;
} aclrtBarrierCmoInfo;

/* Most barriers in one aclrtBarrierTaskInfo. */
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

/* Argument type of aclrtCmoWaitBarrier. */
typedef struct {
  size_t barrierNum;
  aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

/* Link kinds reported by aclrtGetDevicesTopo (bit flags). */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

/* Argument type of aclrtMemcpyBatch, aclrtMemcpyBatchV2, aclrtMemcpyBatchAsync
 * and others. */
typedef struct {
  aclrtMemLocation dstLoc;
  aclrtMemLocation srcLoc;
  uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

/* Argument type of aclrtLaunchKernelWithHostArgs,
 * aclrtLaunchSIMTKernelWithHostArgs. */
typedef struct {
  uint32_t addrOffset;
  uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* Member type of aclrtDropoutBitmaskInfo, aclrtUniformDisInfo,
 * aclrtNormalDisInfo. */
typedef struct {
  uint8_t isAddr;
  uint8_t valueOrAddr[8];
  uint8_t size;
  uint8_t rsv[6];
} aclrtRandomParaInfo;

/* Member type of aclrtRandomNumFuncParaInfo. */
typedef struct {
  aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

/* Member type of aclrtRandomNumFuncParaInfo. */
typedef struct {
  aclrtRandomParaInfo min;
  aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

/* Member type of aclrtRandomNumFuncParaInfo. */
typedef struct {
  aclrtRandomParaInfo mean;
  aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

/* Member type of aclrtRandomNumFuncParaInfo. */
typedef enum {
  ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
  ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

/* Member type of aclrtRandomNumTaskInfo. */
typedef struct {
  aclrtRandomNumFuncType funcType;
  union {
    aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
    aclrtUniformDisInfo uniformDisInfo;
    aclrtNormalDisInfo normalDisInfo;
  } paramInfo;
} aclrtRandomNumFuncParaInfo;

/* Argument type of aclrtRandomNumAsync. */
typedef struct {
  aclDataType dataType;
  aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
  void *randomParaAddr;
  void *randomResultAddr;
  void *randomCounterAddr;
  aclrtRandomParaInfo randomSeed;
  aclrtRandomParaInfo randomNum;
  uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

/* Part of the runtime interface; no function here takes it directly. */
typedef enum {
  ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
  ACL_RT_DEVICE_TASK_ABORT_POST,
} aclrtDeviceTaskAbortStage;

/* Member type of aclrtTaskUpdateInfo. */
typedef enum {
  ACL_RT_UPDATE_RANDOM_TASK = 1,
  ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

/* Member type of aclrtUpdateTaskAttrVal. */
typedef struct {
  void *srcAddr;
  size_t size;
  uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

/* Member type of aclrtUpdateTaskAttrVal. */
typedef struct {
  void *binHandle;
  void *funcEntryAddr;
  void *blockDimAddr;
  uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

/* Member type of aclrtTaskUpdateInfo. */
typedef union {
  aclrtRandomTaskUpdateAttr randomTaskAttr;
  aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

/* Argument type of aclrtTaskUpdateAsync. */
typedef struct {
  aclrtUpdateTaskAttrId id;
  aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

/* Part of the runtime interface; no function here takes it directly. */
typedef enum {
  ACL_RT_DEVICE_STATE_SET_PRE = 0,
  ACL_RT_DEVICE_STATE_SET_POST,
  ACL_RT_DEVICE_STATE_RESET_PRE,
  ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

/* Argument type of aclrtRegDeviceStateCallback. */
typedef void (*aclrtDeviceStateCallback)(int32_t deviceId,
                                         aclrtDeviceState state, void *args);

/* Argument type of aclrtDeviceGetUuid. */
typedef struct aclrtUuid {
  char bytes[16];
} aclrtUuid;

/* Part of the runtime interface; no function here takes it directly. */
typedef enum {
  ACL_RT_STREAM_STATE_CREATE_POST = 1,
  ACL_RT_STREAM_STATE_DESTROY_PRE,
} aclrtStreamState;

/* Argument type of aclrtRegStreamStateCallback. */
typedef void (*aclrtStreamStateCallback)(aclrtStream stm,
                                         aclrtStreamState state, void *args);

/* Argument type of aclrtSetDeviceTaskAbortCallback. */
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId,
                                                aclrtDeviceTaskAbortStage stage,
                                                uint32_t timeout, void *args);

/* Argument type of aclrtGetFunctionAttribute. */
typedef enum {
  ACL_FUNC_ATTR_KERNEL_TYPE = 1,
  ACL_FUNC_ATTR_KERNEL_RATIO = 2,
  ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

/* Part of the runtime interface; no function here takes it directly. */
typedef enum {
  ACL_KERNEL_TYPE_AICORE = 0,
  ACL_KERNEL_TYPE_CUBE = 1,
  ACL_KERNEL_TYPE_VECTOR = 2,
  ACL_KERNEL_TYPE_MIX = 3,
  ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

/* Memory kinds tested by aclrtCheckMemType (bit flags). */
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

/* Member type of aclrtCntNotifyRecordInfo. */
typedef enum {
  ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
  ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
  ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

/* Argument type of aclrtCntNotifyRecord. */
typedef struct {
  aclrtCntNotifyRecordMode mode;
  uint32_t value;
} aclrtCntNotifyRecordInfo;

/* Member type of aclrtCntNotifyWaitInfo. */
typedef enum {
  ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
  ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
  ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

/* Argument type of aclrtCntNotifyWaitWithTimeout. */
typedef struct {
  aclrtCntNotifyWaitMode mode;
  uint32_t value;
  uint32_t timeout;
  uint8_t isClear;
  uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

/* Member type of aclrtMemAccessDesc. */
typedef enum {
  ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
  ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
  ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

/* Argument type of aclrtMemSetAccess. */
typedef struct {
  aclrtMemAccessFlags flags;
  aclrtMemLocation location;
  uint8_t rsv[12];
} aclrtMemAccessDesc;

/* Argument type of aclsysGetCANNVersion. */
typedef enum aclCANNPackageName {
  ACL_PKG_NAME_CANN,
  ACL_PKG_NAME_RUNTIME,
  ACL_PKG_NAME_COMPILER,
  ACL_PKG_NAME_HCCL,
  ACL_PKG_NAME_TOOLKIT,
  ACL_PKG_NAME_OPP,
  ACL_PKG_NAME_OPP_KERNEL,
  ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

/* Argument type of aclsysGetCANNVersion. */
typedef struct aclCANNPackageVersion {
  char version[ACL_PKG_VERSION_MAX_SIZE];
  char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
  char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/* Argument type of aclrtHostMemMapCapabilities. */
typedef enum {
  ACL_RT_HAC_TYPE_STARS = 0,
  ACL_RT_HAC_TYPE_AICPU,
  ACL_RT_HAC_TYPE_AIC,
  ACL_RT_HAC_TYPE_AIV,
  ACL_RT_HAC_TYPE_PCIEDMA,
  ACL_RT_HAC_TYPE_RDMA,
  ACL_RT_HAC_TYPE_SDMA,
  ACL_RT_HAC_TYPE_DVPP,
  ACL_RT_HAC_TYPE_UDMA,
  ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

/* Argument type of aclrtHostMemMapCapabilities. */
typedef enum {
  ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
  ACL_RT_HOST_MEM_MAP_SUPPORTED
} aclrtHostMemMapCapability;

/* Argument type of aclrtMemMapSetLink. */
typedef enum {
  ACL_RT_MEM_ACCESS_LINK_SIO = 0,
  ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
  ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
  ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

/* Argument type of aclrtIpcGetEventHandle, aclrtIpcOpenEventHandle. */
typedef struct aclrtIpcEventHandle {
  char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Part of the runtime interface; no function here takes it directly. */
struct MemAttrMapping {
  uint32_t pgType;
  uint32_t memType;
  bool isHostAlloc;
  aclrtMemAttr memAttr;
};

/* Part of the runtime interface; no function here takes it directly. */
typedef enum aclrtAtomicOperationCapability {
  ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
  ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
  ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2,
  ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
  ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
  ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

/* Argument type of aclrtDeviceGetHostAtomicCapabilities,
 * aclrtDeviceGetP2PAtomicCapabilities. */
typedef enum aclrtAtomicOperation {
  ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
  ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
  ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
  ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
  ACL_RT_ATOMIC_OPERATION_AND = 5,
  ACL_RT_ATOMIC_OPERATION_OR = 6,
  ACL_RT_ATOMIC_OPERATION_XOR = 7,
  ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
  ACL_RT_ATOMIC_OPERATION_CAS = 9,
  ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
  ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
  ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
  ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
  ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
  ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

/* Argument type of aclmdlRICondHandleCreate, aclmdlRICondHandleGetCondPtr. */
typedef void *aclmdlRICondHandle;

/* Argument type of aclmdlRICondHandleCreate. */
typedef enum {
  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

/* Member type of aclmdlRICondTaskParams. */
typedef enum {
  ACL_MODEL_RI_COND_TYPE_IF = 0,
  ACL_MODEL_RI_COND_TYPE_WHILE = 1,
  ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

/* Argument type of aclmdlRIAddCondTask. */
typedef struct tagAclmdlRICondTaskParams {
  aclmdlRICondHandle handle;
  aclmdlRICondTaskType type;
  uint32_t size;
  aclmdlRI *modelRIArray;
} aclmdlRICondTaskParams;

/* Argument type of aclrtDeviceSetLimit, aclrtDeviceGetLimit. */
typedef enum aclrtDeviceLimit {
  ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
  ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
  ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
  ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
  ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

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
 * buffer, memory and L2 sizes, chip id, architecture; DESIGN.md 5.12).
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
 * and float scalars; no DMA or SIMD atomics; DESIGN.md 5.12). Writes nothing
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

/* ---------------------------------------------------------------------------
 * Virtual memory management and inter-process sharing
 * ------------------------------------------------------------------------- */

/* Reserves size bytes (rounded up to the 2 MiB granularity) of the current
 * device's virtual address space, at expectPtr when not NULL (2 MiB aligned;
 * 107000 when taken). alignment must be 0; flags 0 or 1 (2 MiB pages either
 * way). Nothing is accessible until aclrtMapMem maps physical memory there.
 * A reservation is address space, not memory: aclrtGetMemInfo is unchanged. */
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
 * the granularity); the mapping device gets read-write access. One physical
 * allocation may be mapped at several addresses: each shows the same bytes.
 * Copies, memsets, host functions and stream tasks use mapped addresses as
 * they use aclrtMalloc memory, across adjacent mappings of a reservation. */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size,
                                         size_t offset,
                                         aclrtDrvMemHandle handle,
                                         uint64_t flags);
/* Unmaps the mapping starting at virPtr; the reservation stays. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
/* As aclrtMapMem, with no access right recorded for the mapping device
 * (aclrtMemSetAccess grants it). */
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
/* Records the access rights of devices to whole mappings covering
 * [virPtr, virPtr + size). The simulator records them (aclrtMemGetAccess,
 * the snapshot) but does not enforce them. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size,
                                               aclrtMemAccessDesc *desc,
                                               size_t count);
/* The access right of location to the mapping holding virPtr
 * (ACL_RT_MEM_ACCESS_FLAGS_NONE when none was recorded). */
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
 * end; the stream stays usable. */
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
 * later tasks run as usual. Not the default stream (100000). */
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

#ifdef __cplusplus
}
#endif

/* The allocator interface uses aclrtStream, declared above. */
#include "acl/acl_rt_allocator.h"

#endif /* ASCENDCL_ACL_ACL_RT_H_ */
