#include "runtime/health_monitor.h"

#include <utility>

namespace ascend::rt {

HealthMonitor::HealthMonitor(GlobalState& state, device::Backend& backend,
                             Sink sink)
    : backend_(backend), sink_(std::move(sink)) {
  registration_ = state.RegisterBackgroundThread(
      "device-health-monitor", [this] { backend_.InterruptHealthWait(); });
  thread_ = std::thread([this] { Run(); });
}

HealthMonitor::~HealthMonitor() {
  stop_.store(true, std::memory_order_release);
  backend_.InterruptHealthWait();
  thread_.join();
}

void HealthMonitor::Run() {
  while (!stop_.load(std::memory_order_acquire)) {
    registration_->ParkIfLocked();
    if (stop_.load(std::memory_order_acquire)) break;
    std::optional<device::HealthEvent> event =
        backend_.WaitHealthEvent(absl::InfiniteDuration());
    if (event.has_value()) sink_(*event);
  }
}

}  // namespace ascend::rt
