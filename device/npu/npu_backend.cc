#include "device/npu/npu_backend.h"

#include <condition_variable>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/base/shared_mutex.h"
#include "device/npu/internal/driver_context.h"
#include "device/npu/internal/hal_abi.h"
#include "device/npu/internal/hal_error.h"
#include "device/npu/internal/hal_library.h"
#include "device/npu/internal/npu_device.h"
#include "glog/logging.h"

namespace ascend::device::npu {
namespace {

using internal::DeviceSlot;
using internal::DriverContext;
using internal::DriverStatus;
using internal::HalLibrary;
using internal::NpuDevice;

// Driver ids must fit the 10-bit device field of halMemAlloc's flag.
constexpr uint32_t kMaxDriverId = HAL_ABI_DEVICE_ID_MASK;
// CANN passes a 50-byte buffer to halGetSocVersion.
constexpr uint32_t kSocVersionLength = 50;

class NpuBackend final : public Backend {
 public:
  // A backend without a usable driver: `reason` says why.
  explicit NpuBackend(absl::Status reason) : unavailable_(std::move(reason)) {}
  NpuBackend(std::shared_ptr<DriverContext> context, absl::Status enumeration,
             std::string soc_name)
      : context_(std::move(context)),
        enumeration_(std::move(enumeration)),
        soc_name_(std::move(soc_name)) {}

  absl::string_view name() const override { return kNpuBackendName; }

  int32_t DeviceCount() const override {
    return context_ == nullptr ? 0 : context_->device_count();
  }

  std::string SocName() const override { return soc_name_; }

  absl::StatusOr<std::unique_ptr<Device>> Open(int32_t id) override {
    if (context_ == nullptr) return Unavailable();
    if (!enumeration_.ok()) return enumeration_;
    if (id < 0 || id >= context_->device_count()) {
      return absl::OutOfRangeError(absl::StrCat("npu device ", id,
                                                " is outside [0, ",
                                                context_->device_count(), ")"));
    }
    DeviceSlot& slot = context_->slot(id);
    WriterMutexLock lock(&slot.mu);
    if (slot.has_handle) {
      return absl::FailedPreconditionError(
          absl::StrCat("npu device ", id, " is already open"));
    }
    // A device left open by a driver without halDeviceClose is reused.
    if (!slot.driver_open) {
      absl::Status status = context_->OpenDriverLocked(slot);
      if (!status.ok()) return status;
    }
    slot.has_handle = true;
    return std::unique_ptr<Device>(new NpuDevice(context_, slot));
  }

  // Unknown, always: the driver subset publishes no device VA range
  // (ascend_hal_subset.md §6, "The driver's real device VA range is not
  // published") and its pointer-attribute query (drvMemGetAttribute) is
  // outside the subset, so an address outside the live allocations cannot be
  // told from host memory. Guessing from the VAs seen so far could call a
  // host pointer device memory; the runtime then treats such an address as
  // host memory, as CANN's drvMemcpy classification does.
  std::optional<int32_t> DeviceOwningAddress(DeviceAddr) const override {
    return std::nullopt;
  }

  bool CanAccessPeer(int32_t device, int32_t peer) const override {
    // drvMemcpy copies between devices of the process; P2P enablement calls
    // are outside the driver subset.
    const int32_t count = DeviceCount();
    return device != peer && device >= 0 && device < count && peer >= 0 &&
           peer < count;
  }

  absl::Status CopyPeer(Device& dst_device, DeviceAddr dst, Device& src_device,
                        DeviceAddr src, uint64_t size) override {
    auto* dst_npu = dynamic_cast<NpuDevice*>(&dst_device);
    auto* src_npu = dynamic_cast<NpuDevice*>(&src_device);
    if (dst_npu == nullptr || src_npu == nullptr ||
        dst_npu->context() != context_.get() ||
        src_npu->context() != context_.get()) {
      return absl::InvalidArgumentError(
          "CopyPeer needs two devices opened by this npu backend");
    }
    return NpuDevice::CopyPeer(*dst_npu, dst, *src_npu, src, size);
  }

  absl::Status BackupProcessResources() override {
    if (context_ == nullptr) return Unavailable();
    return context_->Backup();
  }

  absl::Status RestoreProcessResources() override {
    if (context_ == nullptr) return Unavailable();
    return context_->Restore();
  }

