// The task path (DESIGN.md §1.6): what a hook sees of each submission and
// access, and what refusing or taking a task does, on a private runtime.
#include "runtime/task_path.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "gtest/gtest.h"
#include "runtime/host_func/host_func.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

struct Seen {
  TaskKind kind;
  std::string api;
  TaskWrites writes;
  bool maker = false;
  bool has_event = false;
};

// Records every submission and access; refuses or takes on request.
class RecordingHook : public TaskHook {
 public:
  absl::Status OnSubmit(Submission& s, bool& taken) override {
    absl::MutexLock lock(&mu_);
    submissions_.push_back(
        Seen{s.kind, s.api, s.writes, s.make != nullptr, s.event != nullptr});
    if (!refuse_.ok()) return refuse_;
    taken = take_;
    return absl::OkStatus();
  }
  absl::Status OnAccess(const HostAccess& access) override {
    absl::MutexLock lock(&mu_);
    accesses_.push_back(access);
    return refuse_;
  }
  std::vector<Seen> submissions() {
    absl::MutexLock lock(&mu_);
    return submissions_;
  }
  std::vector<HostAccess> accesses() {
    absl::MutexLock lock(&mu_);
    return accesses_;
  }
  void Clear() {
    absl::MutexLock lock(&mu_);
    submissions_.clear();
    accesses_.clear();
  }
  void Refuse(absl::Status status) {
    absl::MutexLock lock(&mu_);
    refuse_ = std::move(status);
  }
  void Take(bool take) {
    absl::MutexLock lock(&mu_);
    take_ = take;
  }

 private:
  absl::Mutex mu_;
  std::vector<Seen> submissions_;
  std::vector<HostAccess> accesses_;
  absl::Status refuse_;
  bool take_ = false;
};

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

class TaskPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(rt_->tasks().AddHook(&hook_));
    ASSERT_OK(rt_->SetDevice(0));
    ASSERT_OK_AND_ASSIGN(stream_, Streams::Of(*rt_)->CreateStream(0, 0));
    ASSERT_OK_AND_ASSIGN(dev_,
                         rt_.memory().Malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(rt_.memory().Memset(dev_, 4096, 0, 4096));
    hook_.Clear();
  }
  void TearDown() override {
    hook_.Refuse(absl::OkStatus());
    hook_.Take(false);
    EXPECT_OK(rt_.memory().Free(dev_));
    EXPECT_OK(Streams::Of(*rt_)->DestroyStream(stream_, false));
  }
  std::vector<uint8_t> Read() {
    std::vector<uint8_t> bytes(4096);
    EXPECT_OK(rt_.memory().Memcpy(bytes.data(), bytes.size(), dev_,
                                  bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    return bytes;
  }

  PrivateRuntime rt_;
  RecordingHook hook_;
  void* stream_ = nullptr;
  void* dev_ = nullptr;
};

TEST_F(TaskPathTest, EverySubmissionPassesTheHookWithWhatItMayWrite) {
  const uint8_t src[16] = {1, 2, 3};
  ASSERT_OK(rt_.memory().MemcpyAsync(dev_, 4096, src, sizeof src,
                                     ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_OK(rt_.memory().MemsetAsync(static_cast<uint8_t*>(dev_) + 64, 64, 7,
                                     32, stream_));
  ASSERT_OK(rt_.memory().ValueWrite(static_cast<uint8_t*>(dev_) + 128, 5, 0,
                                    stream_));
  ASSERT_OK_AND_ASSIGN(void* event, rt_.sync().CreateEvent(0));
  ASSERT_OK(rt_.sync().RecordEvent(event, stream_));
  ASSERT_OK(rt_.sync().StreamWaitEvent(stream_, event));
  static std::atomic<int> calls{0};
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(
      stream_, [](void*) { calls.fetch_add(1); }, nullptr));
  ASSERT_OK(
      Streams::Of(*rt_)->SynchronizeStream(stream_, absl::InfiniteFuture()));
  EXPECT_EQ(calls.load(), 1);

  const std::vector<Seen> seen = hook_.submissions();
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[0].kind, TaskKind::kCopy);
  EXPECT_EQ(seen[0].api, "aclrtMemcpyAsync");
  ASSERT_EQ(seen[0].writes.ranges.size(), 1u);
  EXPECT_EQ(seen[0].writes.ranges[0].addr, Addr(dev_));
  EXPECT_EQ(seen[0].writes.ranges[0].size, sizeof src);
  EXPECT_FALSE(seen[0].writes.any);

  EXPECT_EQ(seen[1].kind, TaskKind::kMemset);
  ASSERT_EQ(seen[1].writes.ranges.size(), 1u);
  EXPECT_EQ(seen[1].writes.ranges[0].addr, Addr(dev_) + 64);
  EXPECT_EQ(seen[1].writes.ranges[0].size, 32u);

  EXPECT_EQ(seen[2].kind, TaskKind::kValueWrite);
  ASSERT_EQ(seen[2].writes.ranges.size(), 1u);
  EXPECT_EQ(seen[2].writes.ranges[0].device_id, 0);
  EXPECT_EQ(seen[2].writes.ranges[0].addr, Addr(dev_) + 128);
  EXPECT_EQ(seen[2].writes.ranges[0].size, 8u);

  EXPECT_EQ(seen[3].kind, TaskKind::kEventRecord);
  EXPECT_TRUE(seen[3].maker);
  EXPECT_TRUE(seen[3].has_event);
  EXPECT_TRUE(seen[3].writes.ranges.empty());
  EXPECT_EQ(seen[4].kind, TaskKind::kEventWait);
  EXPECT_TRUE(seen[4].maker);
  EXPECT_EQ(seen[5].kind, TaskKind::kHostFunc);
  EXPECT_TRUE(seen[5].writes.any);

  const std::vector<uint8_t> bytes = Read();
  EXPECT_EQ(bytes[0], 1);
  EXPECT_EQ(bytes[64], 7);
  EXPECT_EQ(bytes[128], 5);
  EXPECT_OK(rt_.sync().DestroyEvent(event));
}

TEST_F(TaskPathTest, ARefusalQueuesNothingAndIsTheCallersAnswer) {
  hook_.Refuse(absl::FailedPreconditionError("refused by the test hook"));
  EXPECT_EQ(rt_.memory().MemsetAsync(dev_, 4096, 9, 4096, stream_).code(),
            absl::StatusCode::kFailedPrecondition);
  const uint8_t src[4] = {9, 9, 9, 9};
  EXPECT_EQ(rt_.memory()
                .MemcpyAsync(dev_, 4096, src, sizeof src,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream_)
                .code(),
            absl::StatusCode::kFailedPrecondition);
  hook_.Refuse(absl::OkStatus());
  ASSERT_OK(
      Streams::Of(*rt_)->SynchronizeStream(stream_, absl::InfiniteFuture()));
  for (uint8_t b : Read()) ASSERT_EQ(b, 0);
}

TEST_F(TaskPathTest, ATakenTaskNeverReachesTheQueue) {
  hook_.Take(true);
  static std::atomic<int> calls{0};
  calls = 0;
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(
      stream_, [](void*) { calls.fetch_add(1); }, nullptr));
  ASSERT_OK(rt_.memory().MemsetAsync(dev_, 4096, 3, 4096, stream_));
  hook_.Take(false);
  ASSERT_OK(
      Streams::Of(*rt_)->SynchronizeStream(stream_, absl::InfiniteFuture()));
  EXPECT_EQ(calls.load(), 0);
  for (uint8_t b : Read()) ASSERT_EQ(b, 0);
}

