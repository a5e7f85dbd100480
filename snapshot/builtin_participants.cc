#include "snapshot/builtin_participants.h"

#include "device/base/status_macros.h"
#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"

namespace ascend::snapshot {

absl::Status RegisterBuiltinParticipants(ParticipantRegistry& registry,
                                         rt::Runtime& runtime,
                                         const MemoryOptions& memory) {
  ASCEND_RETURN_IF_ERROR(registry.Register(MakeDeviceParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeStreamParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeEventParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeNotifyParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(rt::MakeCntNotifyParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(registry.Register(MakeDriverParticipant(runtime)));
  // Page tables before contents: reservations, physical memory, mappings
  // (the memory family's; a runtime built without it has none).
  if (rt::Memory* family = rt::Memory::Of(runtime)) {
    ASCEND_RETURN_IF_ERROR(registry.Register(family->vmm().MakeParticipant()));
  }
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeAllocationsParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeMemoryParticipant(runtime, memory)));
  // Models and captured graphs, then kernel binaries (DESIGN.md §4.12).
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeModelParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeKernelParticipant(runtime)));
  return absl::OkStatus();
}

}  // namespace ascend::snapshot
