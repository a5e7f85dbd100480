#include "device/base/mutex.h"

#include <atomic>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace ascend {
namespace {

TEST(MutexTest, AwaitWakesOnStateChangeWithoutExplicitNotify) {
  Mutex mu;
  int value = 0;
  std::thread setter([&] {
    absl::SleepFor(absl::Milliseconds(20));
    MutexLock lock(&mu);
    value = 42;
  });
  {
    MutexLock lock(&mu);
    mu.Await(absl::Condition(
        +[](int* v) { return *v == 42; }, &value));
    EXPECT_EQ(value, 42);
  }
  setter.join();
}

TEST(MutexTest, AwaitWithDeadlineTimesOut) {
  Mutex mu;
  bool flag = false;
  MutexLock lock(&mu);
  const absl::Time start = absl::Now();
  EXPECT_FALSE(mu.AwaitWithTimeout(absl::Condition(
                                       +[](bool* f) { return *f; }, &flag),
                                   absl::Milliseconds(30)));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(25));
}

TEST(MutexTest, AwaitWithDeadlineReturnsTrueWhenAlreadyTrue) {
  Mutex mu;
  bool flag = true;
  MutexLock lock(&mu);
  EXPECT_TRUE(mu.AwaitWithDeadline(absl::Condition(
                                       +[](bool* f) { return *f; }, &flag),
                                   absl::Now() - absl::Seconds(1)));
}

TEST(MutexTest, ExcludesConcurrentWriters) {
  Mutex mu;
  int64_t counter = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        MutexLock lock(&mu);
        ++counter;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(counter, 40000);
}

TEST(MutexTest, ManyWaitersAllWake) {
  Mutex mu;
  bool go = false;
  std::atomic<int> woke{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      MutexLock lock(&mu);
      mu.Await(absl::Condition(
          +[](bool* g) { return *g; }, &go));
      woke.fetch_add(1);
    });
  }
  absl::SleepFor(absl::Milliseconds(20));
  {
    MutexLock lock(&mu);
    go = true;
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(woke.load(), 8);
}

// A thread that changes state and then waits must wake the waiters its
// change satisfies, with no Unlock in between (absl::Mutex semantics).
TEST(MutexTest, StartingToWaitWakesWaitersSatisfiedByThisThread) {
  Mutex mu;
  bool first_may_go = false;
  bool second_may_go = false;
  std::thread first([&] {
    MutexLock lock(&mu);
    mu.Await(absl::Condition(
        +[](bool* b) { return *b; }, &first_may_go));
    second_may_go = true;  // satisfied by the main thread below
  });
  // Wait until `first` is blocked in Await.
  for (;;) {
    absl::SleepFor(absl::Milliseconds(5));
    MutexLock lock(&mu);
    if (!first_may_go) break;
  }
  absl::SleepFor(absl::Milliseconds(20));
  {
    MutexLock lock(&mu);
    first_may_go = true;
    // Now wait for `first` to react: our Await releases the mutex by waiting.
    EXPECT_TRUE(
        mu.AwaitWithTimeout(absl::Condition(
                                +[](bool* b) { return *b; }, &second_may_go),
                            absl::Seconds(10)));
  }
  first.join();
}

TEST(MutexTest, WaitingThreadThatChangedStateWakesOtherWaiter) {
  Mutex mu;
  int parked = 0;
  bool running = false;
  std::thread parker([&] {
    MutexLock lock(&mu);
    ++parked;
    mu.Await(absl::Condition(
        +[](bool* r) { return *r; }, &running));
    --parked;  // then releases by returning (Unlock)
  });
  {
    MutexLock lock(&mu);
    ASSERT_TRUE(
        mu.AwaitWithTimeout(absl::Condition(
                                +[](int* p) { return *p == 1; }, &parked),
                            absl::Seconds(10)));
    running = true;
    // The parker can only run after we wait; it must then wake us.
    EXPECT_TRUE(
        mu.AwaitWithTimeout(absl::Condition(
                                +[](int* p) { return *p == 0; }, &parked),
                            absl::Seconds(10)));
  }
  parker.join();
}

}  // namespace
}  // namespace ascend
