// Host functions and report callbacks below the C API (runtime/host_func/,
// DESIGN.md §5.7): stream order with other tasks, report subscriptions
// processed from a thread, host-function subscriptions, and the subscription
// codes.
#include "runtime/host_func/host_func.h"

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <future>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kInvalidParam = 100000;  // ACL_ERROR_INVALID_PARAM

absl::Time Soon() { return absl::Now() + absl::Seconds(10); }
uint64_t Self() { return static_cast<uint64_t>(pthread_self()); }

// What host functions and callbacks record: a value and the thread it ran on.
struct Log {
  absl::Mutex mu;
  std::vector<int> values;
  std::vector<uint64_t> threads;
  void Add(int v) {
    absl::MutexLock lock(&mu);
    values.push_back(v);
    threads.push_back(Self());
  }
  std::vector<int> Values() {
    absl::MutexLock lock(&mu);
    return values;
  }
  std::vector<uint64_t> Threads() {
    absl::MutexLock lock(&mu);
    return threads;
  }
};

struct Arg {
  Log* log;
  int value;
  const uint8_t* peek = nullptr;  // when set, records *peek instead
  absl::Duration sleep = absl::ZeroDuration();
};

void Record(void* p) {
  auto* arg = static_cast<Arg*>(p);
  absl::SleepFor(arg->sleep);
  arg->log->Add(arg->peek ? *arg->peek : arg->value);
}

// A thread that processes reports (or host functions) until stopped.
class Processor {
 public:
  Processor(Runtime& rt, bool host_funcs) {
    std::promise<uint64_t> id;
    std::future<uint64_t> got = id.get_future();
    thread_ = std::thread([this, &rt, host_funcs, &id] {
      id.set_value(Self());
      while (!stop_.load()) {
        absl::Status s = host_funcs ? HostFuncs::Of(rt)->ProcessHostFunc(20)
                                    : HostFuncs::Of(rt)->ProcessReport(20);
        const int32_t code = ErrorCode(s);
        if (code == 0) {
          ++processed_;
        } else if (code != ACL_ERROR_RT_REPORT_TIMEOUT &&
                   code != ACL_ERROR_RT_THREAD_SUBSCRIBE) {
          other_errors_.fetch_add(1);
        }
        if (code == ACL_ERROR_RT_THREAD_SUBSCRIBE) {
          absl::SleepFor(absl::Milliseconds(2));
        }
      }
    });
    id_ = got.get();
  }
  ~Processor() { Stop(); }
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  uint64_t id() const { return id_; }
  // How many calls returned OK, once that reaches `want` (or 10 s passed):
  // the stream may see a function done before its Process call returns.
  int processed(int want) const {
    const absl::Time give_up = Soon();
    while (processed_.load() < want && absl::Now() < give_up) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    return processed_.load();
  }
  int other_errors() const { return other_errors_.load(); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> processed_{0};
  std::atomic<int> other_errors_{0};
  uint64_t id_ = 0;
  std::thread thread_;
};

class HostFuncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(rt_->SetDevice(0));
    ASSERT_OK_AND_ASSIGN(stream_, Streams::Of(*rt_)->CreateStream(0, 0));
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_OK(Streams::Of(*rt_)->DestroyStream(stream_, false));
    }
  }
  PrivateRuntime rt_;
  void* stream_ = nullptr;
};

TEST_F(HostFuncTest, HostFuncsRunInStreamOrderWithCopies) {
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  Log log;
  uint8_t host = 0;
  std::vector<Arg> args;
  args.reserve(10);
  for (int round = 0; round < 10; ++round) {
    ASSERT_OK(rt_.memory().MemsetAsync(d, 64, round + 1, 64, stream_));
    ASSERT_OK(rt_.memory().MemcpyAsync(&host, 1, d, 1,
                                       ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    args.push_back(
        Arg{&log, 0, &host,
            round == 0 ? absl::Milliseconds(20) : absl::ZeroDuration()});
    ASSERT_OK(
        HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &args.back()));
  }
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  EXPECT_EQ(log.Values(), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  // Unsubscribed, host functions run on the stream's own thread, not here.
  for (uint64_t t : log.Threads()) EXPECT_NE(t, Self());
  EXPECT_OK(rt_.memory().Free(d));
}

TEST_F(HostFuncTest, HostFuncHoldsLaterTasks) {
  Log log;
  Arg slow{&log, 1, nullptr, absl::Milliseconds(50)};
  Arg fast{&log, 2};
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &slow));
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &fast));
  ASSERT_OK_AND_ASSIGN(bool idle, Streams::Of(*rt_)->StreamIdle(stream_));
  EXPECT_FALSE(idle);
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  EXPECT_EQ(log.Values(), (std::vector<int>{1, 2}));
  int not_a_stream = 0;
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->LaunchHostFunc(&not_a_stream, Record,
                                                          &fast)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(log.Values().size(), 2u);
}

void RecordCallback(void* p) { Record(p); }

