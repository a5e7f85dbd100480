// The "driver" participant (process scope): resources the device driver
// holds for the whole process. On npu that is the driver's own process
// backup (halProcessResBackup at Backup, halProcessResRestore at Restore,
// after the devices were re-opened and their ids claimed); the simulator
// keeps no driver-side state and answers both at once.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "snapshot/builtin_participants.h"

namespace ascend::snapshot {
namespace {

class SavedDriver final : public rt::SavedState {
 public:
  explicit SavedDriver(device::Backend& backend) : backend_(backend) {}
  absl::Status Restore() const override {
    return backend_.RestoreProcessResources();
  }

 private:
  device::Backend& backend_;
};

class DriverParticipant final : public rt::SnapshotParticipant {
 public:
  explicit DriverParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "driver"; }
  Scope scope() const override { return Scope::kProcess; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(int32_t) override {
    device::Backend* backend = runtime_.backend();
    if (backend == nullptr) {
      return absl::FailedPreconditionError("no device backend");
    }
    absl::Status saved = backend->BackupProcessResources();
    if (!saved.ok()) return saved;
    return std::unique_ptr<rt::SavedState>(new SavedDriver(*backend));
  }

  // The driver's image is opaque; what it brings back shows in the
  // "allocations" and "memory" participants.
  absl::StatusOr<std::string> Describe(int32_t) const override {
    device::Backend* backend = runtime_.backend();
    return absl::StrCat("backend ", backend ? backend->name() : "none");
  }

 private:
  rt::Runtime& runtime_;
};

}  // namespace

std::unique_ptr<rt::SnapshotParticipant> MakeDriverParticipant(
    rt::Runtime& runtime) {
  return std::make_unique<DriverParticipant>(runtime);
}

}  // namespace ascend::snapshot
