// StubBackend: a configurable device::Backend test double, for tests that
// need a backend object but no device simulation (a registry, the
// conformance suite's handling of backends without devices, a runtime over
// a fake device).
//
//   StubBackendOptions options;
//   options.name = "npu";
//   std::unique_ptr<device::Backend> backend =
//       std::make_unique<StubBackend>(options);
//
// What it does, each configurable through StubBackendOptions:
//  * name(), SocName() and DeviceCount() answer the options;
//  * Open(id) fails with kOutOfRange for an id outside [0, device_count),
//    else calls `open` (kOutOfRange as well when `open` is not set);
//  * BackupProcessResources / RestoreProcessResources answer
//    `process_resources` (kUnimplemented by default).
// The rest is inert: no address belongs to a device, no peer access
// (CopyPeer kUnimplemented), InjectFault kUnimplemented, and WaitHealthEvent
// reports no event, blocking as the interface says until the timeout passes
// or InterruptHealthWait is called.
//
// Thread-safe as the interface requires; `open` is called without a lock
// held, from whichever thread calls Open.
#ifndef ASCENDCL_TESTING_STUB_BACKEND_H_
#define ASCENDCL_TESTING_STUB_BACKEND_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "device/device.h"

namespace ascend::testing {

struct StubBackendOptions {
  using OpenFunction =
      std::function<absl::StatusOr<std::unique_ptr<device::Device>>(int32_t)>;

  std::string name = "stub";
  std::string soc_name = "none";
  int32_t device_count = 0;
  // Opens device `id` (already checked against device_count).
  OpenFunction open;
  // The answer of BackupProcessResources and RestoreProcessResources.
  absl::Status process_resources =
      absl::UnimplementedError("no driver-level process snapshot");
};

class StubBackend final : public device::Backend {
 public:
  explicit StubBackend(StubBackendOptions options);

  absl::string_view name() const override { return options_.name; }
  int32_t DeviceCount() const override { return options_.device_count; }
  std::string SocName() const override { return options_.soc_name; }
  absl::StatusOr<std::unique_ptr<device::Device>> Open(int32_t id) override;
  std::optional<int32_t> DeviceOwningAddress(
      device::DeviceAddr addr) const override;
  bool CanAccessPeer(int32_t device, int32_t peer) const override;
  absl::Status CopyPeer(device::Device& dst_device, device::DeviceAddr dst,
                        device::Device& src_device, device::DeviceAddr src,
                        uint64_t size) override;
  absl::Status BackupProcessResources() override;
  absl::Status RestoreProcessResources() override;
  absl::Status InjectFault(int32_t device_id, device::Fault fault) override;
  std::optional<device::HealthEvent> WaitHealthEvent(
      absl::Duration timeout) override;
  void InterruptHealthWait() override;

 private:
  const StubBackendOptions options_;
  ascend::Mutex mu_;
  bool interrupted_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ascend::testing

#endif  // ASCENDCL_TESTING_STUB_BACKEND_H_
