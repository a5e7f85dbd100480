// The "device" participant: first in restore order, it re-opens each device
// of the backup. A re-open drops every allocation's contents and every id
// but keeps the dropped allocations' addresses reserved, so the participants
// after it can put everything back where it was. Before any device is
// touched, each device must still be the opening that was saved.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "snapshot/builtin_participants.h"

namespace ascend::snapshot {
namespace {

class SavedDevice final : public rt::SavedState {
 public:
  SavedDevice(rt::Runtime& runtime, int32_t device_id, uint64_t generation)
      : runtime_(runtime), device_id_(device_id), generation_(generation) {}

  // The device must still be the opening that was saved: one reset since
  // (and perhaps set again) has dropped what the backup describes.
  absl::Status Prepare() override {
    if (runtime_.DeviceGeneration(device_id_) != generation_) {
      return rt::Error(
          ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
          absl::StrCat("device ", device_id_,
                       " was reset after the backup; restore needs the "
                       "devices of the backup, as they were opened"));
    }
    return absl::OkStatus();
  }

  absl::Status Restore() const override {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id_);
    if (!device) {
      return rt::Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                       absl::StrCat("device ", device_id_,
                                    " is no longer open; restore needs the "
                                    "devices of the backup"));
    }
    return device->Reopen();
  }

 private:
  rt::Runtime& runtime_;
  const int32_t device_id_;
  const uint64_t generation_;
};

class DeviceParticipant final : public rt::SnapshotParticipant {
 public:
  explicit DeviceParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "device"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    const uint64_t generation = runtime_.DeviceGeneration(device_id);
    if (generation == 0) {
      return rt::Error(
          ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
          absl::StrCat("device ", device_id, " closed during backup"));
    }
    // A device whose memory was lost (or that reports itself abnormal) has
    // nothing good to save: failing keeps the previous backup.
    if (absl::StatusOr<bool> abnormal =
            ascend::rt::DeviceInfo::Of(runtime_)->DeviceAbnormal(device_id);
        !abnormal.ok() || *abnormal) {
      return rt::Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                       absl::StrCat("device ", device_id,
                                    " is abnormal (its memory was lost); a "
                                    "backup would save lost memory as data"));
    }
    return std::unique_ptr<rt::SavedState>(
        new SavedDevice(runtime_, device_id, generation));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    return runtime_.DeviceObject(device_id) ? std::string("open")
                                            : std::string("closed");
  }

 private:
  rt::Runtime& runtime_;
};

}  // namespace

std::unique_ptr<rt::SnapshotParticipant> MakeDeviceParticipant(
    rt::Runtime& runtime) {
  return std::make_unique<DeviceParticipant>(runtime);
}

}  // namespace ascend::snapshot
