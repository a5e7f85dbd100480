// Host functions, report callbacks (subscribe / launch / process) and the
// per-thread error record, through the ACL C API.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::OnNewThread;
using ::ascend::testing::SetFlag;

using Clock = std::chrono::steady_clock;

uint64_t ThisThreadId() { return static_cast<uint64_t>(pthread_self()); }

// Records, in order, which callbacks and host functions ran and on which
// thread.
struct Trace {
  std::mutex mu;
  std::vector<std::string> events;
  std::vector<uint64_t> threads;
  void Add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back(what);
    threads.push_back(ThisThreadId());
  }
  std::vector<std::string> Events() {
    std::lock_guard<std::mutex> lock(mu);
    return events;
  }
};

void TraceCallback(void* trace) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  static_cast<Trace*>(trace)->Add("callback");
}

void TraceHostFunc(void* trace) { static_cast<Trace*>(trace)->Add("hostfunc"); }

class CallbackApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  aclrtStream stream_ = nullptr;
};

// --- Host functions
// --------------------------------------------------------------

TEST_F(CallbackApiTest, LaunchHostFuncRejectsBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtLaunchHostFunc(stream_, nullptr, nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtLaunchHostFunc(&foreign, SetFlag, nullptr));
  OnNewThread([] {
    std::atomic<bool> flag{false};
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtLaunchHostFunc(nullptr, SetFlag, &flag));
  });
}

struct AffineArgs {
  float* data = nullptr;  // simulated device memory
  size_t count = 0;
  float scale = 0;
  float offset = 0;
  uint64_t thread = 0;
};

void Affine(void* raw) {
  auto* args = static_cast<AffineArgs*>(raw);
  args->thread = ThisThreadId();
  for (size_t i = 0; i < args->count; ++i) {
    args->data[i] = args->data[i] * args->scale + args->offset;
  }
}

TEST_F(CallbackApiTest, HostFunctionsTransformDeviceMemoryInStreamOrder) {
  constexpr size_t kCount = 4096;
  constexpr size_t kSize = kCount * sizeof(float);
  std::vector<float> input(kCount);
  for (size_t i = 0; i < kCount; ++i) input[i] = static_cast<float>(i);
  void* device = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST));

  AffineArgs times_two{static_cast<float*>(device), kCount, 2.0f, 1.0f, 0};
  AffineArgs minus_three{static_cast<float*>(device), kCount, 1.0f, -3.0f, 0};
  std::vector<float> output(kCount, -1.0f);
  ASSERT_ACL_OK(aclrtMemcpyAsync(device, kSize, input.data(), kSize,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Affine, &times_two));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Affine, &minus_three));
  ASSERT_ACL_OK(aclrtMemcpyAsync(output.data(), kSize, device, kSize,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  for (size_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(output[i], input[i] * 2.0f + 1.0f - 3.0f) << "at " << i;
  }
  // Host functions run on a runtime thread, not the caller's.
  EXPECT_NE(times_two.thread, 0u);
  EXPECT_NE(times_two.thread, ThisThreadId());
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Report subscription
// -----------------------------------------------------------

// A host function must not wait for its own stream or tear it down: those
// calls would wait for themselves (or join their own thread). They are
// refused with 207006 and change nothing.
struct SelfCalls {
  aclrtStream stream = nullptr;
  aclrtContext context = nullptr;
  aclError sync_stream = -1;
  aclError destroy_stream = -1;
  aclError sync_device = -1;
  aclError reset_device = -1;
};

void CallsOnItsOwnStream(void* raw) {
  auto* calls = static_cast<SelfCalls*>(raw);
  // The stream's context: a destroy takes only streams of the current
  // context (06, aclrtDestroyStream constraints).
  (void)aclrtSetCurrentContext(calls->context);
  calls->sync_stream = aclrtSynchronizeStream(calls->stream);
  calls->destroy_stream = aclrtDestroyStream(calls->stream);
  calls->sync_device = aclrtSynchronizeDevice();
  calls->reset_device = aclrtResetDeviceForce(0);
}

TEST_F(CallbackApiTest, AHostFunctionCannotWaitForOrTearDownItsOwnStream) {
  SelfCalls calls;
  calls.stream = stream_;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&calls.context));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &CallsOnItsOwnStream, &calls));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 10000));
  EXPECT_EQ(calls.sync_stream, ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(calls.destroy_stream, ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(calls.sync_device, ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(calls.reset_device, ACL_ERROR_RT_NO_PERMISSION);
  // Nothing changed: the stream and the device still work.
  std::atomic<bool> ran{false};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, SetFlag, &ran));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_TRUE(ran.load());
  EXPECT_ACL_OK(aclrtDestroyStream(stream_));
}

