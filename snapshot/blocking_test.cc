// Which APIs block while the process is LOCKED or BACKED_UP (reference §2.11,
// DESIGN.md §4.3), through the public C API: gated calls from other threads
// wait until Unlock, queries and synchronisation return at once, and when Lock
// returns no resource-modifying call is still running.
#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"
#include "testing/sync_helpers.h"

namespace {

using ::ascend::testing::Event;

using ascend::rt::GlobalState;

using ::ascend::testing::Backup;
using ::ascend::testing::Lock;
using ::ascend::testing::Restore;
using ::ascend::testing::State;
using ::ascend::testing::Unlock;

// Waits until `pred` holds or `limit` passes; returns the final value.
bool WaitFor(const std::function<bool()>& pred,
             absl::Duration limit = absl::Seconds(5)) {
  const absl::Time deadline = absl::Now() + limit;
  while (!pred()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(1));
  }
  return true;
}

void NoopHostFunc(void* args) {
  static_cast<std::atomic<int>*>(args)->fetch_add(1);
}

// A thread that makes device 0 current (an API that itself blocks while
// locked, so it runs first), signals, waits for "go", makes one call and
// records its result.
class Caller {
 public:
  explicit Caller(std::function<aclError()> call) : call_(std::move(call)) {
    thread_ = std::thread([this] {
      setup_ = aclrtSetDevice(0);
      ready_.Notify();
      go_.Wait();
      result_ = call_();
      done_.Notify();
    });
    ready_.Wait();
  }
  ~Caller() {
    if (!go_.HasBeenNotified()) go_.Notify();
    if (!done_.WaitFor(absl::Seconds(20))) {
      std::fprintf(stderr, "FATAL: a blocked call never returned\n");
      std::fflush(stderr);
      std::_Exit(1);
    }
    thread_.join();
  }
  aclError setup() const { return setup_; }
  void Go() { go_.Notify(); }
  bool WaitDone(absl::Duration limit) { return done_.WaitFor(limit); }
  bool done() const { return done_.HasBeenNotified(); }
  aclError result() const { return result_; }

 private:
  std::function<aclError()> call_;
  aclError setup_ = -1;
  aclError result_ = -1;
  Event ready_, go_, done_;
  std::thread thread_;
};

class BlockingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(State(), RT_PROCESS_STATE_RUNNING);
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtGetCurrentContext(&context_));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateStream(&doomed_stream_));
    ASSERT_ACL_OK(aclrtCreateEvent(&event_));
    ASSERT_ACL_OK(aclrtCreateEvent(&doomed_event_));
    ASSERT_ACL_OK(aclrtCreateNotify(&notify_, 0));
    ASSERT_ACL_OK(aclrtCreateNotify(&doomed_notify_, 0));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMalloc(&doomed_dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    host_.assign(kBytes, 0x3C);
  }

  void TearDown() override {
    if (State() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
    for (int id = 0; id < 8; ++id) (void)aclrtResetDeviceForce(id);
  }

  // Checks that `call`, made from another thread while LOCKED, waits in the
  // gate through Lock, Backup and Restore and completes after Unlock with
  // `expected`.
  void ExpectBlocks(const std::string& name, std::function<aclError()> call,
                    aclError expected = ACL_SUCCESS) {
    SCOPED_TRACE(name);
    ASSERT_EQ(GlobalState::Get().blocked_callers(), 0);
    Caller caller(std::move(call));
    ASSERT_ACL_OK(caller.setup());
    ASSERT_ACL_OK(Lock());
    caller.Go();
    // It reaches the gate and stays there.
    EXPECT_TRUE(WaitFor([] {
      return GlobalState::Get().blocked_callers() == 1;
    })) << name
        << " did not block while LOCKED";
    absl::SleepFor(absl::Milliseconds(20));
    EXPECT_FALSE(caller.done()) << name << " returned while LOCKED";
    // Still blocked while BACKED_UP, and again LOCKED after Restore.
    ASSERT_ACL_OK(Backup());
    absl::SleepFor(absl::Milliseconds(5));
    EXPECT_FALSE(caller.done()) << name << " returned while BACKED_UP";
    EXPECT_EQ(GlobalState::Get().blocked_callers(), 1);
    ASSERT_ACL_OK(Restore());
    absl::SleepFor(absl::Milliseconds(5));
    EXPECT_FALSE(caller.done()) << name << " returned after Restore";
    ASSERT_ACL_OK(Unlock());
    ASSERT_TRUE(caller.WaitDone(absl::Seconds(10)))
        << name << " did not resume after Unlock";
    EXPECT_EQ(caller.result(), expected);
    EXPECT_ACL_OK(aclrtSynchronizeDevice());
  }

  static constexpr size_t kBytes = 1 << 16;
  aclrtContext context_ = nullptr;
  aclrtStream stream_ = nullptr;
  aclrtStream doomed_stream_ = nullptr;
  aclrtEvent event_ = nullptr;
  aclrtEvent doomed_event_ = nullptr;
  aclrtNotify notify_ = nullptr;
  aclrtNotify doomed_notify_ = nullptr;
  void* dev_ = nullptr;
  void* doomed_dev_ = nullptr;
  std::vector<uint8_t> host_;
  std::atomic<int> host_funcs_{0};
};

