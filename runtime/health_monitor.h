// The device health monitor: a runtime background thread that waits for the
// backend's health events (e.g. an injected memory loss) and records them.
// It registers with GlobalState and parks while the process is locked
// (DESIGN.md §4.4); Lock wakes it through Backend::InterruptHealthWait.
#ifndef ASCENDCL_RUNTIME_HEALTH_MONITOR_H_
#define ASCENDCL_RUNTIME_HEALTH_MONITOR_H_

#include <atomic>
#include <functional>
#include <thread>

#include "device/device.h"
#include "runtime/global_state.h"

namespace ascend::rt {

class HealthMonitor {
 public:
  using Sink = std::function<void(const device::HealthEvent&)>;
  HealthMonitor(GlobalState& state, device::Backend& backend, Sink sink);
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;
  ~HealthMonitor();

 private:
  void Run();

  device::Backend& backend_;
  Sink sink_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<GlobalState::BackgroundThread> registration_;
  std::thread thread_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_HEALTH_MONITOR_H_
