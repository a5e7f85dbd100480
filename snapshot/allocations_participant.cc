// The "allocations" participant (memory_participant.h): every allocation of
// a device put back at its address before any data is copied.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "device/base/status_macros.h"
#include "snapshot/memory_participant.h"
#include "snapshot/memory_plan.h"

namespace ascend::snapshot {
namespace {

using internal::OpenDevice;

// --- "allocations"
// ------------------------------------------------------------

class SavedAllocations final : public rt::SavedState {
 public:
  SavedAllocations(rt::Runtime& runtime, int32_t device_id)
      : runtime_(runtime), device_id_(device_id) {}

  // The allocations alive now are the ones to put back: those freed after
  // the backup stay freed, those made since stay allocated.
  absl::Status Prepare() override {
    if (live_.has_value()) return absl::OkStatus();
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    live_ = device->Allocations();
    return absl::OkStatus();
  }

  absl::Status Restore() const override {
    if (!live_.has_value()) {
      return absl::FailedPreconditionError("restore without Prepare");
    }
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    for (const device::Allocation& a : *live_) {
      // A driver-level restore (npu) may have re-created it already.
      std::optional<device::Allocation> found = device->FindAllocation(a.addr);
      if (!found.has_value() || found->addr != a.addr ||
          found->size != a.size) {
        ASCEND_RETURN_IF_ERROR(device->AllocateAt(a.addr, a.size));
      }
    }
    return absl::OkStatus();
  }

 private:
  rt::Runtime& runtime_;
  const int32_t device_id_;
  std::optional<std::vector<device::Allocation>> live_;
};

class AllocationsParticipant final : public rt::SnapshotParticipant {
 public:
  explicit AllocationsParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "allocations"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_RETURN_IF_ERROR(OpenDevice(runtime_, device_id).status());
    return std::unique_ptr<rt::SavedState>(
        new SavedAllocations(runtime_, device_id));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    std::string text;
    for (const device::Allocation& a : device->Allocations()) {
      absl::StrAppendFormat(&text, "[0x%x, +%u)\n", a.addr, a.size);
    }
    return text;
  }

 private:
  rt::Runtime& runtime_;
};

}  // namespace

std::unique_ptr<rt::SnapshotParticipant> MakeAllocationsParticipant(
    rt::Runtime& runtime) {
  return std::make_unique<AllocationsParticipant>(runtime);
}

}  // namespace ascend::snapshot
