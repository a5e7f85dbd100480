// Streams on a private runtime: ids from the device, the kind's out-of-ids
// code, default streams, stale handles, and the stream participant.
#include "runtime/stream.h"

#include <set>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(StreamTest, IdsAreDistinctAndComeBackOnDestroy) {
  PrivateRuntime rt(/*devices=*/1, /*max_ids_per_kind=*/4);
  ASSERT_OK(rt->SetDevice(0));  // the default stream takes one id
  std::set<uint32_t> ids;
  std::vector<void*> streams;
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
    ASSERT_OK_AND_ASSIGN(StreamInfo info, Streams::Of(*rt)->GetStreamInfo(s));
    EXPECT_TRUE(ids.insert(info.id).second);
    streams.push_back(s);
  }
  // Out of stream ids: the stream kind's code.
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->CreateStream(0, 0).status()),
            ACL_ERROR_RT_NO_STREAM_RESOURCE);
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->CreateContext(0).status()),
            ACL_ERROR_RT_NO_STREAM_RESOURCE);
  ASSERT_OK(Streams::Of(*rt)->DestroyStream(streams[1], /*force=*/false));
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->DestroyStream(streams[1], false)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK_AND_ASSIGN(void* again, Streams::Of(*rt)->CreateStream(0, 0));
  EXPECT_NE(again, streams[1]);  // handles never repeat
}

TEST(StreamTest, DefaultStreamCannotBeDestroyedAndOtherKindsAreNotStreams) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* default_stream,
                       Streams::Of(*rt)->CurrentDefaultStream());
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->DestroyStream(default_stream, false)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK_AND_ASSIGN(void* event, rt.sync().CreateEvent(0));
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->SynchronizeStream(
                event, absl::InfiniteFuture())),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK_AND_ASSIGN(void* context, Streams::Of(*rt)->GetCurrentContext());
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->DestroyStream(context, false)),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(StreamTest, ParticipantSavesIdsAndReclaimsThemAfterReopen) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(StreamInfo info,
                       Streams::Of(*rt)->GetStreamInfo(stream));
  std::unique_ptr<SnapshotParticipant> participant = MakeStreamParticipant(*rt);
  EXPECT_EQ(participant->name(), "stream");
  ASSERT_OK_AND_ASSIGN(std::string before, participant->Describe(0));
  EXPECT_EQ(before.find("NOT HELD"), std::string::npos) << before;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SavedState> saved, participant->Save(0));
  ASSERT_OK(rt->DeviceObject(0)->Reopen());
  ASSERT_OK_AND_ASSIGN(std::string lost, participant->Describe(0));
  EXPECT_NE(lost, before);
  ASSERT_OK(saved->Restore());
  ASSERT_OK_AND_ASSIGN(std::string after, participant->Describe(0));
  EXPECT_EQ(after, before);
  // The re-claimed id is taken: the next stream gets another.
  ASSERT_OK_AND_ASSIGN(void* next, Streams::Of(*rt)->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(StreamInfo next_info,
                       Streams::Of(*rt)->GetStreamInfo(next));
  EXPECT_NE(next_info.id, info.id);
  // A second restore without a re-open finds the ids taken.
  EXPECT_FALSE(saved->Restore().ok());
}

}  // namespace
}  // namespace ascend::rt
