// Notifies on a private runtime: ids, the out-of-ids code, record and wait
// in stream order, and the notify participant's saved state.
#include "runtime/notify.h"

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(NotifyTest, IdsAndTheirExhaustion) {
  PrivateRuntime rt(/*devices=*/1, /*max_ids_per_kind=*/2);
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* a, rt->CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* b, rt->CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(uint32_t id_a, rt->NotifyId(a));
  ASSERT_OK_AND_ASSIGN(uint32_t id_b, rt->NotifyId(b));
  EXPECT_NE(id_a, id_b);
  EXPECT_EQ(ErrorCode(rt->CreateNotify(0).status()),
            ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
  ASSERT_OK(rt->DestroyNotify(a));
  EXPECT_EQ(ErrorCode(rt->DestroyNotify(a)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt->CreateNotify(0).status());
  EXPECT_EQ(ErrorCode(rt->CreateNotify(1).status()), ACL_ERROR_INVALID_PARAM);
}

TEST(NotifyTest, RecordThenWaitInStreamOrder) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt->CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, rt->CreateStream(0, 0));
  ASSERT_OK(rt->RecordNotify(notify, s));
  ASSERT_OK(rt->WaitAndResetNotify(notify, s, /*timeout_ms=*/1000));
  ASSERT_OK(rt->SynchronizeStream(s, absl::InfiniteFuture()));
  // Reset by the wait: a second wait times out.
  ASSERT_OK(rt->WaitAndResetNotify(notify, s, /*timeout_ms=*/30));
  EXPECT_EQ(ErrorCode(rt->SynchronizeStream(s, absl::InfiniteFuture())),
            ACL_ERROR_RT_WAIT_TIMEOUT);
}

TEST(NotifyTest, ParticipantRestoresAPendingRecord) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt->CreateNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, rt->CreateStream(0, 0));
  ASSERT_OK(rt->RecordNotify(notify, s));
  ASSERT_OK(rt->SynchronizeStream(s, absl::InfiniteFuture()));
  std::unique_ptr<SnapshotParticipant> participant = MakeNotifyParticipant(*rt);
  ASSERT_OK_AND_ASSIGN(std::string before, participant->Describe(0));
  EXPECT_NE(before.find("recorded"), std::string::npos) << before;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SavedState> saved, participant->Save(0));
  // The record is consumed after the backup, and the device re-opened.
  ASSERT_OK(rt->WaitAndResetNotify(notify, s, 1000));
  ASSERT_OK(rt->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK(rt->DeviceObject(0)->Reopen());
  ASSERT_OK(saved->Restore());
  ASSERT_OK_AND_ASSIGN(std::string after, participant->Describe(0));
  EXPECT_EQ(after, before);
  // The restored record releases a wait.
  ASSERT_OK(rt->WaitAndResetNotify(notify, s, 1000));
  ASSERT_OK(rt->SynchronizeStream(s, absl::InfiniteFuture()));
}

}  // namespace
}  // namespace ascend::rt
