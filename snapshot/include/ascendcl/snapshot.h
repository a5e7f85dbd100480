/*
 * Our own extensions of the process snapshot (aclrtSnapShotProcess* in
 * acl/acl_rt.h). Not part of CANN: code that uses them does not build
 * against CANN's headers.
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
 * Describes the last successful aclrtSnapShotProcessBackup or
 * aclrtSnapShotProcessRestore of this process as one JSON object, written
 * to `json` with its terminating NUL. A failed operation leaves the report
 * of the one before.
 *
 * Keys:
 *   "operation"        "backup", "restore", or "none" before the first.
 *   "mode"             "incremental" when device memory not written since
 *                      the previous Backup (or, for a Restore, since the
 *                      Backup restored) was carried over instead of copied;
 *                      else "full". The first Backup of a process, a Backup
 *                      without write tracking and a Restore after the
 *                      device lost its memory are full.
 *   "write_tracking"   the mechanism that told which device memory was
 *                      written, or "none" (every Backup is then full).
 *   "bytes_copied"     bytes of device memory copied between device and
 *                      host.
 *   "bytes_unchanged"  bytes of saved device memory not copied because
 *                      nothing wrote them.
 *   "host_bytes"       host memory the backup holds for device contents
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
