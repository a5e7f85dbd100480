// The built-in snapshot participants and their registration, in the
// reference's restore order (DESIGN.md §4.12):
//
//   device       re-opens each device: contents and ids are dropped, the
//                addresses of its allocations stay reserved
//   stream       stream ids                      (runtime/stream.cc)
//   <families>   the participants of the runtime's families whose stage is
//                kWithStreams ("event": ids and record state, "notify": ids
//                and pending records, "cnt_notify": ids and values, from
//                runtime/sync)
//   driver       driver-held process resources (npu: halProcessResBackup /
//                halProcessResRestore; nothing on sim), process scope
//   <families>   the participants of the runtime's families whose stage is
//                kBeforeMemory, in registration order ("vmm": reservations,
//                physical memory, mappings)
//   allocations  every allocation back at its address, on every device,
//                before any data is copied
//   memory       allocation contents: chunked, parallel, verified copies
//   <families>   the participants whose stage is kAfterMemory ("models",
//                then "kernel_binaries")
//
// A family's participant comes with its registration record
// (FamilyRegistration in runtime/family.h): adding a family adds no line
// here.
#ifndef ASCENDCL_SNAPSHOT_BUILTIN_PARTICIPANTS_H_
#define ASCENDCL_SNAPSHOT_BUILTIN_PARTICIPANTS_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"
#include "snapshot/memory_participant.h"
#include "snapshot/participant_registry.h"

namespace ascend::snapshot {

std::unique_ptr<rt::SnapshotParticipant> MakeDeviceParticipant(
    rt::Runtime& runtime);
std::unique_ptr<rt::SnapshotParticipant> MakeDriverParticipant(
    rt::Runtime& runtime);

// Registers every built-in participant, in order, into an empty `registry`.
absl::Status RegisterBuiltinParticipants(ParticipantRegistry& registry,
                                         rt::Runtime& runtime,
                                         const MemoryOptions& memory);

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_BUILTIN_PARTICIPANTS_H_
