// Test helper: a snapshot participant that records what is asked of it, for
// the registry, image and coordinator tests.
#ifndef ASCENDCL_SNAPSHOT_TESTING_PARTICIPANTS_H_
#define ASCENDCL_SNAPSHOT_TESTING_PARTICIPANTS_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/snapshot_participant.h"

namespace ascend::snapshot::testing {

// Calls as "save <name> <device>" / "restore <name> <device>".
using CallLog = std::vector<std::string>;

class RecordingParticipant final : public rt::SnapshotParticipant {
 public:
  struct Behaviour {
    Scope scope = Scope::kDevice;
    // Save returns *save_result when it is not OK (shared so a test can
    // change it after registration).
    std::shared_ptr<absl::Status> save_result;
    std::shared_ptr<int> restore_fails;  // restores that fail first
    absl::Status restore_failure = absl::DataLossError("restore failed");
    uint64_t bytes = 0;
  };
  RecordingParticipant(std::string name, CallLog* log, Behaviour behaviour)
      : name_(std::move(name)), log_(log), behaviour_(std::move(behaviour)) {
    if (!behaviour_.restore_fails) {
      behaviour_.restore_fails = std::make_shared<int>(0);
    }
    if (!behaviour_.save_result) {
      behaviour_.save_result = std::make_shared<absl::Status>();
    }
  }
  RecordingParticipant(std::string name, CallLog* log)
      : RecordingParticipant(std::move(name), log, Behaviour{}) {}

  absl::string_view name() const override { return name_; }
  Scope scope() const override { return behaviour_.scope; }
  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    log_->push_back(absl::StrCat("save ", name_, " ", device_id));
    if (!behaviour_.save_result->ok()) return *behaviour_.save_result;
    return std::unique_ptr<rt::SavedState>(new State(this, device_id));
  }
  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    return absl::StrCat(name_, " ", device_id);
  }

 private:
  struct State final : rt::SavedState {
    State(RecordingParticipant* owner, int32_t device_id)
        : owner(owner), device_id(device_id) {}
    absl::Status Restore() const override {
      owner->log_->push_back(
          absl::StrCat("restore ", owner->name_, " ", device_id));
      if (*owner->behaviour_.restore_fails > 0) {
        --*owner->behaviour_.restore_fails;
        return owner->behaviour_.restore_failure;
      }
      return absl::OkStatus();
    }
    uint64_t bytes() const override { return owner->behaviour_.bytes; }
    RecordingParticipant* owner;
    int32_t device_id;
  };

  const std::string name_;
  CallLog* const log_;
  Behaviour behaviour_;
};

}  // namespace ascend::snapshot::testing

#endif  // ASCENDCL_SNAPSHOT_TESTING_PARTICIPANTS_H_
