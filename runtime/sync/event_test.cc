#include "runtime/sync/event.h"

#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/family_participant_test_util.h"
#include "runtime/sync/sync.h"
#include "testing/status_matchers.h"

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

// --- The runtime's events (private runtime) ---------------------------------

TEST(RuntimeEventTest, IdsTheirExhaustionAndStaleHandles) {
  PrivateRuntime rt(/*devices=*/1, /*max_ids_per_kind=*/2);
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* a, rt.sync().CreateEvent(0));
  ASSERT_OK(rt.sync().CreateEvent(0).status());
  EXPECT_EQ(ErrorCode(rt.sync().CreateEvent(0).status()),
            ACL_ERROR_RT_NO_EVENT_RESOURCE);
  ASSERT_OK(rt.sync().DestroyEvent(a));
  EXPECT_EQ(ErrorCode(rt.sync().DestroyEvent(a)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt.sync().EventComplete(a).status()),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt.sync().CreateEvent(0).status());  // the id came back
}

TEST(RuntimeEventTest, ParticipantRestoresRecordStateAndTheId) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* event, rt.sync().CreateEvent(0));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().RecordEvent(event, s));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(const uint64_t stamp, rt.sync().EventTimestamp(event));
  std::unique_ptr<SnapshotParticipant> participant =
      FamilyParticipant(*rt, "event");
  EXPECT_EQ(participant->name(), "event");
  ASSERT_OK_AND_ASSIGN(std::string before, participant->Describe(0));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SavedState> saved, participant->Save(0));
  // More records and a reset after the backup, then the device re-opens.
  ASSERT_OK(rt.sync().RecordEvent(event, s));
  ASSERT_OK(rt.sync().ResetEvent(event, s));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK(rt->DeviceObject(0)->Reopen());
  ASSERT_OK(saved->Restore());
  ASSERT_OK_AND_ASSIGN(std::string after, participant->Describe(0));
  EXPECT_EQ(after, before);
  ASSERT_OK_AND_ASSIGN(const uint64_t restored,
                       rt.sync().EventTimestamp(event));
  EXPECT_EQ(restored, stamp);
}

}  // namespace
}  // namespace ascend::rt
