// SimDevice's lifecycle: opening on a slot's reserved memory, closing, and
// re-opening for a snapshot Restore. Its concerns live beside it:
// sim_device_memory.cc, sim_device_vmm.cc, sim_device_compute.cc,
// sim_device_writes.cc, sim_device_health.cc, sim_device_ids.cc.
#include "device/sim/sim_device.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "device/base/mutex.h"
#include "device/base/shared_mutex.h"
#include "device/device.h"
#include "device/sim/internal/device_memory.h"
#include "device/sim/internal/id_allocator.h"

namespace ascend::device::sim {

SimDevice::SimDevice(std::shared_ptr<DeviceSlot> slot, uint64_t capacity,
                     uint32_t max_ids_per_kind, uint32_t max_streams,
                     uint32_t max_notifies)
    : slot_(std::move(slot)),
      memory_(slot_->published_memory.load(std::memory_order_acquire)),
      ranges_(memory_->base(), capacity),
      va_ranges_(memory_->va_base(), memory_->va_size()),
      writes_(memory_->base(), memory_->size()) {
  {
    MutexLock lock(&slot_->writes_mu);
    slot_->writes = &writes_;
  }
  MutexLock lock(&ids_mu_);
  for (int kind = 0; kind < kResourceKindCount; ++kind) {
    uint32_t limit = max_ids_per_kind;
    if (kind == static_cast<int>(ResourceKind::kStream)) {
      limit = std::min(limit, max_streams);
    } else if (kind == static_cast<int>(ResourceKind::kNotify)) {
      limit = std::min(limit, max_notifies);
    }
    ids_.push_back(std::make_unique<internal::IdAllocator>(limit));
  }
}

SimDevice::~SimDevice() {
  {
    MutexLock lock(&slot_->writes_mu);
    slot_->writes = nullptr;
  }
  {
    WriterMutexLock lock(&mu_);
    ranges_.Reset();
    va_ranges_.Reset();
    mappings_.clear();
    runs_.clear();
    physical_.clear();
    {
      // The placed window's addresses go back to the process.
      MutexLock placed_lock(&slot_->placed_mu);
      for (const auto& [addr, p] : slot_->placed) {
        internal::DeviceMemory::Unplace(addr, p.size);
      }
      slot_->placed.clear();
    }
    // Memory another process imported stays with that process until it
    // lets go, as a device's physical memory does.
    if (!shared_.load(std::memory_order_relaxed) ||
        !memory_->DetachAll().ok()) {
      memory_->ReleaseAll();
    }
  }
  ClearErrors(*slot_);
  MutexLock lock(&slot_->mu);
  slot_->open = false;
}

absl::Status SimDevice::Reopen() {
  {
    WriterMutexLock lock(&mu_);
    // The dropped allocations stay reserved for AllocateAt, and their pages
    // stay resident (device memory does not go away when a device is
    // re-opened): putting them back costs no page faults, and their old
    // contents are never visible to a fresh allocation.
    ranges_.ReserveAll();
    // Page tables go with the device: every mapping is dropped, and the
    // reservations stay reserved until put back.
    for (const auto& [addr, m] : mappings_) {
      if (m.physical != 0) writes_.MappingRemoving(AsVaMapping(m));
      memory_->UnmapVa(addr, m.size);
    }
    mappings_.clear();
    runs_.clear();
    physical_.clear();
    va_ranges_.ReserveAll();
    {
      // Placed reservations keep their addresses until put back.
      MutexLock placed_lock(&slot_->placed_mu);
      for (auto& [addr, p] : slot_->placed) p.live = false;
    }
    memory_->ForgetCommits();
  }
  ClearErrors(*slot_);
  MutexLock lock(&ids_mu_);
  for (auto& ids : ids_) ids->Reset();
  return absl::OkStatus();
}

}  // namespace ascend::device::sim
