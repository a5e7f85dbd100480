// Communicators in a process snapshot (DESIGN.md §5.27), through CANN's
// public stage callbacks (aclrtSnapShotCallbackRegister), as a library
// above the runtime takes part. A communicator's state is host state that a
// device's memory loss does not touch, and Backup has drained every stream
// (so no operation is half done); what must match the device memory saved
// is the sequence that pairs operations among ranks. BACKUP_POST records,
// per device, each communicator's sequence numbers and asynchronous error;
// RESTORE_POST puts them back, so ranks that all restored the same step
// pair their next operations as they did after it.
#ifndef ASCENDCL_HCCL_CORE_SNAPSHOT_H_
#define ASCENDCL_HCCL_CORE_SNAPSHOT_H_

namespace ascend::hccl {

// Registers the stage callbacks once per process (on the first
// communicator).
void RegisterSnapshotCallbacks();

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_SNAPSHOT_H_
