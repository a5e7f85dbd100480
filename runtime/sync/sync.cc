// The synchronisation family's registration and snapshot participants.
#include "runtime/sync/sync.h"

#include <memory>

#include "runtime/id_participant.h"

namespace ascend::rt {

Sync* Sync::Of(const Runtime& runtime) { return runtime.family<Sync>(); }

FamilyRegistration SyncFamily() {
  return {"sync", &FamilyIndex<Sync>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<Sync>(runtime);
          },
          // The ids the objects hold and their host-side state: record
          // counts, pending records, counters (DESIGN.md §4.12).
          [](Runtime& runtime) {
            FamilyRegistration::Participants participants;
            participants.push_back(
                std::make_unique<internal::IdParticipant<Event>>(runtime));
            participants.push_back(
                std::make_unique<internal::IdParticipant<Notify>>(runtime));
            participants.push_back(
                std::make_unique<internal::IdParticipant<CntNotify>>(runtime));
            return participants;
          },
          FamilyRegistration::RestoreStage::kWithStreams};
}

}  // namespace ascend::rt
