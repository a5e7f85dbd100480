#include "device/sim/internal/health_event_queue.h"

#include <optional>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/device.h"
#include "gtest/gtest.h"

namespace ascend::device::sim::internal {
namespace {

HealthEvent Event(int32_t device) {
  return HealthEvent{device, "event", /*device_abnormal=*/true};
}

TEST(HealthEventQueueTest, ReturnsEventsInOrder) {
  HealthEventQueue queue;
  queue.Push(Event(1));
  queue.Push(Event(2));
  std::optional<HealthEvent> first = queue.Wait(absl::ZeroDuration());
  std::optional<HealthEvent> second = queue.Wait(absl::ZeroDuration());
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(first->device_id, 1);
  EXPECT_EQ(second->device_id, 2);
  EXPECT_FALSE(queue.Wait(absl::ZeroDuration()).has_value());
}

TEST(HealthEventQueueTest, TimesOutAfterTheTimeout) {
  HealthEventQueue queue;
  const absl::Time start = absl::Now();
  EXPECT_FALSE(queue.Wait(absl::Milliseconds(50)).has_value());
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(45));
}

TEST(HealthEventQueueTest, WakesAWaiterWhenAnEventArrives) {
  HealthEventQueue queue;
  std::optional<HealthEvent> received;
  std::thread waiter([&] { received = queue.Wait(absl::Seconds(30)); });
  absl::SleepFor(absl::Milliseconds(20));
  const absl::Time pushed = absl::Now();
  queue.Push(Event(7));
  waiter.join();
  EXPECT_LT(absl::Now() - pushed, absl::Seconds(10));
  ASSERT_TRUE(received.has_value());
  EXPECT_EQ(received->device_id, 7);
}

TEST(HealthEventQueueTest, InterruptWakesEveryWaiter) {
  HealthEventQueue queue;
  std::optional<HealthEvent> a = Event(0), b = Event(0);
  std::thread first([&] { a = queue.Wait(absl::InfiniteDuration()); });
  std::thread second([&] { b = queue.Wait(absl::Seconds(30)); });
  absl::SleepFor(absl::Milliseconds(50));
  queue.Interrupt();
  first.join();
  second.join();
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(b.has_value());
}

TEST(HealthEventQueueTest, InterruptWithoutWaiterIsNotLostAndTakesPriority) {
  HealthEventQueue queue;
  queue.Push(Event(3));
  queue.Interrupt();
  const absl::Time start = absl::Now();
  EXPECT_FALSE(queue.Wait(absl::Seconds(30)).has_value());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  // Consumed once; the queued event is still there.
  std::optional<HealthEvent> event = queue.Wait(absl::ZeroDuration());
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(event->device_id, 3);
}

TEST(HealthEventQueueTest, KeepsOnlyTheNewestEvents) {
  HealthEventQueue queue;
  const int total = static_cast<int>(HealthEventQueue::kMaxPending) + 10;
  for (int i = 0; i < total; ++i) queue.Push(Event(i));
  std::optional<HealthEvent> oldest = queue.Wait(absl::ZeroDuration());
  ASSERT_TRUE(oldest.has_value());
  EXPECT_EQ(oldest->device_id, 10);
}

}  // namespace
}  // namespace ascend::device::sim::internal
