// The "models" snapshot participant (DESIGN.md §4.12, §5.21): models,
// captured graphs and labels.
//
// A model's task lists, labels and label lists are host state that a
// device's memory loss does not touch; what they address (device memory,
// condition values, events, the runner streams' ids) the earlier
// participants bring back. Backup refuses a model still being built (the
// reference's "model not fully loaded", 507908); a capture in progress is
// kept as it is and can be ended after the Unlock. Restore, the reference's
// model rebuild, checks every saved model against what it saved (same
// handle, id, streams and tasks), so a model replayed afterwards does what it
// did before (an abort concerns only the executions enqueued before it).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/model/model.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

class SavedModels final : public SavedState {
 public:
  SavedModels(Models& models, int32_t device_id, std::string described)
      : models_(models),
        device_id_(device_id),
        described_(std::move(described)) {}

  absl::Status Restore() const override {
    // Models destroyed since the Backup stay destroyed and ones made since
    // stay; while locked nothing can make or change one, so what is there
    // now must be what was saved.
    const std::string now = models_.Describe(device_id_);
    if (now != described_) {
      return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                   absl::StrCat("the models of device ", device_id_,
                                " changed since the backup:\nsaved:\n",
                                described_, "now:\n", now));
    }
    return absl::OkStatus();
  }

 private:
  Models& models_;
  const int32_t device_id_;
  const std::string described_;
};

class ModelParticipant final : public SnapshotParticipant {
 public:
  explicit ModelParticipant(Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "models"; }

  absl::StatusOr<std::unique_ptr<SavedState>> Save(int32_t device_id) override {
    Models* models = Models::Of(runtime_);
    if (models == nullptr) return std::unique_ptr<SavedState>(new NoModels);
    ASCEND_RETURN_IF_ERROR(models->CheckBackup(device_id));
    return std::unique_ptr<SavedState>(
        new SavedModels(*models, device_id, models->Describe(device_id)));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    Models* models = Models::Of(runtime_);
    return models != nullptr ? models->Describe(device_id) : std::string();
  }

 private:
  // A runtime built without the model family has no models to keep.
  class NoModels final : public SavedState {
   public:
    absl::Status Restore() const override { return absl::OkStatus(); }
  };

  Runtime& runtime_;
};

}  // namespace

std::unique_ptr<SnapshotParticipant> MakeModelParticipant(Runtime& runtime) {
  return std::make_unique<ModelParticipant>(runtime);
}

}  // namespace ascend::rt
