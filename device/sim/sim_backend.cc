#include "device/sim/sim_backend.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/device.h"
#include "device/sim/internal/device_memory.h"
#include "device/sim/internal/health_event_queue.h"
#include "device/sim/internal/range_allocator.h"
#include "device/sim/sim_device.h"
#include "device/sim/sim_kernels.h"

namespace ascend::device::sim {
namespace {

constexpr char kDeviceCountEnv[] = "ACLSIM_DEVICE_COUNT";
constexpr char kDeviceMemoryEnv[] = "ACLSIM_DEVICE_MEMORY_MB";
constexpr char kSocNameEnv[] = "ACLSIM_SOC_NAME";

// The variable's value, or nullopt when it is unset or empty.
std::optional<std::string> GetEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

absl::StatusOr<uint64_t> ParseEnvInteger(const char* name,
                                         const std::string& value, uint64_t min,
                                         uint64_t max) {
  uint64_t parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < min || parsed > max) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be an integer in [", min, ", ", max,
                     "], got \"", value, "\""));
  }
  return parsed;
}

absl::Status Validate(const SimConfig& config) {
  if (config.device_count < 0 ||
      config.device_count > SimConfig::kMaxDeviceCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("sim device count ", config.device_count,
                     " is out of range [0, ", SimConfig::kMaxDeviceCount, "]"));
  }
  if (config.device_memory_bytes == 0 ||
      config.device_memory_bytes > SimConfig::kMaxDeviceMemoryBytes ||
      config.device_memory_bytes % internal::RangeAllocator::kGranularity !=
          0) {
    return absl::InvalidArgumentError(
        absl::StrCat("sim device memory ", config.device_memory_bytes,
                     " must be a non-zero multiple of ",
                     internal::RangeAllocator::kGranularity, " up to ",
                     SimConfig::kMaxDeviceMemoryBytes, " bytes"));
  }
  if (config.soc_name.empty()) {
    return absl::InvalidArgumentError("sim SoC name must not be empty");
  }
  return absl::OkStatus();
}

class SimBackend final : public Backend {
 public:
  explicit SimBackend(SimConfig config) : config_(std::move(config)) {
    slots_.reserve(config_.device_count);
    for (int32_t id = 0; id < config_.device_count; ++id) {
      slots_.push_back(std::make_shared<DeviceSlot>(id, this));
    }
  }

  absl::string_view name() const override { return kSimBackendName; }
  int32_t DeviceCount() const override { return config_.device_count; }
  std::string SocName() const override { return config_.soc_name; }
  std::optional<uint64_t> DeviceMemoryBytes(int32_t id) const override {
    if (!CheckId(id).ok()) return std::nullopt;
    return config_.device_memory_bytes;
  }

  absl::StatusOr<std::unique_ptr<Device>> Open(int32_t id) override {
    ASCEND_RETURN_IF_ERROR(CheckId(id));
    const std::shared_ptr<DeviceSlot>& slot = slots_[id];
    MutexLock lock(&slot->mu);
    if (slot->open) {
      return absl::FailedPreconditionError(
          absl::StrCat("simulated device ", id, " is already open"));
    }
    if (slot->memory == nullptr) {
      // The virtual address window is twice the memory (frameworks reserve
      // the whole device's worth of addresses up front), at least 4 GiB.
      const uint64_t va_bytes = std::max<uint64_t>(
          2 * config_.device_memory_bytes, uint64_t{4} << 30);
      // Both windows stay out of the placed window, which reservations at
      // addresses the program chooses take (DESIGN.md §6.1).
      ASCEND_ASSIGN_OR_RETURN(
          slot->memory,
          internal::DeviceMemory::Reserve(config_.device_memory_bytes, va_bytes,
                                          kPlacedVaBegin, kPlacedVaEnd));
      slot->published_memory.store(slot->memory.get(),
                                   std::memory_order_release);
    }
    slot->open = true;
    return std::unique_ptr<Device>(new SimDevice(
        slot, config_.device_memory_bytes, config_.max_ids_per_kind,
        config_.max_streams_per_device, config_.max_notifies_per_device));
  }

  std::optional<int32_t> DeviceOwningAddress(DeviceAddr addr) const override {
    // Windows are reserved at a device's first Open and kept, at the same
    // addresses, for the slot's lifetime; a device never opened has none
    // (and so no pointers).
    for (const std::shared_ptr<DeviceSlot>& slot : slots_) {
      const internal::DeviceMemory* memory =
          slot->published_memory.load(std::memory_order_acquire);
      if (memory != nullptr && addr >= memory->base() &&
          addr - memory->base() < memory->size() + memory->va_size()) {
        return slot->id;
      }
    }
    // A reservation placed at an address its program chose.
    if (addr >= kPlacedVaBegin && addr < kPlacedVaEnd) {
      for (const std::shared_ptr<DeviceSlot>& slot : slots_) {
        if (slot->HoldsPlaced(addr)) return slot->id;
      }
    }
    return std::nullopt;
  }

  bool CanAccessPeer(int32_t device, int32_t peer) const override {
    return CheckId(device).ok() && CheckId(peer).ok() && device != peer;
  }

  absl::Status CopyPeer(Device& dst_device, DeviceAddr dst, Device& src_device,
                        DeviceAddr src, uint64_t size) override {
    auto* sim_dst = dynamic_cast<SimDevice*>(&dst_device);
    auto* sim_src = dynamic_cast<SimDevice*>(&src_device);
    if (sim_dst == nullptr || sim_src == nullptr || sim_dst->owner() != this ||
        sim_src->owner() != this) {
      return absl::InvalidArgumentError(
          "peer copy needs two devices opened from this sim backend");
    }
    return SimDevice::CopyPeer(*sim_dst, dst, *sim_src, src, size);
  }