TEST_F(BlockingTest, MemoryApisBlock) {
  void* allocated = nullptr;
  ExpectBlocks("aclrtMalloc", [&] {
    return aclrtMalloc(&allocated, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  });
  ASSERT_NE(allocated, nullptr);
  EXPECT_ACL_OK(aclrtFree(allocated));
  ExpectBlocks("aclrtFree", [&] { return aclrtFree(doomed_dev_); });
  ExpectBlocks("aclrtMemcpy", [&] {
    return aclrtMemcpy(dev_, kBytes, host_.data(), kBytes,
                       ACL_MEMCPY_HOST_TO_DEVICE);
  });
  ExpectBlocks("aclrtMemcpyAsync", [&] {
    return aclrtMemcpyAsync(dev_, kBytes, host_.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE, stream_);
  });
  ExpectBlocks("aclrtMemset",
               [&] { return aclrtMemset(dev_, kBytes, 1, kBytes); });
  ExpectBlocks("aclrtMemsetAsync", [&] {
    return aclrtMemsetAsync(dev_, kBytes, 2, kBytes, stream_);
  });
  ExpectBlocks("aclrtValueWrite",
               [&] { return aclrtValueWrite(dev_, 7, 0, stream_); });
  void* host = nullptr;
  ExpectBlocks("aclrtMallocHost", [&] { return aclrtMallocHost(&host, 64); });
  ASSERT_NE(host, nullptr);
  ExpectBlocks("aclrtFreeHost", [&] { return aclrtFreeHost(host); });
}

TEST_F(BlockingTest, DeviceAndContextApisBlock) {
  ExpectBlocks("aclrtSetDevice", [] { return aclrtSetDevice(2); });
  ExpectBlocks("aclrtResetDevice", [] { return aclrtResetDevice(1); });
  ExpectBlocks("aclrtResetDeviceForce",
               [] { return aclrtResetDeviceForce(2); });
  aclrtContext ctx = nullptr;
  ExpectBlocks("aclrtCreateContext",
               [&] { return aclrtCreateContext(&ctx, 0); });
  ASSERT_NE(ctx, nullptr);
  ExpectBlocks("aclrtDestroyContext", [&] { return aclrtDestroyContext(ctx); });
}

TEST_F(BlockingTest, StreamEventNotifyApisBlock) {
  aclrtStream s = nullptr;
  ExpectBlocks("aclrtCreateStream", [&] { return aclrtCreateStream(&s); });
  ASSERT_NE(s, nullptr);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  ExpectBlocks("aclrtDestroyStream",
               [&] { return aclrtDestroyStream(doomed_stream_); });
  aclrtEvent e = nullptr;
  ExpectBlocks("aclrtCreateEvent", [&] { return aclrtCreateEvent(&e); });
  ASSERT_NE(e, nullptr);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  ExpectBlocks("aclrtRecordEvent",
               [&] { return aclrtRecordEvent(event_, stream_); });
  ExpectBlocks("aclrtResetEvent",
               [&] { return aclrtResetEvent(event_, stream_); });
  ExpectBlocks("aclrtStreamWaitEvent",
               [&] { return aclrtStreamWaitEvent(stream_, event_); });
  ExpectBlocks("aclrtDestroyEvent",
               [&] { return aclrtDestroyEvent(doomed_event_); });
  aclrtNotify n = nullptr;
  ExpectBlocks("aclrtCreateNotify", [&] { return aclrtCreateNotify(&n, 0); });
  ASSERT_NE(n, nullptr);
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  ExpectBlocks("aclrtRecordNotify",
               [&] { return aclrtRecordNotify(notify_, stream_); });
  ExpectBlocks("aclrtDestroyNotify",
               [&] { return aclrtDestroyNotify(doomed_notify_); });
}

TEST_F(BlockingTest, HostFunctionAndReportApisBlock) {
  ExpectBlocks("aclrtLaunchHostFunc", [&] {
    return aclrtLaunchHostFunc(stream_, &NoopHostFunc, &host_funcs_);
  });
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(host_funcs_.load(), 1);
  const uint64_t thread_id = static_cast<uint64_t>(pthread_self());
  ExpectBlocks("aclrtSubscribeReport",
               [&] { return aclrtSubscribeReport(thread_id, stream_); });
  ExpectBlocks("aclrtUnSubscribeReport",
               [&] { return aclrtUnSubscribeReport(thread_id, stream_); });
}

// Model runtime instances (DESIGN.md §5.21): capture, the build API,
// labels and executions are gated; an execution queued after the Unlock runs.
TEST_F(BlockingTest, ModelApisBlock) {
  aclmdlRI captured = nullptr;
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &NoopHostFunc, &host_funcs_));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &captured));
  ExpectBlocks("aclmdlRIExecuteAsync",
               [&] { return aclmdlRIExecuteAsync(captured, stream_); });
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(host_funcs_.load(), 1);
  ExpectBlocks("aclmdlRICaptureBegin", [&] {
    return aclmdlRICaptureBegin(doomed_stream_,
                                ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  });
  aclmdlRI second = nullptr;
  ExpectBlocks("aclmdlRICaptureEnd",
               [&] { return aclmdlRICaptureEnd(doomed_stream_, &second); });
  ASSERT_NE(second, nullptr);
  aclmdlRI built = nullptr;
  ExpectBlocks("aclmdlRIBuildBegin",
               [&] { return aclmdlRIBuildBegin(&built, 0); });
  ASSERT_NE(built, nullptr);
  // (A model being built refuses a Backup: finish it.)
  ASSERT_ACL_OK(aclmdlRIBuildEnd(built, nullptr));
  aclrtLabel label = nullptr;
  ExpectBlocks("aclrtCreateLabel", [&] { return aclrtCreateLabel(&label); });
  ExpectBlocks("aclrtDestroyLabel", [&] { return aclrtDestroyLabel(label); });
  ExpectBlocks("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(built); });
  ExpectBlocks("aclmdlRIDestroy", [&] { return aclmdlRIDestroy(second); });
  EXPECT_ACL_OK(aclmdlRIDestroy(captured));
}

// Event flags, stream configuration, notify batch reset, count notifies and
// host-function threads (DESIGN.md §5.13).
TEST_F(BlockingTest, StreamExtensionApisBlock) {
  aclrtEvent e = nullptr;
  ExpectBlocks("aclrtCreateEventExWithFlag",
               [&] { return aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC); });
  ASSERT_NE(e, nullptr);
  ExpectBlocks("aclrtRecordEventWithFlag", [&] {
    return aclrtRecordEventWithFlag(e, stream_, ACL_EVENT_RECORD_DEFAULT);
  });
  ExpectBlocks("aclrtStreamWaitEventWithFlag", [&] {
    return aclrtStreamWaitEventWithFlag(stream_, e, 0, ACL_EVENT_WAIT_DEFAULT);
  });
  ExpectBlocks("aclrtStreamWaitEventWithTimeout",
               [&] { return aclrtStreamWaitEventWithTimeout(stream_, e, 1); });
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  aclrtStream s = nullptr;
  ExpectBlocks("aclrtCreateStreamV2",
               [&] { return aclrtCreateStreamV2(&s, nullptr); });
  ASSERT_NE(s, nullptr);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  ExpectBlocks("aclrtNotifyBatchReset",
               [&] { return aclrtNotifyBatchReset(&notify_, 1); });
  aclrtCntNotify cnt = nullptr;
  ExpectBlocks("aclrtCntNotifyCreate",
               [&] { return aclrtCntNotifyCreate(&cnt, 0); });
  ASSERT_NE(cnt, nullptr);
  aclrtCntNotifyRecordInfo record = {};
  record.mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE;
  record.value = 1;
  ExpectBlocks("aclrtCntNotifyRecord",
               [&] { return aclrtCntNotifyRecord(cnt, stream_, &record); });
  aclrtCntNotifyWaitInfo wait = {};
  wait.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE;
  wait.value = 1;
  wait.timeout = 1;
  ExpectBlocks("aclrtCntNotifyWaitWithTimeout", [&] {
    return aclrtCntNotifyWaitWithTimeout(cnt, stream_, &wait);
  });
  ExpectBlocks("aclrtCntNotifyReset",
               [&] { return aclrtCntNotifyReset(cnt, stream_); });
  ExpectBlocks("aclrtCntNotifyDestroy",
               [&] { return aclrtCntNotifyDestroy(cnt); });
  const uint64_t thread_id = static_cast<uint64_t>(pthread_self());
  ExpectBlocks("aclrtSubscribeHostFunc",
               [&] { return aclrtSubscribeHostFunc(thread_id, stream_); });
  ExpectBlocks("aclrtUnSubscribeHostFunc",
               [&] { return aclrtUnSubscribeHostFunc(thread_id, stream_); });
}

