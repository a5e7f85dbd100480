// The lifecycle and snapshot fuzzer's operations: each makes one call (or a
// few) through the C API and checks what it returns, the callbacks it ran
// and the process state against the model (snapshot_lifecycle_model.h).
// Those that read arguments take them from the input.
#ifndef TESTING_FUZZ_SNAPSHOT_LIFECYCLE_OPS_H_
#define TESTING_FUZZ_SNAPSHOT_LIFECYCLE_OPS_H_

#include <cstddef>
#include <cstdint>

#include "testing/fuzz/snapshot_lifecycle_model.h"

namespace snapshot_lifecycle_fuzz {

// Lifecycle.
void OpInit();
void OpFinalize();
void OpFinalizeReference(bool with_count);
void OpLifecycleRegister(bool init, Input& in);
void OpLifecycleUnregister(bool init, Input& in);
void LifecycleUnregister(bool init, aclRegisterCallbackType type, int fn_sel);

// Devices and their buffer (one per device). Gated calls: only while the
// process is RUNNING.
void SetDevice(int32_t d);
void ResetDevice(int32_t d, bool force);
void Malloc(int32_t d, size_t size);
void Write(int32_t d, uint8_t seed);  // full-buffer H2D copy
void ReadBack(int32_t d);             // full-buffer D2H copy, checked
void Free(int32_t d);

// The snapshot.
void Lock();
void Backup();
void Restore();
void Unlock();
void OpBadSnapshotParameters(uint8_t which);
void OpInjectFault(Input& in);
void OpStageRegister(Input& in);
void OpStageUnregister(Input& in);
void StageUnregister(int stage, int fn_sel);

}  // namespace snapshot_lifecycle_fuzz

#endif  // TESTING_FUZZ_SNAPSHOT_LIFECYCLE_OPS_H_