  absl::StatusOr<std::unique_ptr<KernelModule>> LoadKernelModule(
      absl::string_view image, absl::string_view what) override {
    return sim::LoadKernelModule(image, what);
  }

  absl::Status BackupProcessResources() override { return absl::OkStatus(); }
  absl::Status RestoreProcessResources() override { return absl::OkStatus(); }

  absl::Status InjectFault(int32_t device_id, Fault fault) override {
    ASCEND_RETURN_IF_ERROR(CheckId(device_id));
    DeviceSlot& slot = *slots_[device_id];
    switch (fault) {
      case Fault::kMemoryLoss: {
        internal::DeviceMemory* memory =
            slot.published_memory.load(std::memory_order_acquire);
        slot.memory_losses.fetch_add(1, std::memory_order_acq_rel);
        {
          MutexLock lock(&slot.writes_mu);
          if (slot.writes != nullptr) slot.writes->LoseAll();
        }
        if (memory != nullptr) memory->ZeroAll();
        health_events_.Push(HealthEvent{
            device_id,
            absl::StrCat("simulated device ", device_id,
                         " lost the contents of its memory (injected fault)"),
            /*device_abnormal=*/true, absl::Now()});
        return absl::OkStatus();
      }
      case Fault::kNextCopyFails:
        slot.fail_next_copy.store(true);
        return absl::OkStatus();
      case Fault::kNextCopyCorrupts:
        slot.corrupt_next_copy.store(true);
        return absl::OkStatus();
      case Fault::kMemoryError:
        return absl::InvalidArgumentError(
            "a memory error needs a range (InjectRangeFault)");
    }
    return absl::InvalidArgumentError(
        absl::StrCat("unknown fault ", static_cast<int>(fault)));
  }

  absl::Status InjectRangeFault(int32_t device_id, Fault fault, DeviceAddr addr,
                                uint64_t size) override {
    ASCEND_RETURN_IF_ERROR(CheckId(device_id));
    if (fault != Fault::kMemoryError) {
      return absl::InvalidArgumentError(
          absl::StrCat("fault ", static_cast<int>(fault), " takes no range"));
    }
    DeviceSlot& slot = *slots_[device_id];
    const internal::DeviceMemory* memory =
        slot.published_memory.load(std::memory_order_acquire);
    if (memory == nullptr || size == 0 || addr < memory->base() ||
        addr - memory->base() > memory->size() ||
        size > memory->size() - (addr - memory->base())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "[0x", absl::Hex(addr), ", +", size,
          ") is not in the memory of simulated device ", device_id));
    }
    {
      // The bytes there are lost: for an incremental snapshot they changed.
      MutexLock lock(&slot.writes_mu);
      if (slot.writes != nullptr) slot.writes->Note(addr, size);
    }
    MutexLock lock(&slot.errors_mu);
    slot.memory_errors.push_back(Allocation{addr, size});
    slot.any_memory_error.store(true, std::memory_order_relaxed);
    return absl::OkStatus();
  }

  std::optional<HealthEvent> WaitHealthEvent(absl::Duration timeout) override {
    return health_events_.Wait(timeout);
  }
  void InterruptHealthWait() override { health_events_.Interrupt(); }

 private:
  absl::Status CheckId(int32_t id) const {
    if (id < 0 || id >= config_.device_count) {
      return absl::OutOfRangeError(absl::StrCat("device id ", id,
                                                " is out of range [0, ",
                                                config_.device_count, ")"));
    }
    return absl::OkStatus();
  }

  const SimConfig config_;
  // One per device id, made up front so fault injection needs no lock.
  std::vector<std::shared_ptr<DeviceSlot>> slots_;
  internal::HealthEventQueue health_events_;
};

}  // namespace

absl::StatusOr<SimConfig> SimConfig::FromEnvironment() {
  SimConfig config;
  if (std::optional<std::string> count = GetEnv(kDeviceCountEnv)) {
    ASCEND_ASSIGN_OR_RETURN(
        const uint64_t parsed,
        ParseEnvInteger(kDeviceCountEnv, *count, 0, kMaxDeviceCount));
    config.device_count = static_cast<int32_t>(parsed);
  }
  if (std::optional<std::string> megabytes = GetEnv(kDeviceMemoryEnv)) {
    ASCEND_ASSIGN_OR_RETURN(const uint64_t parsed,
                            ParseEnvInteger(kDeviceMemoryEnv, *megabytes, 1,
                                            kMaxDeviceMemoryBytes >> 20));
    config.device_memory_bytes = parsed << 20;
  }
  if (std::optional<std::string> soc = GetEnv(kSocNameEnv)) {
    config.soc_name = *soc;
  }
  return config;
}

absl::StatusOr<std::unique_ptr<Backend>> CreateSimBackend(
    const SimConfig& config) {
  ASCEND_RETURN_IF_ERROR(Validate(config));
  return std::unique_ptr<Backend>(new SimBackend(config));
}

absl::StatusOr<std::unique_ptr<Backend>> CreateSimBackend() {
  ASCEND_ASSIGN_OR_RETURN(const SimConfig config, SimConfig::FromEnvironment());
  return CreateSimBackend(config);
}

}  // namespace ascend::device::sim