TEST_F(BlockingTest, StreamExtensionQueriesDoNotBlock) {
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  aclrtCntNotify cnt = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&cnt, 0));
  uint32_t id = 0;
  aclrtEventWaitStatus wait_status = ACL_EVENT_WAIT_STATUS_RESERVED;
  aclrtStreamAttrValue value = {};
  aclrtStreamConfigHandle* config = nullptr;
  const uint32_t priority = 1;
  const std::vector<std::pair<std::string, std::function<aclError()>>> probes =
      {
          {"aclrtGetEventId", [&] { return aclrtGetEventId(e, &id); }},
          {"aclrtQueryEventWaitStatus",
           [&] { return aclrtQueryEventWaitStatus(e, &wait_status); }},
          {"aclrtCntNotifyGetId",
           [&] { return aclrtCntNotifyGetId(cnt, &id); }},
          {"aclrtGetStreamAttribute",
           [&] {
             return aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_PRIORITY,
                                            &value);
           }},
          {"aclrtSetStreamAttribute",
           [&] {
             value.userCustomTag = 5;
             return aclrtSetStreamAttribute(
                 stream_, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value);
           }},
          {"aclrtCreateStreamConfigHandle",
           [&] {
             config = aclrtCreateStreamConfigHandle();
             return config == nullptr ? ACL_ERROR_BAD_ALLOC : ACL_SUCCESS;
           }},
          {"aclrtSetStreamConfigOpt",
           [&] {
             return aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY,
                                            &priority, sizeof priority);
           }},
          {"aclrtDestroyStreamConfigHandle",
           [&] { return aclrtDestroyStreamConfigHandle(config); }},
          {"aclrtRegStreamStateCallback",
           [&] {
             return aclrtRegStreamStateCallback("blocking-test", nullptr,
                                                nullptr);
           }},
      };
  for (const auto& [name, call] : probes) {
    SCOPED_TRACE(name);
    Caller caller(call);
    ASSERT_ACL_OK(caller.setup());
    ASSERT_ACL_OK(Lock());
    caller.Go();
    EXPECT_TRUE(caller.WaitDone(absl::Seconds(5))) << name << " blocked";
    ASSERT_ACL_OK(Unlock());
    ASSERT_TRUE(caller.WaitDone(absl::Seconds(10)));
    EXPECT_ACL_OK(caller.result()) << name;
  }
  EXPECT_EQ(wait_status, ACL_EVENT_WAIT_STATUS_COMPLETE);
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(cnt));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

