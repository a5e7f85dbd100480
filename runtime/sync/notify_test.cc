// Notifies on a private runtime: ids, the out-of-ids code, record and wait
// in stream order, and the notify participant's saved state.
#include "runtime/sync/notify.h"

#include "absl/strings/string_view.h"
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

TEST(NotifyTest, IdsAndTheirExhaustion) {
  PrivateRuntime rt(/*devices=*/1, /*max_ids_per_kind=*/2);
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* a, rt.sync().CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* b, rt.sync().CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(uint32_t id_a, rt.sync().NotifyId(a));
  ASSERT_OK_AND_ASSIGN(uint32_t id_b, rt.sync().NotifyId(b));
  EXPECT_NE(id_a, id_b);
  EXPECT_EQ(ErrorCode(rt.sync().CreateNotify(0).status()),
            ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
  ASSERT_OK(rt.sync().DestroyNotify(a));
  EXPECT_EQ(ErrorCode(rt.sync().DestroyNotify(a)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt.sync().CreateNotify(0).status());
  EXPECT_EQ(ErrorCode(rt.sync().CreateNotify(2).status()),
            ACL_ERROR_INVALID_PARAM);
}

// A close of the notify's device releases a wait queued on another device's
// stream (the object's close hook, not the stream's shutdown): the stream
// fails the wait instead of blocking forever.
TEST(NotifyTest, ClosingTheNotifysDeviceReleasesAWaitElsewhere) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt.sync().CreateNotify(0));
  ASSERT_OK(rt->SetDevice(1));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().WaitAndResetNotify(notify, s, absl::ZeroDuration()));
  ASSERT_OK(rt->ResetDevice(0, /*force=*/true));
  const absl::Status synced =
      Streams::Of(*rt)->SynchronizeStream(s, absl::Now() + absl::Seconds(20));
  EXPECT_FALSE(synced.ok());
  EXPECT_NE(ErrorCode(synced), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) << synced;
  EXPECT_EQ(ErrorCode(rt.sync().NotifyId(notify).status()),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(NotifyTest, RecordThenWaitInStreamOrder) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt.sync().CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().RecordNotify(notify, s));
  ASSERT_OK(rt.sync().WaitAndResetNotify(notify, s, absl::Seconds(1)));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  // Reset by the wait: a second wait times out.
  ASSERT_OK(rt.sync().WaitAndResetNotify(notify, s, absl::Milliseconds(30)));
  EXPECT_EQ(
      ErrorCode(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture())),
      ACL_ERROR_RT_WAIT_TIMEOUT);
}

TEST(NotifyTest, ParticipantRestoresAPendingRecord) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt.sync().CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().RecordNotify(notify, s));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  std::unique_ptr<SnapshotParticipant> participant =
      FamilyParticipant(*rt, "notify");
  ASSERT_OK_AND_ASSIGN(std::string before, participant->Describe(0));
  EXPECT_NE(before.find("recorded"), std::string::npos) << before;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SavedState> saved, participant->Save(0));
  // The record is consumed after the backup, and the device re-opened.
  ASSERT_OK(rt.sync().WaitAndResetNotify(notify, s, absl::Seconds(1)));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK(rt->DeviceObject(0)->Reopen());
  ASSERT_OK(saved->Restore());
  ASSERT_OK_AND_ASSIGN(std::string after, participant->Describe(0));
  EXPECT_EQ(after, before);
  // The restored record releases a wait.
  ASSERT_OK(rt.sync().WaitAndResetNotify(notify, s, absl::Seconds(1)));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
}

}  // namespace
}  // namespace ascend::rt