TEST_F(CallbackApiTest, SubscribeAndUnsubscribe) {
  const uint64_t me = ThisThreadId();
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSubscribeReport(me, &foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtUnSubscribeReport(me, &foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtUnSubscribeReport(me, stream_));
  ASSERT_ACL_OK(aclrtSubscribeReport(me, stream_));
  // One subscriber per stream.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtSubscribeReport(me, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtSubscribeReport(me + 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtUnSubscribeReport(me + 1, stream_));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtUnSubscribeReport(me, stream_));
}

// 12 (aclrtSubscribeReport, constraints): one thread may serve several
// streams of one device, not streams of two devices (107012, the thread
// subscription code); the refusal subscribes nothing. Once the thread
// serves no stream of the first device, it may serve the other.
TEST_F(CallbackApiTest, AReportThreadServesTheStreamsOfOneDevice) {
  const uint64_t me = ThisThreadId();
  aclrtStream second = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&second));
  ASSERT_ACL_OK(aclrtSubscribeReport(me, stream_));
  ASSERT_ACL_OK(aclrtSubscribeReport(me, second));  // the same device
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream other_device = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other_device));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                   aclrtSubscribeReport(me, other_device));
  // Nothing was subscribed: another thread may take the stream.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                   aclrtUnSubscribeReport(me, other_device));
  ASSERT_ACL_OK(aclrtSubscribeReport(me + 1, other_device));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me + 1, other_device));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                   aclrtSubscribeReport(me, other_device));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me, second));
  ASSERT_ACL_OK(aclrtSubscribeReport(me, other_device));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me, other_device));
  ASSERT_ACL_OK(aclrtDestroyStream(other_device));
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtDestroyStream(second));
}

TEST_F(CallbackApiTest, ProcessReportNeedsASubscriptionAndTimesOut) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
  // 12, aclrtProcessReport `timeout`: -1 or positive, so 0 is refused.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0));
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(30));
  const auto waited = Clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(25));
  EXPECT_LT(waited, std::chrono::seconds(5));
  // Another thread's subscription is not this one's.
  OnNewThread([] {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
  });
  ASSERT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
}

TEST_F(CallbackApiTest, LaunchCallbackRejectsBadArguments) {
  Trace trace;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtLaunchCallback(nullptr, &trace, ACL_CALLBACK_BLOCK, stream_));
  // Without a subscriber.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_STREAM_NO_CB_REG,
      aclrtLaunchCallback(TraceCallback, &trace, ACL_CALLBACK_BLOCK, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NO_CB_REG,
                   aclrtLaunchCallback(TraceCallback, &trace,
                                       ACL_CALLBACK_NO_BLOCK, nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtLaunchCallback(TraceCallback, &trace, ACL_CALLBACK_BLOCK, &foreign));
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtLaunchCallback(TraceCallback, &trace,
                          static_cast<aclrtCallbackBlockType>(2), stream_));
  // Nothing was queued by the failures.
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(10));
  EXPECT_TRUE(trace.Events().empty());
  ASSERT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
}

// A thread that subscribes to a stream and processes its reports until
// stopped (each wait bounded).
class ReportThread {
 public:
  explicit ReportThread(aclrtStream stream) : stream_(stream) {
    thread_ = std::thread([this] { Run(); });
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(10), [this] { return ready_; });
  }
  ~ReportThread() { Stop(); }
  // Ends the processing loop and joins the thread.
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  uint64_t id() const { return id_; }
  aclError subscribe_result() const { return subscribe_result_; }
  int processed() const { return processed_.load(); }

 private:
  void Run() {
    id_ = ThisThreadId();
    subscribe_result_ = aclrtSubscribeReport(id_, stream_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      ready_ = true;
      cv_.notify_all();
    }
    while (!stop_.load()) {
      if (aclrtProcessReport(20) == ACL_SUCCESS) ++processed_;
    }
    (void)aclrtUnSubscribeReport(id_, stream_);
  }

  const aclrtStream stream_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool ready_ = false;
  uint64_t id_ = 0;
  aclError subscribe_result_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> processed_{0};
};