// The blocked thread is the one that holds no lock; a call made by the
// locking thread itself would deadlock, as in the reference. Several blocked
// threads all resume.
TEST_F(BlockingTest, ManyBlockedCallersAllResume) {
  constexpr int kCallers = 8;
  std::vector<std::unique_ptr<Caller>> callers;
  std::vector<void*> ptrs(kCallers, nullptr);
  for (int i = 0; i < kCallers; ++i) {
    callers.push_back(std::make_unique<Caller>([&ptrs, i] {
      return aclrtMalloc(&ptrs[i], 128, ACL_MEM_MALLOC_HUGE_FIRST);
    }));
  }
  ASSERT_ACL_OK(Lock());
  for (auto& c : callers) c->Go();
  EXPECT_TRUE(
      WaitFor([] { return GlobalState::Get().blocked_callers() == kCallers; }));
  ASSERT_ACL_OK(Unlock());
  for (auto& c : callers) {
    ASSERT_TRUE(c->WaitDone(absl::Seconds(10)));
    EXPECT_ACL_OK(c->result());
  }
  for (void* p : ptrs) EXPECT_ACL_OK(aclrtFree(p));
}

// --- Non-blocking APIs
// ------------------------------------------------------------

TEST_F(BlockingTest, QueriesAndSynchronisationDoNotBlock) {
  // Work queued before the lock: synchronisation must still drain it.
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev_, kBytes, host_.data(), kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(event_, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));

  struct Probe {
    std::string name;
    std::function<aclError()> call;
  };
  int32_t device = -1;
  uint32_t count = 0;
  aclrtEventRecordedStatus event_status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  aclrtStreamStatus stream_status = ACL_STREAM_STATUS_NOT_READY;
  aclrtContext current = nullptr;
  int32_t stream_id = -1;
  uint32_t notify_id = 0;
  aclrtDeviceStatus device_status = ACL_RT_DEVICE_STATUS_END;
  size_t free_bytes = 0, total_bytes = 0;
  rtProcessState state = RT_PROCESS_STATE_MAX;
  uint64_t timestamp = 0;
  aclmdlRICaptureStatus capture = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  aclmdlRI model = nullptr;
  // A stream's failure mode is set once (06): a stream of its own for each
  // of the two states the probe runs in.
  aclrtStream failure_streams[2] = {nullptr, nullptr};
  for (aclrtStream& s : failure_streams) ASSERT_ACL_OK(aclrtCreateStream(&s));
  int failure_calls = 0;
  const std::vector<Probe> probes = {
      {"aclrtGetDevice", [&] { return aclrtGetDevice(&device); }},
      {"aclrtGetDeviceCount", [&] { return aclrtGetDeviceCount(&count); }},
      {"aclrtSynchronizeStream",
       [&] { return aclrtSynchronizeStream(stream_); }},
      {"aclrtSynchronizeStreamWithTimeout",
       [&] { return aclrtSynchronizeStreamWithTimeout(stream_, 1000); }},
      {"aclrtSynchronizeDevice", [&] { return aclrtSynchronizeDevice(); }},
      {"aclrtSynchronizeEvent", [&] { return aclrtSynchronizeEvent(event_); }},
      {"aclrtQueryEventStatus",
       [&] { return aclrtQueryEventStatus(event_, &event_status); }},
      {"aclrtEventGetTimestamp",
       [&] { return aclrtEventGetTimestamp(event_, &timestamp); }},
      {"aclrtStreamQuery",
       [&] { return aclrtStreamQuery(stream_, &stream_status); }},
      {"aclrtStreamGetId",
       [&] { return aclrtStreamGetId(stream_, &stream_id); }},
      {"aclrtGetNotifyId",
       [&] { return aclrtGetNotifyId(notify_, &notify_id); }},
      {"aclrtSetCurrentContext",
       [&] { return aclrtSetCurrentContext(context_); }},
      {"aclrtGetCurrentContext",
       [&] { return aclrtGetCurrentContext(&current); }},
      {"aclrtQueryDeviceStatus",
       [&] { return aclrtQueryDeviceStatus(0, &device_status); }},
      {"aclrtGetMemInfo",
       [&] { return aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes); }},
      {"aclrtSetStreamFailureMode",
       [&] {
         return aclrtSetStreamFailureMode(failure_streams[failure_calls++ % 2],
                                          ACL_CONTINUE_ON_FAILURE);
       }},
      {"aclmdlRICaptureGetInfo",
       [&] { return aclmdlRICaptureGetInfo(stream_, &capture, &model); }},
      {"rtSnapShotProcessGetState",
       [&] { return rtSnapShotProcessGetState(&state); }},
      {"zero-length aclrtMemcpy",
       [&] {
         return aclrtMemcpy(dev_, kBytes, host_.data(), 0,
                            ACL_MEMCPY_HOST_TO_DEVICE);
       }},
      {"zero-length aclrtMemcpyAsync",
       [&] {
         return aclrtMemcpyAsync(dev_, kBytes, host_.data(), 0,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
       }},
      {"zero-length aclrtMemset",
       [&] { return aclrtMemset(dev_, kBytes, 0, 0); }},
      {"zero-length aclrtMemsetAsync",
       [&] { return aclrtMemsetAsync(dev_, kBytes, 0, 0, stream_); }},
      {"aclsimInjectFault",
       [&] { return aclsimInjectFault(7, ACLSIM_FAULT_NEXT_COPY_CORRUPTS); }},
  };

  for (const int32_t locked_state :
       {RT_PROCESS_STATE_LOCKED, RT_PROCESS_STATE_BACKED_UP}) {
    for (const Probe& probe : probes) {
      SCOPED_TRACE(absl::StrCat(probe.name, " in state ", locked_state));
      Caller caller(probe.call);
      ASSERT_ACL_OK(caller.setup());
      ASSERT_ACL_OK(Lock());
      if (locked_state == RT_PROCESS_STATE_BACKED_UP) {
        ASSERT_ACL_OK(Backup());
      }
      ASSERT_EQ(State(), locked_state);
      caller.Go();
      const bool returned = caller.WaitDone(absl::Seconds(5));
      EXPECT_TRUE(returned) << probe.name << " blocked while locked";
      ASSERT_ACL_OK(Unlock());  // releases it if it did block
      ASSERT_TRUE(caller.WaitDone(absl::Seconds(10)));
      EXPECT_ACL_OK(caller.result()) << probe.name;
    }
  }
  for (aclrtStream s : failure_streams) EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_EQ(device, 0);
  EXPECT_EQ(count, 8u);
  EXPECT_EQ(event_status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(stream_status, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_EQ(current, context_);
  EXPECT_GE(stream_id, 0);
  EXPECT_EQ(device_status, ACL_RT_DEVICE_STATUS_NORMAL);
  EXPECT_GT(total_bytes, 0u);
  EXPECT_EQ(state, RT_PROCESS_STATE_BACKED_UP);
  // The zero-length calls changed nothing.
  std::vector<uint8_t> back(kBytes);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kBytes, dev_, kBytes,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, host_);
}

