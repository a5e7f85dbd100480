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
    mu.Await(absl::Condition(+[](int* v) { return *v == 42; }, &value));
    EXPECT_EQ(value, 42);
  }
  setter.join();
}

TEST(MutexTest, AwaitWithDeadlineTimesOut) {
  Mutex mu;
  bool flag = false;
  MutexLock lock(&mu);
  const absl::Time start = absl::Now();
  EXPECT_FALSE(mu.AwaitWithTimeout(
      absl::Condition(+[](bool* f) { return *f; }, &flag),
      absl::Milliseconds(30)));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(25));
}

TEST(MutexTest, AwaitWithDeadlineReturnsTrueWhenAlreadyTrue) {
  Mutex mu;
  bool flag = true;
  MutexLock lock(&mu);
  EXPECT_TRUE(mu.AwaitWithDeadline(
      absl::Condition(+[](bool* f) { return *f; }, &flag),
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
      mu.Await(absl::Condition(+[](bool* g) { return *g; }, &go));
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

}  // namespace
}  // namespace ascend
