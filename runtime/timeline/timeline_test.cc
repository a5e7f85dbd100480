// The timeline family (DESIGN.md §5.24) on a private runtime: what an
// observer sees of plain tasks, of the tasks of a model's executions, of
// marks, and when it stops seeing anything.
#include "runtime/timeline/timeline.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/exception_info.h"
#include "runtime/model/model.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

struct Seen {
  uint32_t kind;
  int32_t device;
  uint32_t stream;
  uint32_t model;
  uint32_t thread;
  int32_t result;
  uint64_t start;
  uint64_t end;
  std::string api;
  std::string name;
};

class Recorder {
 public:
  static void Observe(const ascendclTaskRecord* r, void* self) {
    static_cast<Recorder*>(self)->Add(*r);
  }
  void Add(const ascendclTaskRecord& r) {
    absl::MutexLock lock(&mu_);
    seen_.push_back(Seen{r.kind, r.deviceId, r.streamId, r.modelId, r.threadId,
                         r.result, r.startNs, r.endNs, r.api, r.name});
  }
  std::vector<Seen> Take() {
    absl::MutexLock lock(&mu_);
    return std::move(seen_);
  }

 private:
  absl::Mutex mu_;
  std::vector<Seen> seen_;
};

class TimelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(rt_->SetDevice(0));
    timeline_ = Timeline::Of(*rt_);
    ASSERT_NE(timeline_, nullptr);
    ASSERT_OK_AND_ASSIGN(buffer_,
                         rt_.memory().Malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK_AND_ASSIGN(stream_, Streams::Of(*rt_)->CreateStream(0, 0));
  }
  void TearDown() override {
    ASSERT_OK(timeline_->SetObserver(nullptr, nullptr));
  }
  absl::Status Memset() {
    return rt_.memory().MemsetAsync(buffer_, 4096, 1, 4096, stream_);
  }
  absl::Status Sync() {
    return Streams::Of(*rt_)->SynchronizeStream(stream_,
                                                absl::InfiniteFuture());
  }

  PrivateRuntime rt_;
  Timeline* timeline_ = nullptr;
  void* buffer_ = nullptr;
  void* stream_ = nullptr;
  Recorder recorder_;
};

TEST_F(TimelineTest, ReportsEveryTaskSubmittedWhileObservedWithItsStream) {
  ASSERT_OK(Memset());  // before the observer: not reported
  ASSERT_OK(Sync());
  EXPECT_FALSE(timeline_->observing());
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  EXPECT_TRUE(timeline_->observing());
  ASSERT_OK(Memset());
  std::vector<uint8_t> host(4096);
  ASSERT_OK(rt_.memory().MemcpyAsync(host.data(), host.size(), buffer_, 4096,
                                     ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_OK(Sync());
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<Stream> s, rt_->ResolveStream(stream_));
  std::vector<Seen> seen = recorder_.Take();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].kind, ASCENDCL_TASK_MEMSET);
  EXPECT_EQ(seen[0].api, "aclrtMemsetAsync");
  EXPECT_EQ(seen[1].kind, ASCENDCL_TASK_COPY);
  EXPECT_EQ(seen[1].api, "aclrtMemcpyAsync");
  for (const Seen& t : seen) {
    EXPECT_EQ(t.device, 0);
    EXPECT_EQ(t.stream, s->id());
    EXPECT_EQ(t.model, ASCENDCL_TIMELINE_NO_MODEL);
    EXPECT_EQ(t.result, ACL_SUCCESS);
    EXPECT_EQ(t.thread, CurrentThreadId());
    EXPECT_LE(t.start, t.end);
    EXPECT_EQ(t.name, "");
  }
  // In stream order.
  EXPECT_LE(seen[0].end, seen[1].start);
}