TEST_F(CallbackApiTest, BlockingCallbackRunsOnTheSubscriberBeforeLaterWork) {
  ReportThread reporter(stream_);
  ASSERT_ACL_OK(reporter.subscribe_result());
  Trace trace;
  ASSERT_ACL_OK(
      aclrtLaunchCallback(TraceCallback, &trace, ACL_CALLBACK_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, TraceHostFunc, &trace));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  ASSERT_EQ(trace.Events(), (std::vector<std::string>{"callback", "hostfunc"}));
  EXPECT_EQ(trace.threads[0], reporter.id());
  EXPECT_NE(trace.threads[1], reporter.id());
  reporter.Stop();
  EXPECT_EQ(reporter.processed(), 1);
}

TEST_F(CallbackApiTest, BlockingCallbackHoldsTheStreamUntilProcessed) {
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  Trace trace;
  ASSERT_ACL_OK(
      aclrtLaunchCallback(TraceCallback, &trace, ACL_CALLBACK_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, TraceHostFunc, &trace));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream_, 30));
  EXPECT_TRUE(trace.Events().empty());
  ASSERT_ACL_OK(aclrtProcessReport(5000));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  EXPECT_EQ(trace.Events(), (std::vector<std::string>{"callback", "hostfunc"}));
  EXPECT_EQ(trace.threads[0], ThisThreadId());
  ASSERT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
}

TEST_F(CallbackApiTest, NonBlockingCallbackDoesNotHoldTheStream) {
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  Trace trace;
  ASSERT_ACL_OK(aclrtLaunchCallback(TraceCallback, &trace,
                                    ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, TraceHostFunc, &trace));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  EXPECT_EQ(trace.Events(), std::vector<std::string>{"hostfunc"});
  ASSERT_ACL_OK(aclrtProcessReport(5000));
  EXPECT_EQ(trace.Events(), (std::vector<std::string>{"hostfunc", "callback"}));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(10));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
}

TEST_F(CallbackApiTest, CallbacksOfTwoStreamsGoToOneSubscriber) {
  aclrtStream second = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&second));
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), second));
  Trace trace;
  ASSERT_ACL_OK(aclrtLaunchCallback(TraceCallback, &trace,
                                    ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtLaunchCallback(TraceCallback, &trace,
                                    ACL_CALLBACK_NO_BLOCK, second));
  ASSERT_ACL_OK(aclrtProcessReport(5000));
  ASSERT_ACL_OK(aclrtProcessReport(5000));
  EXPECT_EQ(trace.Events().size(), 2u);
  ASSERT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
  // Still subscribed to the second stream.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(10));
  ASSERT_ACL_OK(aclrtDestroyStream(second));
  // Destroying the stream dropped its subscription.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
}

// --- Errors
// ------------------------------------------------------------------------

// The usual CANN report thread waits in aclrtProcessReport(-1). Waiting is
// not a call in progress: a Lock does not wait for it (the in-flight
// guarantee of DESIGN.md §4.3 would otherwise make every Lock time out).
// As in the reference, only entry into aclrtProcessReport blocks while
// locked: a callback that reaches the thread already inside while the
// process is LOCKED runs (its stream may be waiting for it, and Backup's
// drain for that stream; DESIGN.md §4.3, §5.7).
TEST_F(CallbackApiTest, AReportThreadWaitingForeverDoesNotHoldUpALock) {
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> id{0};
  std::atomic<bool> ran{false};
  std::thread reporter([&] {
    id = ThisThreadId();
    while (!stop.load()) (void)aclrtProcessReport(-1);
  });
  while (id.load() == 0) std::this_thread::yield();
  ASSERT_ACL_OK(aclrtSubscribeReport(id.load(), stream_));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(
      aclrtLaunchCallback(SetFlag, &ran, ACL_CALLBACK_NO_BLOCK, stream_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // waiting

  const auto start = std::chrono::steady_clock::now();
  const aclError locked = aclrtSnapShotProcessLock(getpid(), nullptr);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_ACL_OK(locked);
  EXPECT_LT(took, std::chrono::seconds(5));
  gate.Open();  // the callback reaches the reporter while locked
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!ran.load() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(ran.load()) << "the report thread did not run the callback "
                             "that reached it while locked";
  if (locked == ACL_SUCCESS) {
    EXPECT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  }
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 5000));

  stop.store(true);
  std::atomic<bool> woken{false};
  ASSERT_ACL_OK(
      aclrtLaunchCallback(SetFlag, &woken, ACL_CALLBACK_NO_BLOCK, stream_));
  reporter.join();
  EXPECT_ACL_OK(aclrtUnSubscribeReport(id.load(), stream_));
}

