// Stream executors (DESIGN.md §5.3.1): idle streams hold no thread, the
// simulator's stream limit, many streams with work in flight at once, and a
// worker thread that cannot be started.
#include <atomic>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/exception_info.h"
#include "runtime/executor_pool.h"
#include "runtime/host_func/host_func.h"
#include "runtime/private_runtime.h"
#include "runtime/stream.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kDevices = 8;
constexpr uint32_t kMaxStreams = 1984;  // Ascend910B1, default stream included

// The process's thread count (/proc/self/status).
int Threads() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// What streams built outside a runtime run on: a pool and exception callbacks
// of the test's own, declared before the streams so they outlive them (the
// pool, destroyed first, waits for its workers).
struct StreamServices {
  ExceptionCallbacks exceptions;
  ExecutorPool pool;
  std::shared_ptr<Stream> Make(uint32_t id) {
    return std::make_shared<Stream>(pool, exceptions, 0, id, 0, 0);
  }
};

TEST(StreamPoolTest, MaxStreamsOnEightDevicesHoldNoThreads) {
  PrivateRuntime::Config config;
  config.devices = kDevices;
  config.max_ids_per_kind = 65536;
  PrivateRuntime rt(config);
  const int before = Threads();
  std::vector<void*> streams;
  for (int32_t d = 0; d < kDevices; ++d) {
    ASSERT_OK(rt->SetDevice(d));  // the default stream takes one id
    ASSERT_OK_AND_ASSIGN(
        uint32_t available,
        DeviceInfo::Of(*rt)->AvailableIds(device::ResourceKind::kStream));
    EXPECT_EQ(available, kMaxStreams - 1);
    for (uint32_t i = 0; i < available; ++i) {
      ASSERT_OK_AND_ASSIGN(void* s, Streams::Of(*rt)->CreateStream(0, 0));
      streams.push_back(s);
    }
    EXPECT_EQ(ErrorCode(Streams::Of(*rt)->CreateStream(0, 0).status()),
              ACL_ERROR_RT_NO_STREAM_RESOURCE);
    EXPECT_EQ(*DeviceInfo::Of(*rt)->AvailableIds(device::ResourceKind::kStream),
              0u);
  }
  EXPECT_EQ(streams.size(), kDevices * (kMaxStreams - 1));
  // Streams without work hold no thread (the health monitor may start one).
  EXPECT_LE(Threads(), before + 2);
  int refused = 0;
  for (int i = 0; i < 40000; ++i) {
    refused += ErrorCode(Streams::Of(*rt)->CreateStream(0, 0).status()) ==
               ACL_ERROR_RT_NO_STREAM_RESOURCE;
  }
  EXPECT_EQ(refused, 40000);
  // One destroyed: one can be created again.
  ASSERT_OK(Streams::Of(*rt)->DestroyStream(streams.back(), /*force=*/false));
  EXPECT_EQ(*DeviceInfo::Of(*rt)->AvailableIds(device::ResourceKind::kStream),
            1u);
  ASSERT_OK_AND_ASSIGN(streams.back(), Streams::Of(*rt)->CreateStream(0, 0));
  EXPECT_EQ(*DeviceInfo::Of(*rt)->AvailableIds(device::ResourceKind::kStream),
            0u);
  // Each device's streams from its own context (06, aclrtDestroyStream).
  const size_t per_device = kMaxStreams - 1;
  for (size_t i = 0; i < streams.size(); ++i) {
    if (i % per_device == 0) {
      ASSERT_OK(rt->SetDevice(static_cast<int32_t>(i / per_device)));
    }
    ASSERT_OK(Streams::Of(*rt)->DestroyStream(streams[i], /*force=*/false));
  }
  for (int32_t d = 0; d < kDevices; ++d) {
    ASSERT_OK(rt->ResetDevice(d, /*force=*/false));
    ASSERT_OK(rt->ResetDevice(d, /*force=*/false));
  }
  EXPECT_LE(Threads(), before + 2 + static_cast<int>(ExecutorPool::kKeepIdle));
}

TEST(StreamPoolTest, ManyStreamsWithBlockingWorkCompleteInOrder) {
  // Every stream's first task blocks until all first tasks have started: a
  // worker is started for each stream with work, however many block.
  constexpr int kStreams = 64;
  constexpr int kTasks = 100;
  std::atomic<int> started{0};
  StreamServices services;
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::vector<int>> logs(kStreams);
  for (int s = 0; s < kStreams; ++s) {
    streams.push_back(services.Make(s));
  }
  for (int s = 0; s < kStreams; ++s) {
    Task first;
    first.run = [&started] {
      started.fetch_add(1);
      const absl::Time deadline = absl::Now() + absl::Seconds(30);
      while (started.load() < kStreams && absl::Now() < deadline) {
        absl::SleepFor(absl::Milliseconds(1));
      }
      return started.load() == kStreams
                 ? absl::OkStatus()
                 : absl::DeadlineExceededError("not all streams started");
    };
    streams[s]->Enqueue(std::move(first));
  }
  for (int t = 0; t < kTasks; ++t) {
    for (int s = 0; s < kStreams; ++s) {
      Task task;
      std::vector<int>* log = &logs[s];
      task.run = [log, t] {
        log->push_back(t);
        return absl::OkStatus();
      };
      streams[s]->Enqueue(std::move(task));
    }
  }
  for (int s = 0; s < kStreams; ++s) {
    ASSERT_OK(streams[s]->Synchronize(absl::Now() + absl::Seconds(60)));
    ASSERT_EQ(logs[s].size(), static_cast<size_t>(kTasks));
    for (int t = 0; t < kTasks; ++t) ASSERT_EQ(logs[s][t], t);
  }
}

