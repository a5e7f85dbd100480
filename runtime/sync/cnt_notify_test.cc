// Count notifies on a private runtime: the record and wait modes, ids and
// their exhaustion, waits in stream order with timeouts and clearing, the
// release of waiters on destroy and device reset, and the saved state.
#include "runtime/sync/cnt_notify.h"

#include <cstdint>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(CntNotifyTest, RecordModes) {
  EXPECT_EQ(ApplyCntNotifyRecord(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9, 4),
            4u);
  EXPECT_EQ(ApplyCntNotifyRecord(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 9, 4), 13u);
  EXPECT_EQ(
      ApplyCntNotifyRecord(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, UINT32_MAX, 2),
      1u);
  EXPECT_EQ(ApplyCntNotifyRecord(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 9, 6),
            15u);
  EXPECT_EQ(ApplyCntNotifyRecord(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 9, 12),
            8u);
  for (int32_t mode : {0, 1, 2, 4}) EXPECT_TRUE(IsCntNotifyRecordMode(mode));
  for (int32_t mode : {-1, 3, 5, 99}) EXPECT_FALSE(IsCntNotifyRecordMode(mode));
}

TEST(CntNotifyTest, WaitModes) {
  EXPECT_TRUE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 2, 3));
  EXPECT_FALSE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 3, 3));
  EXPECT_TRUE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 3, 3));
  EXPECT_FALSE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 3));
  EXPECT_TRUE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 4, 3));
  EXPECT_FALSE(CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 3, 3));
  EXPECT_TRUE(
      CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 3));
  EXPECT_FALSE(
      CntNotifyWaitReleased(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 2, 3));
  EXPECT_TRUE(CntNotifyWaitReleased(
      ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0xF6, 0x36));
  EXPECT_FALSE(CntNotifyWaitReleased(
      ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0xF6, 0x37));
  for (int32_t mode : {0, 1, 2, 3, 4}) EXPECT_TRUE(IsCntNotifyWaitMode(mode));
  for (int32_t mode : {-1, 5, 99}) EXPECT_FALSE(IsCntNotifyWaitMode(mode));
}

TEST(CntNotifyTest, IdsAndTheirExhaustion) {
  PrivateRuntime rt(/*devices=*/1, /*max_ids_per_kind=*/2);
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* a, rt.sync().CreateCntNotify(0));
  ASSERT_OK_AND_ASSIGN(void* b, rt.sync().CreateCntNotify(0));
  ASSERT_OK_AND_ASSIGN(uint32_t id_a, rt.sync().CntNotifyId(a));
  ASSERT_OK_AND_ASSIGN(uint32_t id_b, rt.sync().CntNotifyId(b));
  EXPECT_NE(id_a, id_b);
  EXPECT_EQ(ErrorCode(rt.sync().CreateCntNotify(0).status()),
            ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
  // Its own id space: plain notifies still have theirs.
  ASSERT_OK(rt.sync().CreateNotify(0).status());
  ASSERT_OK(rt.sync().DestroyCntNotify(a));
  EXPECT_EQ(ErrorCode(rt.sync().DestroyCntNotify(a)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt.sync().CreateCntNotify(0).status());
  EXPECT_EQ(ErrorCode(rt.sync().CreateCntNotify(1).status()),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(CntNotifyTest, RecordWaitAndResetInStreamOrder) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt.sync().CreateCntNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().RecordCntNotify(notify, s,
                                      ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2));
  ASSERT_OK(rt.sync().RecordCntNotify(notify, s,
                                      ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3));
  ASSERT_OK(rt.sync().WaitCntNotify(notify, s,
                                    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5,
                                    /*timeout_s=*/1, /*clear=*/false));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(uint32_t value, rt.sync().CntNotifyValue(notify));
  EXPECT_EQ(value, 5u);
  ASSERT_OK(rt.sync().WaitCntNotify(notify, s,
                                    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 4,
                                    /*timeout_s=*/1, /*clear=*/true));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(value, rt.sync().CntNotifyValue(notify));
  EXPECT_EQ(value, 0u);
  ASSERT_OK(rt.sync().RecordCntNotify(
      notify, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9));
  ASSERT_OK(rt.sync().ResetCntNotify(notify, s));
  ASSERT_OK(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(value, rt.sync().CntNotifyValue(notify));
  EXPECT_EQ(value, 0u);
  // Not released within its timeout: the stream reports 107019.
  ASSERT_OK(rt.sync().WaitCntNotify(notify, s,
                                    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1,
                                    /*timeout_s=*/1, /*clear=*/false));
  EXPECT_EQ(
      ErrorCode(Streams::Of(*rt)->SynchronizeStream(s, absl::InfiniteFuture())),
      ACL_ERROR_RT_WAIT_TIMEOUT);
}

TEST(CntNotifyTest, DeviceResetReleasesAQueuedWait) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* notify, rt.sync().CreateCntNotify(0));
  ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK(rt.sync().WaitCntNotify(notify, s,
                                    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 7,
                                    /*timeout_s=*/0, /*clear=*/false));
  // Returns: the close cancels the notify and shuts the stream down.
  ASSERT_OK(rt->ResetDevice(0, /*force=*/true));
  EXPECT_EQ(ErrorCode(rt.sync().CntNotifyId(notify).status()),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(CntNotifyTest, SavedStateIsTheCount) {
  CntNotify notify(0, 3);
  notify.Record(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 17);
  const CntNotify::State saved = notify.SaveState();
  notify.Record(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  EXPECT_EQ(notify.value(), 18u);
  notify.RestoreState(saved);
  EXPECT_EQ(notify.value(), 17u);
  EXPECT_EQ(CntNotify::DescribeState(saved), "count 17");
}

}  // namespace
}  // namespace ascend::rt