// A Lock waiting for a call in progress (here: a report callback that runs
// until released) is cancelled by an Unlock from another thread, as in the
// reference: the Unlock succeeds at once and the Lock fails with 507906.
// Meanwhile a Backup is refused: the Lock has not completed.
TEST_F(CallbackApiTest, AnUnlockCancelsALockStillWaitingForACallInProgress) {
  struct Hold {
    std::atomic<bool> entered{false};
    std::atomic<bool> release{false};
  } hold;
  std::atomic<uint64_t> id{0};
  std::atomic<aclError> processed{-1};
  std::thread reporter([&] {
    id = ThisThreadId();
    aclError result = ACL_ERROR_RT_THREAD_SUBSCRIBE;
    while (result == ACL_ERROR_RT_THREAD_SUBSCRIBE) {
      result = aclrtProcessReport(10000);
    }
    processed = result;
  });
  while (id.load() == 0) std::this_thread::yield();
  ASSERT_ACL_OK(aclrtSubscribeReport(id.load(), stream_));
  ASSERT_ACL_OK(aclrtLaunchCallback(
      [](void* raw) {
        auto* h = static_cast<Hold*>(raw);
        h->entered = true;
        while (!h->release) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      },
      &hold, ACL_CALLBACK_NO_BLOCK, stream_));
  while (!hold.entered) std::this_thread::yield();

  std::atomic<bool> lock_done{false};
  std::atomic<aclError> lock_result{-1};
  std::thread locker([&] {
    lock_result = aclrtSnapShotProcessLock(getpid(), nullptr);
    lock_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(lock_done.load()) << "the Lock did not wait for the callback";
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   aclrtSnapShotProcessBackup(getpid(), nullptr));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  locker.join();
  EXPECT_EQ(lock_result.load(), ACL_ERROR_SNAPSHOT_LOCK_FAILED);

  hold.release = true;
  reporter.join();
  EXPECT_ACL_OK(processed.load());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(id.load(), stream_));
}

// A Lock made from inside a gated call on the same thread (here: a report
// callback) does not wait for that call, which could never finish first.
TEST_F(CallbackApiTest, ALockFromAReportCallbackDoesNotWaitForItself) {
  ASSERT_ACL_OK(aclrtSubscribeReport(ThisThreadId(), stream_));
  struct Result {
    aclError lock = -1;
    aclError unlock = -1;
    std::chrono::steady_clock::duration took{};
  } result;
  ASSERT_ACL_OK(aclrtLaunchCallback(
      [](void* raw) {
        auto* r = static_cast<Result*>(raw);
        const auto start = std::chrono::steady_clock::now();
        r->lock = aclrtSnapShotProcessLock(getpid(), nullptr);
        r->took = std::chrono::steady_clock::now() - start;
        if (r->lock == ACL_SUCCESS) {
          r->unlock = aclrtSnapShotProcessUnlock(getpid(), nullptr);
        }
      },
      &result, ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_ACL_OK(aclrtProcessReport(5000));
  EXPECT_ACL_OK(result.lock);
  EXPECT_ACL_OK(result.unlock);
  EXPECT_LT(result.took, std::chrono::seconds(5));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(ThisThreadId(), stream_));
}

TEST_F(CallbackApiTest, LastErrorIsRecordedPerThread) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(1000));
  // Peek keeps it, Get clears it.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::strstr(message, "1000"), nullptr) << message;
  EXPECT_NE(std::strstr(message, "107001"), nullptr) << message;
  // Handed out once, as CANN's error-handling example expects.
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);

  // Another thread has its own (empty) record.
  OnNewThread([] {
    EXPECT_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
    aclrtContext none = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&none));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  });
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(CallbackApiTest, LastErrorKeepsTheMostRecentFailure) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(&foreign));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::strstr(message, "aclrtDestroyStream"), nullptr) << message;
}

TEST_F(CallbackApiTest, StreamTaskFailureIsTheSynchronizingThreadsLastError) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream_, 5000));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT,
                   aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  ASSERT_NE(aclGetRecentErrMsg(), nullptr);
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
}

}  // namespace
