#include "device/sim/internal/health_event_queue.h"

#include <optional>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "device/device.h"

namespace ascend::device::sim::internal {

void HealthEventQueue::Push(HealthEvent event) {
  MutexLock lock(&mu_);
  if (events_.size() >= kMaxPending) events_.pop_front();
  events_.push_back(std::move(event));
  // Waiters re-check their condition when the lock is released.
}

std::optional<HealthEvent> HealthEventQueue::Wait(absl::Duration timeout) {
  MutexLock lock(&mu_);
  if (interrupt_pending_) {
    interrupt_pending_ = false;
    return std::nullopt;
  }
  const Wakeup wakeup{this, interrupts_};
  ++waiters_;
  mu_.AwaitWithTimeout(absl::Condition(&wakeup, &Wakeup::Ready), timeout);
  --waiters_;
  if (interrupts_ != wakeup.generation || events_.empty()) return std::nullopt;
  HealthEvent event = std::move(events_.front());
  events_.pop_front();
  return event;
}

void HealthEventQueue::Interrupt() {
  MutexLock lock(&mu_);
  ++interrupts_;
  if (waiters_ == 0) interrupt_pending_ = true;
}

}  // namespace ascend::device::sim::internal
