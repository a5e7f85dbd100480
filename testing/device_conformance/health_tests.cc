// Conformance: waiting for health events. Every wait in these tests is
// bounded, so a broken backend fails instead of hanging.
#include <atomic>
#include <optional>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"

namespace ascend::device::conformance {
namespace {

TEST_P(HealthConformanceTest, WaitTimesOutWithoutEvents) {
  const absl::Time start = absl::Now();
  EXPECT_FALSE(backend().WaitHealthEvent(absl::Milliseconds(50)).has_value());
  const absl::Duration waited = absl::Now() - start;
  EXPECT_GE(waited, absl::Milliseconds(45));
  EXPECT_LT(waited, absl::Seconds(10));
}

TEST_P(HealthConformanceTest, InterruptWakesABlockedWaiter) {
  std::atomic<bool> done{false};
  std::optional<HealthEvent> result;
  std::thread waiter([&] {
    result = backend().WaitHealthEvent(absl::Seconds(60));
    done = true;
  });
  // Interrupt until the waiter returns: whether an interrupt that arrives
  // before the wait starts is remembered is not part of the interface.
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (!done && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
    backend().InterruptHealthWait();
  }
  EXPECT_TRUE(done) << "WaitHealthEvent did not return after interrupts";
  if (!done) {
    // Let the thread finish on its own timeout rather than abandon it.
    backend().InterruptHealthWait();
  }
  waiter.join();
  EXPECT_FALSE(result.has_value());
}

}  // namespace
}  // namespace ascend::device::conformance