TEST_F(HostFuncTest, CallbacksNeedASubscribedThread) {
  Log log;
  Arg arg{&log, 1};
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->LaunchCallback(
                RecordCallback, &arg, ACL_CALLBACK_BLOCK, stream_)),
            ACL_ERROR_RT_STREAM_NO_CB_REG);
  // A thread subscribed to nothing cannot process reports.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessReport(10)),
            ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessReport(-2)), kInvalidParam);
  // Subscribed with nothing posted: the timeout code.
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeReport(Self(), stream_));
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessReport(10)),
            ACL_ERROR_RT_REPORT_TIMEOUT);
  // Processed on this thread, in ProcessReport.
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchCallback(
      RecordCallback, &arg, ACL_CALLBACK_NO_BLOCK, stream_));
  ASSERT_OK(HostFuncs::Of(*rt_)->ProcessReport(5000));
  EXPECT_EQ(log.Values(), std::vector<int>{1});
  EXPECT_EQ(log.Threads(), std::vector<uint64_t>{Self()});
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeReport(Self(), stream_));
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->LaunchCallback(
                RecordCallback, &arg, ACL_CALLBACK_NO_BLOCK, stream_)),
            ACL_ERROR_RT_STREAM_NO_CB_REG);
}

TEST_F(HostFuncTest, BlockingCallbacksHoldTheStream) {
  Processor processor(*rt_, /*host_funcs=*/false);
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeReport(processor.id(), stream_));
  Log log;
  Arg slow{&log, 1, nullptr, absl::Milliseconds(50)};
  Arg after{&log, 2};
  Arg more{&log, 3};
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchCallback(RecordCallback, &slow,
                                                ACL_CALLBACK_BLOCK, stream_));
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &after));
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchCallback(RecordCallback, &more,
                                                ACL_CALLBACK_BLOCK, stream_));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  EXPECT_EQ(log.Values(), (std::vector<int>{1, 2, 3}));
  const std::vector<uint64_t> threads = log.Threads();
  ASSERT_EQ(threads.size(), 3u);
  EXPECT_EQ(threads[0], processor.id());
  EXPECT_NE(threads[1], processor.id());  // the host function: the stream's
  EXPECT_EQ(threads[2], processor.id());
  EXPECT_EQ(processor.processed(2), 2);
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeReport(processor.id(), stream_));
  processor.Stop();
  EXPECT_EQ(processor.other_errors(), 0);
}

TEST_F(HostFuncTest, ReportSubscriptionCodes) {
  ASSERT_OK_AND_ASSIGN(void* other, Streams::Of(*rt_)->CreateStream(0, 0));
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeReport(1234, stream_));
  // One subscriber per stream; a thread may take several streams.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeReport(5678, stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeReport(1234, stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeReport(1234, other));
  // Unsubscribing the wrong thread, or an unsubscribed stream.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->UnsubscribeReport(5678, stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeReport(1234, stream_));
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->UnsubscribeReport(1234, stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  // The refused unsubscribe left the other subscription in place.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeReport(5678, other)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeReport(1234, other));
  // The stream is free again.
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeReport(5678, stream_));
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeReport(5678, stream_));
  int not_a_stream = 0;
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeReport(1, &not_a_stream)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_OK(Streams::Of(*rt_)->DestroyStream(other, false));
}

TEST_F(HostFuncTest, SubscribedHostFuncsRunOnTheProcessingThread) {
  Processor processor(*rt_, /*host_funcs=*/true);
  ASSERT_OK(HostFuncs::Of(*rt_)->SubscribeHostFunc(processor.id(), stream_));
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeHostFunc(processor.id(),
                                                             stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  Log log;
  std::vector<Arg> args;
  for (int i = 0; i < 5; ++i) args.push_back(Arg{&log, i});
  for (Arg& arg : args)
    ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &arg));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  EXPECT_EQ(log.Values(), (std::vector<int>{0, 1, 2, 3, 4}));
  for (uint64_t t : log.Threads()) EXPECT_EQ(t, processor.id());
  EXPECT_EQ(processor.processed(5), 5);

  // Unsubscribed: the stream runs them itself again.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->UnsubscribeHostFunc(
                processor.id() + 1, stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  ASSERT_OK(HostFuncs::Of(*rt_)->UnsubscribeHostFunc(processor.id(), stream_));
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->UnsubscribeHostFunc(processor.id(),
                                                               stream_)),
            ACL_ERROR_RT_STREAM_SUBSCRIBE);
  Arg last{&log, 9};
  ASSERT_OK(HostFuncs::Of(*rt_)->LaunchHostFunc(stream_, Record, &last));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream_, Soon()));
  ASSERT_EQ(log.Threads().size(), 6u);
  EXPECT_NE(log.Threads().back(), processor.id());
  processor.Stop();
  EXPECT_EQ(processor.other_errors(), 0);

  // Timeouts: -1 or positive only. The stream must be a real one.
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessHostFunc(0)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessHostFunc(-2)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->ProcessHostFunc(10)),
            ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(ErrorCode(HostFuncs::Of(*rt_)->SubscribeHostFunc(Self(), nullptr)),
            ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace
}  // namespace ascend::rt
