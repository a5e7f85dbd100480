// The registry of snapshot participants (runtime/snapshot_participant.h), in
// restore order. Filled explicitly at start-up, like the backend registry
// (snapshot/builtin_participants.h registers the built-in ones); there is no
// static-initialiser registration.
//
//   ParticipantRegistry registry;
//   ASCEND_RETURN_IF_ERROR(registry.Register(MakeDeviceParticipant(rt)));
//   ASCEND_RETURN_IF_ERROR(registry.Register(rt::MakeStreamParticipant(rt)));
//   for (rt::SnapshotParticipant* p : registry.participants()) ...
//
// Not synchronised: filled before use, then only read.
#ifndef ASCENDCL_SNAPSHOT_PARTICIPANT_REGISTRY_H_
#define ASCENDCL_SNAPSHOT_PARTICIPANT_REGISTRY_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "runtime/snapshot_participant.h"

namespace ascend::snapshot {

class ParticipantRegistry {
 public:
  ParticipantRegistry() = default;
  ParticipantRegistry(const ParticipantRegistry&) = delete;
  ParticipantRegistry& operator=(const ParticipantRegistry&) = delete;

  // Appends `participant` (restored after every participant registered
  // before it). kInvalidArgument for a null participant or a malformed name,
  // kAlreadyExists for a name taken; the registry is then unchanged.
  absl::Status Register(std::unique_ptr<rt::SnapshotParticipant> participant);

  // Inserts `participant` right after the one named `after` (kNotFound when
  // there is none), with Register's checks.
  absl::Status RegisterAfter(
      absl::string_view after,
      std::unique_ptr<rt::SnapshotParticipant> participant);

  // In registration (= restore) order.
  std::vector<rt::SnapshotParticipant*> participants() const;
  // The participant named `name`, or null.
  rt::SnapshotParticipant* Find(absl::string_view name) const;
  size_t size() const { return participants_.size(); }

 private:
  absl::Status Check(const rt::SnapshotParticipant* participant) const;

  std::vector<std::unique_ptr<rt::SnapshotParticipant>> participants_;
};

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_PARTICIPANT_REGISTRY_H_