TEST_F(TaskPathTest, SynchronousCallsPassTheAccessPointFirst) {
  const uint8_t src[8] = {4, 4};
  ASSERT_OK(rt_.memory().Memcpy(dev_, 4096, src, sizeof src,
                                ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_OK(
      Streams::Of(*rt_)->SynchronizeStream(stream_, absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(bool idle, Streams::Of(*rt_)->StreamIdle(stream_));
  EXPECT_TRUE(idle);
  std::vector<HostAccess> seen = hook_.accesses();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].op, HostOp::kMemoryWrite);
  EXPECT_EQ(std::string(seen[0].api), "aclrtMemcpy");
  EXPECT_EQ(seen[0].range.addr, Addr(dev_));
  EXPECT_EQ(seen[1].op, HostOp::kStreamSynchronize);
  EXPECT_EQ(seen[2].op, HostOp::kStreamQuery);

  // A refused access touches nothing.
  hook_.Refuse(absl::FailedPreconditionError("refused by the test hook"));
  EXPECT_EQ(rt_.memory().Memset(dev_, 4096, 1, 4096).code(),
            absl::StatusCode::kFailedPrecondition);
  hook_.Refuse(absl::OkStatus());
  const std::vector<uint8_t> bytes = Read();
  EXPECT_EQ(bytes[0], 4);
  EXPECT_EQ(bytes[100], 0);
}

TEST(TaskPathHooks, HoldsAFixedNumberOfHooks) {
  TaskPath path;
  RecordingHook hooks[TaskPath::kMaxHooks + 1];
  for (int i = 0; i < TaskPath::kMaxHooks; ++i) {
    EXPECT_OK(path.AddHook(&hooks[i]));
  }
  EXPECT_EQ(path.AddHook(&hooks[TaskPath::kMaxHooks]).code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace ascend::rt
