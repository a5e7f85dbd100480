// Private to //runtime: the snapshot participant shared by the kinds whose
// objects hold a device id (streams, events, notifies): Save records, per
// device, each live object's host-side state (T::SaveState()) by handle;
// Restore claims the id of every object alive then in the re-opened device
// and hands each saved state back to its object (T::RestoreState()), so
// objects created after the Backup keep distinct ids too. T::DescribeState
// renders a state for Describe.
#ifndef ASCENDCL_RUNTIME_ID_PARTICIPANT_H_
#define ASCENDCL_RUNTIME_ID_PARTICIPANT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "runtime/resource_kinds.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"

namespace ascend::rt::internal {

template <typename T>
class IdParticipant final : public SnapshotParticipant {
 public:
  using Saved = absl::flat_hash_map<const void*, typename T::State>;

  explicit IdParticipant(Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return Descriptor(T::kKind).name; }

  absl::StatusOr<std::unique_ptr<SavedState>> Save(int32_t device_id) override {
    auto state = std::make_unique<State>(runtime_, device_id);
    for (const std::shared_ptr<T>& object : runtime_.Objects<T>(device_id)) {
      state->saved.emplace(object->handle(), object->SaveState());
    }
    return std::unique_ptr<SavedState>(std::move(state));
  }

  // Each live object's id, whether the device holds that id (probed with a
  // claim that is released again when it succeeds), and its state.
  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (!device) {
      return absl::FailedPreconditionError(
          absl::StrCat("device ", device_id, " is not open"));
    }
    const device::ResourceKind space = *Descriptor(T::kKind).id_space;
    std::string text;
    for (const std::shared_ptr<T>& object : runtime_.Objects<T>(device_id)) {
      const absl::Status probe = device->ClaimId(space, object->id());
      if (probe.ok()) device->ReleaseId(space, object->id());
      absl::StrAppend(&text, name(), " ", object->id(),
                      absl::IsAlreadyExists(probe) ? " held" : " NOT HELD",
                      ": ", T::DescribeState(object->SaveState()), "\n");
    }
    return text;
  }

 private:
  struct State final : SavedState {
    State(Runtime& runtime, int32_t device_id)
        : runtime(runtime), device_id(device_id) {}
    absl::Status Restore() const override {
      return runtime.RestoreIds<T>(device_id, saved);
    }
    Runtime& runtime;
    const int32_t device_id;
    Saved saved;
  };

  Runtime& runtime_;
};

}  // namespace ascend::rt::internal

#endif  // ASCENDCL_RUNTIME_ID_PARTICIPANT_H_
