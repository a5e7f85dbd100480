#include "snapshot/builtin_participants.h"

#include <utility>

#include "device/base/status_macros.h"

namespace ascend::snapshot {

absl::Status RegisterBuiltinParticipants(ParticipantRegistry& registry,
                                         rt::Runtime& runtime,
                                         const MemoryOptions& memory) {
  ASCEND_RETURN_IF_ERROR(registry.Register(MakeDeviceParticipant(runtime)));
  // The families' participants go with the streams' ids and around the
  // memory contents, in the order the families were registered
  // (runtime/process/families.cc): event and notify ids with the streams',
  // page tables before the contents, models and kernel binaries after them.
  using Stage = rt::FamilyRegistration::RestoreStage;
  auto register_families = [&](Stage stage) -> absl::Status {
    for (const rt::FamilyRegistration& family :
         runtime.family_registrations()) {
      if (family.participants == nullptr || family.stage != stage) continue;
      for (auto& participant : family.participants(runtime)) {
        ASCEND_RETURN_IF_ERROR(registry.Register(std::move(participant)));
      }
    }
    return absl::OkStatus();
  };
  ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeStreamParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(register_families(Stage::kWithStreams));
  ASCEND_RETURN_IF_ERROR(registry.Register(MakeDriverParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(register_families(Stage::kBeforeMemory));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeAllocationsParticipant(runtime)));
  ASCEND_RETURN_IF_ERROR(
      registry.Register(MakeMemoryParticipant(runtime, memory)));
  ASCEND_RETURN_IF_ERROR(register_families(Stage::kAfterMemory));
  return absl::OkStatus();
}

}  // namespace ascend::snapshot
