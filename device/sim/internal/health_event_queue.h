// The sim backend's queue of health events (Backend::WaitHealthEvent).
//
//   HealthEventQueue queue;
//   queue.Push({.device_id = 0, .description = "...", .device_abnormal =
//   true}); std::optional<HealthEvent> event = queue.Wait(absl::Seconds(1));
//   queue.Interrupt();   // from another thread: wakes the waiter
//
// Waiters block on a condition variable (no polling). Interrupt wakes every
// thread waiting at that moment (each returns nullopt); an interrupt that
// finds no waiter is remembered and makes the next Wait return nullopt at
// once, so a monitor thread that is about to wait cannot miss its shutdown.
// An interrupt takes precedence over queued events, which stay queued. At
// most kMaxPending events are kept; beyond that the oldest is dropped.
//
// Thread safety: every method may be called concurrently.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_HEALTH_EVENT_QUEUE_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_HEALTH_EVENT_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "device/device.h"

namespace ascend::device::sim::internal {

class HealthEventQueue {
 public:
  static constexpr size_t kMaxPending = 1024;

  void Push(HealthEvent event) ABSL_LOCKS_EXCLUDED(mu_);
  // The oldest queued event; waits up to `timeout` (any duration, including
  // absl::InfiniteDuration()) for one. nullopt on timeout or interrupt.
  std::optional<HealthEvent> Wait(absl::Duration timeout)
      ABSL_LOCKS_EXCLUDED(mu_);
  void Interrupt() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // What a waiter waits for: an event, or an interrupt after it started.
  struct Wakeup {
    const HealthEventQueue* queue;
    uint64_t generation;
    // Called by Mutex::Await with queue->mu_ held.
    bool Ready() const ABSL_NO_THREAD_SAFETY_ANALYSIS {
      return !queue->events_.empty() || queue->interrupts_ != generation;
    }
  };

  Mutex mu_;
  std::deque<HealthEvent> events_ ABSL_GUARDED_BY(mu_);
  uint64_t interrupts_ ABSL_GUARDED_BY(mu_) = 0;  // generation counter
  int waiters_ ABSL_GUARDED_BY(mu_) = 0;
  bool interrupt_pending_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_HEALTH_EVENT_QUEUE_H_
