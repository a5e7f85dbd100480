#include "snapshot/participant_registry.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace ascend::snapshot {
namespace {

bool ValidName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!absl::ascii_islower(c) && !absl::ascii_isdigit(c) && c != '_' &&
        c != '.') {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::Status ParticipantRegistry::Register(
    std::unique_ptr<rt::SnapshotParticipant> participant) {
  absl::Status valid = Check(participant.get());
  if (!valid.ok()) return valid;
  participants_.push_back(std::move(participant));
  return absl::OkStatus();
}

absl::Status ParticipantRegistry::RegisterAfter(
    absl::string_view after,
    std::unique_ptr<rt::SnapshotParticipant> participant) {
  absl::Status valid = Check(participant.get());
  if (!valid.ok()) return valid;
  for (auto it = participants_.begin(); it != participants_.end(); ++it) {
    if ((*it)->name() == after) {
      participants_.insert(it + 1, std::move(participant));
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError(
      absl::StrCat("no snapshot participant named \"", after, "\""));
}

absl::Status ParticipantRegistry::Check(
    const rt::SnapshotParticipant* participant) const {
  if (participant == nullptr) {
    return absl::InvalidArgumentError("null snapshot participant");
  }
  const absl::string_view name = participant->name();
  if (!ValidName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "snapshot participant name \"", name, "\" is not [a-z0-9_.]+"));
  }
  if (Find(name) != nullptr) {
    return absl::AlreadyExistsError(absl::StrCat(
        "a snapshot participant named \"", name, "\" is registered already"));
  }
  return absl::OkStatus();
}

std::vector<rt::SnapshotParticipant*> ParticipantRegistry::participants()
    const {
  std::vector<rt::SnapshotParticipant*> list;
  list.reserve(participants_.size());
  for (const auto& p : participants_) list.push_back(p.get());
  return list;
}

rt::SnapshotParticipant* ParticipantRegistry::Find(
    absl::string_view name) const {
  for (const auto& p : participants_) {
    if (p->name() == name) return p.get();
  }
  return nullptr;
}

}  // namespace ascend::snapshot