  absl::Status InjectFault(int32_t device_id, Fault fault) override {
    return absl::UnimplementedError("the npu backend does not simulate faults");
  }

  // The driver subset has no event source (the driver's event calls are
  // outside it), so no event ever arrives: the wait ends on the timeout or on
  // InterruptHealthWait.
  std::optional<HealthEvent> WaitHealthEvent(absl::Duration timeout) override {
    const absl::Time deadline = absl::Now() + timeout;
    WriterMutexLock lock(&health_mu_);
    while (!interrupted_) {
      if (deadline == absl::InfiniteFuture()) {
        health_cv_.wait(health_mu_);
      } else if (health_cv_.wait_until(health_mu_,
                                       absl::ToChronoTime(deadline)) ==
                 std::cv_status::timeout) {
        break;
      }
    }
    interrupted_ = false;
    return std::nullopt;
  }

  // Sticky until consumed: an interrupt that comes while no thread waits ends
  // the next wait at once, so a monitor thread cannot miss its stop request.
  void InterruptHealthWait() override {
    WriterMutexLock lock(&health_mu_);
    interrupted_ = true;
    health_cv_.notify_all();
  }

 private:
  absl::Status Unavailable() const {
    LOG(WARNING) << "npu backend: " << unavailable_.message();
    return unavailable_;
  }

  const absl::Status unavailable_;
  const std::shared_ptr<DriverContext> context_;
  const absl::Status enumeration_;
  const std::string soc_name_;

  SharedMutex health_mu_;
  std::condition_variable_any health_cv_;
  bool interrupted_ ABSL_GUARDED_BY(health_mu_) = false;
};

// drvGetDevNum then drvGetDevIDs (len = element count, as CANN passes).
absl::Status Enumerate(const internal::HalApi& api,
                       std::vector<uint32_t>& ids) {
  uint32_t count = 0;
  drvError_t err = api.drvGetDevNum(&count);
  if (err != DRV_ERROR_NONE) return DriverStatus("drvGetDevNum", err);
  if (count == 0) return absl::OkStatus();
  std::vector<uint32_t> found(count, 0);
  err = api.drvGetDevIDs(found.data(), count);
  if (err != DRV_ERROR_NONE) return DriverStatus("drvGetDevIDs", err);
  for (uint32_t id : found) {
    if (id > kMaxDriverId) {
      return absl::InternalError(absl::StrCat(
          "drvGetDevIDs returned device id ", id, " above ", kMaxDriverId));
    }
  }
  ids = std::move(found);
  return absl::OkStatus();
}

std::string QuerySocName(const internal::HalApi& api,
                         const std::vector<uint32_t>& ids) {
  if (api.halGetSocVersion == nullptr || ids.empty()) return "";
  char buffer[kSocVersionLength] = {};
  const drvError_t err =
      api.halGetSocVersion(ids[0], buffer, kSocVersionLength);
  if (err != DRV_ERROR_NONE) {
    LOG(WARNING) << "npu backend: " << DriverStatus("halGetSocVersion", err)
                 << "; SoC name unknown";
    return "";
  }
  return std::string(buffer, strnlen(buffer, kSocVersionLength));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Backend>> CreateNpuBackend(
    const NpuBackendOptions& options) {
  const std::string path = options.library_path.empty()
                               ? HalLibrary::DefaultPath()
                               : options.library_path;
  absl::StatusOr<std::unique_ptr<HalLibrary>> hal = HalLibrary::Load(path);
  if (!hal.ok()) {
    LOG(WARNING) << "npu backend: " << hal.status().message()
                 << "; reporting 0 devices";
    return std::unique_ptr<Backend>(new NpuBackend(hal.status()));
  }
  std::vector<uint32_t> ids;
  absl::Status enumeration = Enumerate((*hal)->api(), ids);
  if (!enumeration.ok()) {
    LOG(WARNING) << "npu backend: " << enumeration << "; reporting 0 devices";
  }
  std::string soc_name = QuerySocName((*hal)->api(), ids);
  auto context = std::make_shared<DriverContext>(*std::move(hal), ids);
  return std::unique_ptr<Backend>(new NpuBackend(
      std::move(context), std::move(enumeration), std::move(soc_name)));
}

absl::StatusOr<std::unique_ptr<Backend>> CreateNpuBackend() {
  return CreateNpuBackend(NpuBackendOptions{});
}

}  // namespace ascend::device::npu
