// Contexts on a private runtime: creation, the thread's current context per
// runtime instance, destruction with its streams, and device close.
#include "runtime/context.h"

#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(ContextTest, NoCurrentContextWithoutADevice) {
  PrivateRuntime rt;
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->GetCurrentContext().status()),
            ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(ContextTest, CreatedContextBecomesCurrentAndHasItsOwnDefaultStream) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* primary, Streams::Of(*rt)->GetCurrentContext());
  ASSERT_OK_AND_ASSIGN(void* primary_stream,
                       Streams::Of(*rt)->CurrentDefaultStream());
  ASSERT_OK_AND_ASSIGN(void* created, Streams::Of(*rt)->CreateContext(1));
  EXPECT_NE(created, primary);
  ASSERT_OK_AND_ASSIGN(void* current, Streams::Of(*rt)->GetCurrentContext());
  EXPECT_EQ(current, created);
  ASSERT_OK_AND_ASSIGN(int32_t device, rt->GetDevice());
  EXPECT_EQ(device, 1);
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt)->CurrentDefaultStream());
  EXPECT_NE(stream, primary_stream);
  ASSERT_OK(Streams::Of(*rt)->SetCurrentContext(primary));
  ASSERT_OK_AND_ASSIGN(device, rt->GetDevice());
  EXPECT_EQ(device, 0);
  // The default context goes with its device, not with DestroyContext.
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->DestroyContext(primary)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(Streams::Of(*rt)->DestroyContext(created));
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->DestroyContext(created)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->SetCurrentContext(created)),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(ContextTest, DestroyContextTakesItsStreamsAndReleasesTheirIds) {
  PrivateRuntime rt;
  ASSERT_OK_AND_ASSIGN(void* ctx, Streams::Of(*rt)->CreateContext(0));
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt)->CreateStream(0, 0));
  const size_t streams = rt->Objects<Stream>(0).size();
  // The primary context's default stream (CreateContext opened the device),
  // the created context's and `stream`.
  EXPECT_EQ(streams, 3u);
  ASSERT_OK(Streams::Of(*rt)->DestroyContext(ctx));
  EXPECT_TRUE(rt->Objects<Stream>(0).empty());
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->SynchronizeStream(
                stream, absl::InfiniteFuture())),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(rt->DeviceObject(0), nullptr);  // its reference was the last
}

TEST(ContextTest, ResetEndsEveryContextOfTheDevice) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* created, Streams::Of(*rt)->CreateContext(0));
  ASSERT_OK(rt->ResetDevice(0, /*force=*/true));
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->SetCurrentContext(created)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(Streams::Of(*rt)->GetCurrentContext().status()),
            ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(ContextTest, EachInstanceKeepsItsOwnCurrentContextPerThread) {
  PrivateRuntime a;
  PrivateRuntime b;
  ASSERT_OK(a->SetDevice(1));
  EXPECT_EQ(ErrorCode(b->GetDevice().status()), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_OK(b->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(int32_t on_a, a->GetDevice());
  ASSERT_OK_AND_ASSIGN(int32_t on_b, b->GetDevice());
  EXPECT_EQ(on_a, 1);
  EXPECT_EQ(on_b, 0);
  // A context handle of one instance is unknown to the other.
  ASSERT_OK_AND_ASSIGN(void* ctx_a, Streams::Of(*a)->GetCurrentContext());
  EXPECT_EQ(ErrorCode(Streams::Of(*b)->SetCurrentContext(ctx_a)),
            ACL_ERROR_RT_PARAM_INVALID);
  // Another thread starts without a current context.
  std::thread([&] {
    EXPECT_EQ(ErrorCode(a->GetDevice().status()), ACL_ERROR_RT_CONTEXT_NULL);
  }).join();
}

}  // namespace
}  // namespace ascend::rt