TEST_F(BlockingTest, SynchronizeDrainsWorkQueuedBeforeTheLock) {
  // A host function queued before Lock may still be running: a non-blocking
  // synchronise from another thread waits for it and returns.
  Event release;
  Event running;
  struct Args {
    Event* running;
    Event* release;
  } args{&running, &release};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(
      stream_,
      [](void* p) {
        auto* a = static_cast<Args*>(p);
        a->running->Notify();
        a->release->WaitFor(absl::Seconds(10));
      },
      &args));
  ASSERT_TRUE(running.WaitFor(absl::Seconds(10)));
  Caller syncer([&] { return aclrtSynchronizeStream(stream_); });
  ASSERT_ACL_OK(Lock());
  syncer.Go();
  absl::SleepFor(absl::Milliseconds(20));
  EXPECT_FALSE(syncer.done()) << "synchronize returned before the work ended";
  release.Notify();
  EXPECT_TRUE(syncer.WaitDone(absl::Seconds(10)));
  EXPECT_ACL_OK(syncer.result());
  EXPECT_EQ(GlobalState::Get().blocked_callers(), 0);
  ASSERT_ACL_OK(Unlock());
}

// --- In-flight guarantee (DESIGN.md §4.3)
// ----------------------------------------

// Each copier thread repeatedly fills its host buffer with one byte value and
// copies it to its own device buffer with aclrtMemcpy (large enough that a
// copy takes a while). A memset thread queues aclrtMemsetAsync on its own
// stream. After Lock returns no call may still be inside: every device
// buffer holds one value (no torn copy) and does not change until Unlock;
// after Backup drained the streams the memset buffer does not change either.
TEST_F(BlockingTest, NoCallInFlightAfterLockReturns) {
  constexpr int kCopiers = 3;
  constexpr size_t kCopyBytes = 2 << 20;
  constexpr int kRounds = 6;
  std::atomic<bool> stop{false};
  struct Worker {
    void* dev = nullptr;
    std::vector<uint8_t> host;
    std::atomic<uint64_t> calls{0};
    std::atomic<aclError> error{ACL_SUCCESS};
  };
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i <= kCopiers; ++i) {
    auto w = std::make_unique<Worker>();
    ASSERT_ACL_OK(aclrtMalloc(&w->dev, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    w->host.assign(kCopyBytes, 0);
    workers.push_back(std::move(w));
  }
  aclrtStream memset_stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&memset_stream));

  std::vector<std::thread> threads;
  for (int i = 0; i < kCopiers; ++i) {
    threads.emplace_back([&, i] {
      Worker& w = *workers[i];
      if (aclError e = aclrtSetDevice(0)) w.error = e;
      uint8_t value = 1;
      while (!stop.load()) {
        std::memset(w.host.data(), value, kCopyBytes);
        aclError e = aclrtMemcpy(w.dev, kCopyBytes, w.host.data(), kCopyBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE);
        if (e != ACL_SUCCESS) w.error = e;
        w.calls.fetch_add(1);
        value = static_cast<uint8_t>(value % 255 + 1);
      }
    });
  }
  threads.emplace_back([&] {
    Worker& w = *workers[kCopiers];
    if (aclError e = aclrtSetDevice(0)) w.error = e;
    uint8_t value = 1;
    while (!stop.load()) {
      aclError e =
          aclrtMemsetAsync(w.dev, kCopyBytes, value, kCopyBytes, memset_stream);
      if (e != ACL_SUCCESS) w.error = e;
      if (w.calls.fetch_add(1) % 16 == 15) {
        (void)aclrtSynchronizeStream(memset_stream);
      }
      value = static_cast<uint8_t>(value % 255 + 1);
    }
  });

  // One byte value across the whole buffer, or -1 when torn.
  auto uniform_value = [&](const Worker& w) -> int {
    const auto* p = static_cast<const uint8_t*>(w.dev);
    for (size_t k = 1; k < kCopyBytes; ++k) {
      if (p[k] != p[0]) return -1;
    }
    return p[0];
  };

  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    std::vector<uint64_t> before;
    for (auto& w : workers) before.push_back(w->calls.load());
    // Let every worker make progress before locking.
    ASSERT_TRUE(WaitFor([&] {
      for (size_t i = 0; i < workers.size(); ++i) {
        if (workers[i]->calls.load() < before[i] + 3) return false;
      }
      return true;
    }));
    ASSERT_ACL_OK(Lock());
    std::vector<int> at_lock;
    for (int i = 0; i < kCopiers; ++i) {
      at_lock.push_back(uniform_value(*workers[i]));
      EXPECT_NE(at_lock.back(), -1)
          << "copier " << i << "'s buffer is torn: a copy was in flight";
    }
    // Everybody ends up waiting in the gate.
    EXPECT_TRUE(WaitFor(
        [&] { return GlobalState::Get().blocked_callers() == kCopiers + 1; }));
    ASSERT_ACL_OK(Backup());  // drains the memset stream
    const int memset_value = uniform_value(*workers[kCopiers]);
    EXPECT_NE(memset_value, -1);
    absl::SleepFor(absl::Milliseconds(20));
    for (int i = 0; i < kCopiers; ++i) {
      EXPECT_EQ(uniform_value(*workers[i]), at_lock[i])
          << "copier " << i << "'s buffer changed while locked";
    }
    EXPECT_EQ(uniform_value(*workers[kCopiers]), memset_value)
        << "an async memset ran after Backup's drain";
    if (round % 2 == 1) {
      ASSERT_ACL_OK(Restore());
    }
    ASSERT_ACL_OK(Unlock());
  }
  stop.store(true);
  for (std::thread& t : threads) t.join();
  for (auto& w : workers) {
    EXPECT_ACL_OK(w->error.load());
    EXPECT_GT(w->calls.load(), static_cast<uint64_t>(3 * kRounds));
  }
  EXPECT_ACL_OK(aclrtSynchronizeStream(memset_stream));
  EXPECT_ACL_OK(aclrtDestroyStream(memset_stream));
  for (auto& w : workers) EXPECT_ACL_OK(aclrtFree(w->dev));
}

}  // namespace
