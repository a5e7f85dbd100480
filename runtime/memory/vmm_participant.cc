// The "vmm" snapshot participant (runtime/memory/vmm.h; DESIGN.md §5.18):
// what a backup saves of the virtual memory tables and how a restore puts
// them back.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "runtime/base/error.h"
#include "runtime/memory/vmm.h"
#include "runtime/runtime.h"
#include "runtime/snapshot_participant.h"

namespace ascend::rt {

using device::DeviceAddr;

// --- The snapshot participant ----------------------------------------------
//
// Save copies the device's tables; Restore (after the device was re-opened,
// before "allocations" and "memory") puts back every reservation at its
// address, every physical allocation at its id and every mapping, so that
// every device address the process holds is valid again before any content
// is copied. The contents of physical memory are allocations of the device
// and travel with "memory", once each however often they are mapped.
namespace {

class SavedVmm final : public SavedState {
 public:
  SavedVmm(Runtime& runtime, int32_t device_id, Vmm::DeviceTables tables)
      : runtime_(runtime), device_id_(device_id), tables_(std::move(tables)) {}

  absl::Status Restore() const override {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id_);
    if (!device) {
      return absl::FailedPreconditionError(
          absl::StrCat("device ", device_id_, " is not open"));
    }
    // Put back only what is missing: a retried Restore finds part of it.
    std::map<DeviceAddr, uint64_t> reserved;
    for (const device::Allocation& r : device->Reservations()) {
      reserved[r.addr] = r.size;
    }
    for (const auto& [addr, r] : tables_.reservations) {
      if (reserved.count(addr) != 0) continue;
      ASCEND_RETURN_IF_ERROR(device->ReserveAddress(r.size, addr).status());
    }
    std::map<DeviceAddr, uint64_t> physical;
    for (const device::Allocation& p : device->PhysicalAllocations()) {
      physical[p.addr] = p.size;
    }
    for (const auto& [handle, p] : tables_.physical) {
      if (physical.count(p.id) != 0) continue;
      ASCEND_RETURN_IF_ERROR(device->AllocatePhysicalAt(p.id, p.size));
    }
    std::map<DeviceAddr, device::Mapping> mapped;
    for (const device::Mapping& m : device->Mappings()) mapped[m.addr] = m;
    for (const auto& [addr, m] : tables_.mappings) {
      // The device's own access comes back with the mapping (an access the
      // program set protects it again before anything runs).
      const auto own = m.access.find(device_id_);
      const device::MemAccess access = own == m.access.end()
                                           ? device::MemAccess::kNone
                                           : AsMemAccess(own->second);
      auto present = mapped.find(addr);
      if (present == mapped.end()) {
        const auto physical_it = tables_.physical.find(m.handle);
        if (physical_it == tables_.physical.end()) {
          return absl::InternalError("a saved mapping names no saved handle");
        }
        ASCEND_RETURN_IF_ERROR(device->MapPhysical(
            addr, m.size, physical_it->second.id, m.offset));
      } else if (present->second.access == access) {
        continue;
      }
      ASCEND_RETURN_IF_ERROR(device->SetMappingAccess(addr, access));
    }
    return absl::OkStatus();
  }

 private:
  Runtime& runtime_;
  const int32_t device_id_;
  const Vmm::DeviceTables tables_;
};

class VmmParticipant final : public SnapshotParticipant {
 public:
  explicit VmmParticipant(Vmm& vmm, Runtime& runtime)
      : vmm_(vmm), runtime_(runtime) {}

  absl::string_view name() const override { return "vmm"; }

  absl::StatusOr<std::unique_ptr<SavedState>> Save(int32_t device_id) override {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (!device) {
      return absl::FailedPreconditionError(
          absl::StrCat("device ", device_id, " is not open"));
    }
    ASCEND_RETURN_IF_ERROR(vmm_.CheckNotShared(device_id));
    Vmm::DeviceTables tables = vmm_.Tables(device_id);
    // Memory of another process mapped here is not ours to save, and our
    // page tables could not be restored around it (CANN: a restore fails
    // while another process occupies the device).
    for (const device::Mapping& m : device->Mappings()) {
      if (m.physical == 0) {
        return absl::FailedPreconditionError(absl::StrFormat(
            "device %d maps memory of another process at 0x%x (+%u): close "
            "the import before a backup",
            device_id, m.addr, m.size));
      }
    }
    return std::unique_ptr<SavedState>(
        new SavedVmm(runtime_, device_id, std::move(tables)));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    std::string text;
    const Vmm::DeviceTables tables = vmm_.Tables(device_id);
    for (const auto& [addr, r] : tables.reservations) {
      absl::StrAppendFormat(&text, "reservation [0x%x, +%u) flags %u\n", addr,
                            r.size, r.flags);
    }
    for (const auto& [handle, p] : tables.physical) {
      absl::StrAppendFormat(&text,
                            "physical %p id 0x%x size %u refs %d maps %u\n",
                            handle, p.id, p.size, p.references, p.mappings);
    }
    for (const auto& [addr, m] : tables.mappings) {
      absl::StrAppendFormat(&text, "mapping [0x%x, +%u) -> %p + %u access",
                            addr, m.size, m.handle, m.offset);
      for (const auto& [dev, flags] : m.access) {
        absl::StrAppendFormat(&text, " %d:%u", dev, flags);
      }
      text += "\n";
    }
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
    if (device) {
      for (const device::Mapping& m : device->Mappings()) {
        absl::StrAppendFormat(
            &text, "device mapping [0x%x, +%u) -> 0x%x + %u access %u\n",
            m.addr, m.size, m.physical, m.offset,
            static_cast<uint32_t>(m.access));
      }
    }
    return text;
  }

 private:
  Vmm& vmm_;
  Runtime& runtime_;
};

}  // namespace

std::unique_ptr<SnapshotParticipant> Vmm::MakeParticipant() {
  return std::make_unique<VmmParticipant>(*this, runtime_);
}

}  // namespace ascend::rt
