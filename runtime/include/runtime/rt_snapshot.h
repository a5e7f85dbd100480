/*
 * RT-layer process snapshot API. The ACL functions aclrtSnapShot* forward to
 * these after checking their pid/reserve/args parameters; results are the same
 * numeric codes as ACL (see acl/error_codes/rt_error_codes.h).
 *
 * State machine (RUNNING 0 -> LOCKED 1 -> BACKED_UP 2):
 *   Lock    RUNNING -> LOCKED     else 507906 (LOCK_PRE callbacks run first)
 *   Backup  LOCKED -> BACKED_UP   else 507908 (failure: stays LOCKED)
 *   Restore BACKED_UP -> LOCKED   else 507909 (failure: stays BACKED_UP)
 *   Unlock  LOCKED|BACKED_UP -> RUNNING, else 507907
 * Every resource-modifying runtime call blocks while the state is not RUNNING.
 * Thread safety: all functions may be called from any thread.
 */
#ifndef ASCENDCL_RUNTIME_RT_SNAPSHOT_H_
#define ASCENDCL_RUNTIME_RT_SNAPSHOT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RTS_API __attribute__((visibility("default")))
#else
#define RTS_API
#endif

typedef int32_t rtError_t;

typedef enum rtProcessState {
  RT_PROCESS_STATE_RUNNING = 0,
  RT_PROCESS_STATE_LOCKED = 1,
  RT_PROCESS_STATE_BACKED_UP = 2,
  RT_PROCESS_STATE_MAX = 3
} rtProcessState;

typedef enum rtSnapShotStage {
  RT_SNAPSHOT_LOCK_PRE = 0,
  RT_SNAPSHOT_BACKUP_PRE = 1,
  RT_SNAPSHOT_BACKUP_POST = 2,
  RT_SNAPSHOT_RESTORE_PRE = 3,
  RT_SNAPSHOT_RESTORE_POST = 4,
  RT_SNAPSHOT_UNLOCK_POST = 5
} rtSnapShotStage;

/* Return 0 for success. devId is the logical device id (aclrtSetDevice's). */
typedef uint32_t (*rtSnapShotCallBack)(int32_t devId, void *args);

/* RUNNING -> LOCKED; waits (by notification, ACL_SNAPSHOT_TIMEOUT_MS, default
 * 60000) for background threads to park and in-flight calls to finish.
 * 507906 not RUNNING; 507905 timeout (rolled back to RUNNING); 507912. */
RTS_API rtError_t rtSnapShotProcessLock(void);
/* LOCKED|BACKED_UP -> RUNNING, then UNLOCK_POST callbacks. 507907; 507912. */
RTS_API rtError_t rtSnapShotProcessUnlock(void);
/* Never blocks; callable from stage callbacks. 107000 for NULL. */
RTS_API rtError_t rtSnapShotProcessGetState(rtProcessState *state);
/* LOCKED -> BACKED_UP. 507908 wrong state or failed work; 107002 no open
 * device; 507912 callback failure. */
RTS_API rtError_t rtSnapShotProcessBackup(void);
/* BACKED_UP -> LOCKED. 507909 wrong state or failed/corrupt restore (state
 * stays BACKED_UP, backup kept); 507912 callback failure. */
RTS_API rtError_t rtSnapShotProcessRestore(void);
/* 107000 bad stage or NULL; 507913 (stage, callback) already registered. The
 * args pointer is stored, not owned. */
RTS_API rtError_t rtSnapShotCallbackRegister(rtSnapShotStage stage,
                                             rtSnapShotCallBack callback,
                                             void *args);
/* 107000 bad stage, NULL, or not registered. */
RTS_API rtError_t rtSnapShotCallbackUnregister(rtSnapShotStage stage,
                                               rtSnapShotCallBack callback);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_RUNTIME_RT_SNAPSHOT_H_ */