TEST(StreamPoolTest, TaskRunsAsItsStreamOnWhicheverWorker) {
  StreamServices services;
  auto a = services.Make(1);
  auto b = services.Make(2);
  const Stream* seen_a = nullptr;
  const Stream* seen_b = nullptr;
  a->Enqueue(Task{[&] {
    seen_a = Stream::Current();
    return absl::OkStatus();
  }});
  ASSERT_OK(a->Synchronize(absl::InfiniteFuture()));
  b->Enqueue(Task{[&] {
    seen_b = Stream::Current();
    return absl::OkStatus();
  }});
  ASSERT_OK(b->Synchronize(absl::InfiniteFuture()));
  EXPECT_EQ(seen_a, a.get());
  EXPECT_EQ(seen_b, b.get());
  EXPECT_EQ(Stream::Current(), nullptr);
}

TEST(StreamPoolTest, NoThreadFailsTheTaskWith207005AndTheNextEnqueueRetries) {
  StreamServices services;
  auto stream = services.Make(1);
  services.pool.SetRunHookForTesting([] { return false; });
  bool ran = false;
  bool cancelled = false;
  Task task;
  task.run = [&] {
    ran = true;
    return absl::OkStatus();
  };
  task.cancel = [&] { cancelled = true; };
  stream->Enqueue(std::move(task));  // neither throws nor aborts
  services.pool.SetRunHookForTesting(nullptr);
  EXPECT_TRUE(cancelled);
  EXPECT_FALSE(ran);
  EXPECT_TRUE(stream->Idle());
  absl::Status status = stream->Synchronize(absl::InfiniteFuture());
  EXPECT_EQ(ErrorCode(status), ACL_ERROR_RT_RESOURCE_ALLOC_FAIL) << status;
  // Reported once to each reader.
  EXPECT_EQ(ErrorCode(stream->Synchronize(absl::InfiniteFuture(),
                                          ErrorReader::kDevice)),
            ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
  EXPECT_OK(stream->Synchronize(absl::InfiniteFuture()));
  stream->Enqueue(Task{[&] {
    ran = true;
    return absl::OkStatus();
  }});
  EXPECT_OK(stream->Synchronize(absl::InfiniteFuture()));
  EXPECT_TRUE(ran);
}

// A worker lingers on a stream that ran out of work, then the pool's reaper
// sends it back to the pool: it serves another stream without a new thread.
TEST(StreamPoolTest, ALingeringWorkerIsReleasedAndReused) {
  StreamServices services;
  std::shared_ptr<Stream> first = services.Make(1);
  first->Enqueue(Task{[] { return absl::OkStatus(); }, nullptr});
  ASSERT_OK(first->Synchronize(absl::InfiniteFuture()));
  EXPECT_EQ(services.pool.stats().workers, 1u);
  // Still lingering right after its task, then released within a few
  // lingers (the reaper ticks every kLinger).
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (services.pool.stats().waiting == 0 && absl::Now() < deadline) {
    absl::SleepFor(ExecutorPool::kLinger);
  }
  EXPECT_EQ(services.pool.stats().waiting, 1u);
  std::shared_ptr<Stream> second = services.Make(2);
  second->Enqueue(Task{[] { return absl::OkStatus(); }, nullptr});
  ASSERT_OK(second->Synchronize(absl::InfiniteFuture()));
  EXPECT_EQ(services.pool.stats().workers, 1u);
}

std::atomic<int> told_first{0};
std::atomic<int> told_second{0};

// Each runtime owns its executor pool and its exception callbacks
// (DESIGN.md §1.4): a failure on one runtime's stream is told to that
// runtime's callbacks only, and runs on that runtime's workers.
TEST(StreamPoolTest, EachRuntimeOwnsItsPoolAndExceptionCallbacks) {
  PrivateRuntime first;
  PrivateRuntime second;
  HostFuncs::Of(*first)->exception_callbacks().Register(
      [](aclrtExceptionInfo*) { told_first.fetch_add(1); });
  HostFuncs::Of(*second)->exception_callbacks().Register(
      [](aclrtExceptionInfo*) { told_second.fetch_add(1); });
  for (PrivateRuntime* rt : {&first, &second}) ASSERT_OK((*rt)->SetDevice(0));
  ASSERT_OK(DeviceInfo::Of(*second)->EnqueueStreamTask(
      nullptr, [] { return absl::InternalError("fails"); }));
  ASSERT_OK_AND_ASSIGN(void* stream,
                       Streams::Of(*second)->CurrentDefaultStream());
  EXPECT_FALSE(Streams::Of(*second)
                   ->SynchronizeStream(stream, absl::InfiniteFuture())
                   .ok());
  EXPECT_EQ(told_first.load(), 0);
  EXPECT_EQ(told_second.load(), 1);
  EXPECT_GE(HostFuncs::Of(*second)->executors().stats().workers, 1u);
  EXPECT_EQ(HostFuncs::Of(*first)->executors().stats().workers, 0u);
}

}  // namespace
}  // namespace ascend::rt
