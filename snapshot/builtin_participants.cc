#include "snapshot/builtin_participants.h"

#include "device/base/status_macros.h"

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
  // The families' participants around the memory contents, in the order
  // the families were registered (runtime/process/families.cc): page tables
  // before the contents, models and kernel binaries after them.
  using Stage = rt::FamilyRegistration::RestoreStage;
  auto register_families = [&](Stage stage) -> absl::Status {
    for (const rt::FamilyRegistration& family :
         runtime.family_registrations()) {
      if (family.participant == nullptr || family.stage != stage) continue;
      ASCEND_RETURN_IF_ERROR(registry.Register(family.participant(runtime)));
    }
    return absl::OkStatus();
  };
  ASCEND_RETURN_IF_ERROR(register_families(Stage::kBeforeMemory));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeAllocationsParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeMemoryParticipant(runtime, memory)));
  ASCEND_RETURN_IF_ERROR(register_families(Stage::kAfterMemory));
  return absl::OkStatus();
}

}  // namespace ascend::snapshot
