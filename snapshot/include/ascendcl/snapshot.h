/*
 * Our own extensions of the process snapshot (aclrtSnapShotProcess* in
 * acl/acl_rt.h). Not part of CANN: code that uses them does not build
 * against CANN's headers.
 *
 *   ascendclSnapshotPrecopy();        // while the application runs on
 *   aclrtSnapShotProcessLock(pid, NULL);
 *   aclrtSnapShotProcessBackup(pid, NULL);  // copies what changed since
 *
 *   char json[1024];
 *   size_t needed = 0;
 *   if (ascendclSnapshotGetReport(json, sizeof json, &needed) == ACL_SUCCESS)
 *     puts(json);
 */
#ifndef ASCENDCL_SNAPSHOT_H_
#define ASCENDCL_SNAPSHOT_H_

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Pre-copy: copies the device memory of every open device to host memory
 * while the application keeps running (streams are not drained, no call is
 * blocked), and returns when the copy is done. The next
 * aclrtSnapShotProcessLock + aclrtSnapShotProcessBackup then copies only
 * what was written after the pre-copy began, so the locked window costs
 * what changed. A second pre-copy copies only what was written since the
 * first (or since the last Backup).
 *
 * The host memory it holds becomes part of the next Backup's image, is
 * replaced by the next pre-copy, and is released when its device is reset
 * and at aclFinalize. A pre-copy not followed by a Backup costs nothing
 * later. A Lock called meanwhile waits for the pre-copy to finish.
 *
 * Returns ACL_SUCCESS; ACL_ERROR_SNAPSHOT_BACKUP_FAILED (507908), changing
 * nothing, when the process is not RUNNING (locked or backed up, as for a
 * Backup in the wrong state) or when called from a stage callback;
 * ACL_ERROR_RT_CONTEXT_NULL (107002) when no device is open;
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) when the device cannot tell
 * which of its memory was written (no write tracking on this machine or
 * backend, or ASCENDCL_SNAPSHOT_INCREMENTAL=0): a pre-copy would save
 * nothing a Backup could use.
 */
aclError ascendclSnapshotPrecopy(void);

/*
 * Describes the last successful aclrtSnapShotProcessBackup,
 * aclrtSnapShotProcessRestore or ascendclSnapshotPrecopy of this process as
 * one JSON object, written to `json` with its terminating NUL. A failed
 * operation leaves the report of the one before.
 *
 * Keys:
 *   "operation"        "backup", "restore", "precopy", or "none" before the
 *                      first.
 *   "mode"             "incremental" when device memory not written since
 *                      the previous Backup or pre-copy (or, for a Restore,
 *                      since the Backup restored) was carried over instead
 *                      of copied;
 *                      else "full". The first Backup of a process, a Backup
 *                      without write tracking and a Restore after the
 *                      device lost its memory are full.
 *   "write_tracking"   the mechanism that told which device memory was
 *                      written, or "none" (every Backup is then full).
 *   "bytes_copied"     bytes of device memory copied between device and
 *                      host.
 *   "bytes_unchanged"  bytes of saved device memory not copied because
 *                      nothing wrote them.
 *   "bytes_in_place"   of "bytes_copied", those a Backup copied into the
 *                      host memory the previous capture held, where they
 *                      were (its image was released by the Unlock, so
 *                      nothing else reads that memory); 0 for a full Backup.
 *   "plan"             which plan ran and why, as a sentence starting
 *                      "full: " or "incremental: " ("" for "none"; several
 *                      devices with different plans: joined with "; ").
 *   "host_bytes"       host memory the backup (or pre-copy) holds for
 *                      device contents
 *                      (pieces carried over count once, in the buffer they
 *                      share with the previous backup).
 *   "duration_us"      the operation's duration in microseconds, stage
 *                      callbacks excluded.
 *   "participants"     one {"name", "duration_us", "bytes"} object per
 *                      snapshot participant (kind of state saved), in
 *                      restore order; "bytes" are the device bytes it
 *                      copied, summed over devices.
 *
 * `needed` receives the size the report needs, NUL included. Returns
 * ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID (107000) when `needed` is NULL,
 * or when `json` is NULL or `size` is smaller than *needed (nothing is
 * written to `json` then, and *needed says how much to pass).
 */
aclError ascendclSnapshotGetReport(char *json, size_t size, size_t *needed);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_SNAPSHOT_H_ */
