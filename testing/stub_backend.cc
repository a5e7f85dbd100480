#include "testing/stub_backend.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace ascend::testing {

StubBackend::StubBackend(StubBackendOptions options)
    : options_(std::move(options)) {}

absl::StatusOr<std::unique_ptr<device::Device>> StubBackend::Open(int32_t id) {
  if (id < 0 || id >= options_.device_count || !options_.open) {
    return absl::OutOfRangeError(
        absl::StrCat("stub backend ", options_.name, " has no device ", id,
                     " (", options_.device_count, " devices)"));
  }
  return options_.open(id);
}

std::optional<int32_t> StubBackend::DeviceOwningAddress(
    device::DeviceAddr) const {
  return std::nullopt;
}

bool StubBackend::CanAccessPeer(int32_t, int32_t) const { return false; }

absl::Status StubBackend::CopyPeer(device::Device&, device::DeviceAddr,
                                   device::Device&, device::DeviceAddr,
                                   uint64_t) {
  return absl::UnimplementedError(
      absl::StrCat("stub backend ", options_.name, ": no peer access"));
}

absl::Status StubBackend::BackupProcessResources() {
  return options_.process_resources;
}

absl::Status StubBackend::RestoreProcessResources() {
  return options_.process_resources;
}

absl::Status StubBackend::InjectFault(int32_t, device::Fault) {
  return absl::UnimplementedError(
      absl::StrCat("stub backend ", options_.name, ": no fault injection"));
}

std::optional<device::HealthEvent> StubBackend::WaitHealthEvent(
    absl::Duration timeout) {
  ascend::MutexLock lock(&mu_);
  mu_.AwaitWithTimeout(absl::Condition(&interrupted_), timeout);
  interrupted_ = false;
  return std::nullopt;
}

void StubBackend::InterruptHealthWait() {
  ascend::MutexLock lock(&mu_);
  interrupted_ = true;
}

}  // namespace ascend::testing