TEST_F(TimelineTest, AFailedTaskIsReportedWithItsCode) {
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<Stream> s, rt_->ResolveStream(stream_));
  ASSERT_OK(rt_->tasks().Submit(
      TaskKind::kHostFunc, "test", s,
      Task{[] { return Error(ACL_ERROR_RT_AICORE_EXCEPTION, "fails"); },
           nullptr}));
  EXPECT_FALSE(Sync().ok());
  std::vector<Seen> seen = recorder_.Take();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, ASCENDCL_TASK_HOST_FUNC);
  EXPECT_EQ(seen[0].result, ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST_F(TimelineTest, MarksCarryTheirMessage) {
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  ASSERT_OK(timeline_->Mark(stream_, "step 3"));
  ASSERT_OK(Sync());
  std::vector<Seen> seen = recorder_.Take();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, ASCENDCL_TASK_MARKER);
  EXPECT_EQ(seen[0].api, "ascendclTimelineMark");
  EXPECT_EQ(seen[0].name, "step 3");
  EXPECT_FALSE(timeline_->Mark(reinterpret_cast<void*>(0x1234), "x").ok());
}

TEST_F(TimelineTest,
       TasksOfAModelCapturedUnobservedAreReportedAtEachExecution) {
  Models& models = *Models::Of(*rt_);
  // Captured while nobody observes.
  ASSERT_OK(models.CaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_OK(Memset());
  ASSERT_OK(Memset());
  ASSERT_OK_AND_ASSIGN(void* model, models.CaptureEnd(stream_));
  ASSERT_OK_AND_ASSIGN(uint32_t id, models.Id(model));
  EXPECT_EQ(models.DeviceOfModel(id), std::optional<int32_t>(0));
  EXPECT_EQ(models.DeviceOfModel(id + 100), std::nullopt);
  // Executed unobserved: nothing.
  ASSERT_OK(models.ExecuteAsync(model, stream_));
  ASSERT_OK(Sync());
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  for (int round = 0; round < 2; ++round) {
    ASSERT_OK(models.ExecuteAsync(model, stream_));
    ASSERT_OK(Sync());
  }
  std::vector<Seen> seen = recorder_.Take();
  int memsets = 0, executions = 0;
  for (const Seen& t : seen) {
    EXPECT_EQ(t.model, id) << t.api;
    if (t.kind == ASCENDCL_TASK_MEMSET) ++memsets;
    if (t.kind == ASCENDCL_TASK_MODEL_EXECUTE) ++executions;
  }
  EXPECT_EQ(memsets, 4);
  // Per execution: the execution on stream_ and its one stream's program.
  EXPECT_EQ(executions, 4);
  ASSERT_OK(models.Destroy(model));
}

TEST_F(TimelineTest, NoCallAfterTheObserverIsRemoved) {
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  ASSERT_OK(Memset());
  ASSERT_OK(timeline_->SetObserver(nullptr, nullptr));
  ASSERT_OK(Sync());
  recorder_.Take();
  // Tasks wrapped while observed but run after: unreported.
  ASSERT_OK(timeline_->SetObserver(&Recorder::Observe, &recorder_));
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<Stream> s, rt_->ResolveStream(stream_));
  absl::Notification release;
  ASSERT_OK(rt_->tasks().Submit(TaskKind::kHostFunc, "hold", s,
                                Task{[&] {
                                       release.WaitForNotification();
                                       return absl::OkStatus();
                                     },
                                     nullptr}));
  ASSERT_OK(Memset());
  ASSERT_OK(timeline_->SetObserver(nullptr, nullptr));
  release.Notify();
  ASSERT_OK(Sync());
  EXPECT_TRUE(recorder_.Take().empty());
}

struct Inside {
  Timeline* timeline;
  absl::Status status;
};

TEST_F(TimelineTest, AnObserverCannotReplaceItself) {
  static Inside inside;
  inside.timeline = timeline_;
  ASSERT_OK(timeline_->SetObserver(
      [](const ascendclTaskRecord*, void* p) {
        auto* in = static_cast<Inside*>(p);
        in->status = in->timeline->SetObserver(nullptr, nullptr);
      },
      &inside));
  ASSERT_OK(Memset());
  ASSERT_OK(Sync());
  EXPECT_EQ(ErrorCode(inside.status), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(timeline_->observing());
}

}  // namespace
}  // namespace ascend::rt
