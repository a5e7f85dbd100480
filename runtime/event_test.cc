#include "runtime/event.h"

#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

TEST(EventTest, NeverRecordedIsComplete) {
  Event event(0, 1, 0);
  EXPECT_TRUE(event.IsComplete());
  EXPECT_TRUE(event.WaitFor(event.LatestRecord(), absl::Now()));
}

TEST(EventTest, ALaterRecordDoesNotCompleteAnEarlierOne) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  const uint64_t second = event.BeginRecord();
  event.Complete(second);
  EXPECT_FALSE(event.WaitFor(first, absl::Now() + absl::Milliseconds(20)));
  EXPECT_TRUE(event.WaitFor(second, absl::Now()));
  // The latest record has run: the event counts as complete.
  EXPECT_TRUE(event.IsComplete());
  EXPECT_TRUE(event.Timestamp().has_value());
  event.Complete(first);
  EXPECT_TRUE(event.WaitFor(first, absl::Now()));
}

TEST(EventTest, WaitForIsReleasedByItsOwnRecord) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  const uint64_t second = event.BeginRecord();
  event.Complete(second);
  std::thread completer([&] {
    absl::SleepFor(absl::Milliseconds(20));
    event.Complete(first);
  });
  EXPECT_TRUE(event.WaitFor(first, absl::Now() + absl::Seconds(10)));
  completer.join();
}

TEST(EventTest, LatestRecordPendingIsNotComplete) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  const uint64_t second = event.BeginRecord();
  event.Complete(first);
  EXPECT_FALSE(event.IsComplete());
  EXPECT_FALSE(event.Timestamp().has_value());
  event.Complete(second);
  EXPECT_TRUE(event.IsComplete());
  EXPECT_TRUE(event.Timestamp().has_value());
}

TEST(EventTest, TimestampIsTheNewestRecordsCompletion) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  const uint64_t second = event.BeginRecord();
  event.Complete(second);
  const std::optional<absl::Time> stamp = event.Timestamp();
  ASSERT_TRUE(stamp.has_value());
  absl::SleepFor(absl::Milliseconds(2));
  event.Complete(first);  // older record: keeps the newer one's time
  EXPECT_EQ(event.Timestamp(), stamp);
}

// Memory is bounded by the records still pending, however many later records
// complete while an early one waits on a busy stream.
TEST(EventTest, OnlyPendingRecordsAreKept) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  constexpr uint64_t kLater = 1000;
  for (uint64_t i = 0; i < kLater; ++i) event.Complete(event.BeginRecord());
  Event::State state = event.SaveState();
  EXPECT_EQ(state.recorded, kLater + 1);
  EXPECT_EQ(state.pending, std::vector<uint64_t>{first});
  EXPECT_FALSE(event.WaitFor(first, absl::Now()));
  EXPECT_TRUE(event.IsComplete());
  event.Complete(first);
  state = event.SaveState();
  EXPECT_TRUE(state.pending.empty());
  EXPECT_TRUE(event.WaitFor(first, absl::Now()));
}

TEST(EventTest, CompletingTwiceIsHarmless) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  event.Complete(first);
  const std::optional<absl::Time> stamp = event.Timestamp();
  absl::SleepFor(absl::Milliseconds(2));
  event.Complete(first);
  EXPECT_EQ(event.Timestamp(), stamp);
  EXPECT_TRUE(event.SaveState().pending.empty());
}

TEST(EventTest, SaveAndRestoreKeepPerRecordCompletion) {
  Event event(0, 1, 0);
  const uint64_t first = event.BeginRecord();
  const uint64_t second = event.BeginRecord();
  const uint64_t third = event.BeginRecord();
  event.Complete(third);
  const Event::State state = event.SaveState();

  Event restored(0, 1, 0);
  restored.RestoreState(state);
  EXPECT_EQ(restored.LatestRecord(), third);
  EXPECT_TRUE(restored.IsComplete());
  EXPECT_FALSE(restored.WaitFor(first, absl::Now()));
  EXPECT_FALSE(restored.WaitFor(second, absl::Now()));
  EXPECT_TRUE(restored.WaitFor(third, absl::Now()));
  EXPECT_EQ(restored.Timestamp(), event.Timestamp());
  restored.Complete(first);
  restored.Complete(second);
  EXPECT_TRUE(restored.WaitFor(first, absl::Now()));
  EXPECT_TRUE(restored.SaveState().pending.empty());
}

}  // namespace
}  // namespace ascend::rt
