// The "kernel_binaries" snapshot participant (DESIGN.md §4.12, §5.20).
//
// A binary's code and its bookkeeping (handles, functions, argument lists)
// are host state that a device's memory loss does not touch; its device
// image and its device globals are device allocations, whose contents the
// "memory" participant saves and brings back. What the reference does at
// the end of a Restore, this participant does too: it writes every binary's
// image back to its device address from the runtime's own copy, and checks
// it. Save records which binaries existed, so that a binary unloaded after
// the Backup is not brought back and one loaded after it is left alone.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/kernel/kernel.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

class SavedKernelBinaries final : public SavedState {
 public:
  SavedKernelBinaries(Kernels* kernels, int32_t device_id,
                      std::vector<Kernels::BinaryRecord> records)
      : kernels_(kernels),
        device_id_(device_id),
        records_(std::move(records)) {}

  absl::Status Restore() const override {
    std::vector<void*> handles;
    handles.reserve(records_.size());
    for (const Kernels::BinaryRecord& r : records_) handles.push_back(r.handle);
    if (kernels_ == nullptr) return absl::OkStatus();
    return kernels_->ReloadImages(device_id_, handles);
  }

 private:
  Kernels* const kernels_;  // null: the runtime has no kernel family
  const int32_t device_id_;
  const std::vector<Kernels::BinaryRecord> records_;
};

class KernelBinaryParticipant final : public SnapshotParticipant {
 public:
  explicit KernelBinaryParticipant(Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "kernel_binaries"; }

  absl::StatusOr<std::unique_ptr<SavedState>> Save(int32_t device_id) override {
    Kernels* kernels = Kernels::Of(runtime_);
    if (kernels == nullptr) {
      // A runtime built without the kernel family has no binaries.
      return std::unique_ptr<SavedState>(new SavedKernelBinaries(
          nullptr, device_id, std::vector<Kernels::BinaryRecord>()));
    }
    return std::unique_ptr<SavedState>(new SavedKernelBinaries(
        kernels, device_id, kernels->Records(device_id)));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    Kernels* kernels = Kernels::Of(runtime_);
    if (kernels == nullptr) return std::string();
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    std::string out;
    for (const Kernels::BinaryRecord& r : kernels->Records(device_id)) {
      absl::StrAppend(&out, "binary 0x", absl::Hex(r.handle), " image 0x",
                      absl::Hex(r.image_addr), "+", r.image_size);
      if (device != nullptr && r.image_addr != 0) {
        absl::StatusOr<uint64_t> sum =
            device->Checksum(r.image_addr, r.image_size);
        absl::StrAppend(&out, sum.ok() && *sum == r.image_checksum
                                  ? " intact"
                                  : " DAMAGED");
      }
      for (const auto& [name, where] : r.globals) {
        absl::StrAppend(&out, " global ", name, "@0x", absl::Hex(where.first),
                        "+", where.second);
        if (device != nullptr) {
          absl::StatusOr<uint64_t> sum =
              device->Checksum(where.first, where.second);
          absl::StrAppend(&out, sum.ok() ? absl::StrCat(" sum ", *sum)
                                         : std::string(" unreadable"));
        }
      }
      for (const auto& [name, handle] : r.functions) {
        absl::StrAppend(&out, " function ", name, "=0x", absl::Hex(handle));
      }
      absl::StrAppend(&out, " arg_lists ", r.arg_lists, "\n");
    }
    return out;
  }

 private:
  Runtime& runtime_;
};

}  // namespace

std::unique_ptr<SnapshotParticipant> MakeKernelParticipant(Runtime& runtime) {
  return std::make_unique<KernelBinaryParticipant>(runtime);
}

}  // namespace ascend::rt
