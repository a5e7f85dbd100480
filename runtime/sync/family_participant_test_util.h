// Test helper of the sync family's runtime-level tests: a participant from
// the family's registration record (the snapshot registers the same ones).
#ifndef ASCENDCL_RUNTIME_SYNC_FAMILY_PARTICIPANT_TEST_UTIL_H_
#define ASCENDCL_RUNTIME_SYNC_FAMILY_PARTICIPANT_TEST_UTIL_H_

#include <memory>
#include <utility>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

// The participant named `name`; null (and a test failure) when absent.
inline std::unique_ptr<SnapshotParticipant> FamilyParticipant(
    Runtime& runtime, absl::string_view name) {
  for (auto& participant : SyncFamily().participants(runtime)) {
    if (participant->name() == name) return std::move(participant);
  }
  ADD_FAILURE() << "the sync family has no participant " << name;
  return nullptr;
}

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_SYNC_FAMILY_PARTICIPANT_TEST_UTIL_H_
