#include "device/sim/internal/core_pool.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ascend::device::sim::internal {
namespace {

TEST(CorePoolTest, RunsEveryBlockOnce) {
  CorePool pool;
  for (uint32_t cores : {1u, 2u, 7u, 64u}) {
    std::vector<std::atomic<int>> hits(1000);
    pool.Run(1000, cores, [&](uint32_t block) { hits[block]++; });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1) << cores;
  }
}

TEST(CorePoolTest, OneCoreRunsOnTheCallerAndStartsNoThread) {
  CorePool pool;
  const std::thread::id self = std::this_thread::get_id();
  bool elsewhere = false;
  pool.Run(16, 1,
           [&](uint32_t) { elsewhere |= std::this_thread::get_id() != self; });
  pool.Run(1, 24,
           [&](uint32_t) { elsewhere |= std::this_thread::get_id() != self; });
  EXPECT_FALSE(elsewhere);
  EXPECT_EQ(pool.threads(), 0u);
}

// Four blocks on four cores meet at a barrier: they can only pass it if they
// run at the same time.
TEST(CorePoolTest, BlocksRunInParallel) {
  CorePool pool;
  std::atomic<int> arrived{0};
  std::atomic<bool> all_met{true};
  pool.Run(4, 4, [&](uint32_t) {
    arrived++;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (arrived.load() < 4) {
      if (std::chrono::steady_clock::now() > deadline) {
        all_met = false;
        return;
      }
      std::this_thread::yield();
    }
  });
  EXPECT_TRUE(all_met.load());
  EXPECT_EQ(pool.threads(), 3u);
}

TEST(CorePoolTest, TheCoreLimitBoundsConcurrency) {
  CorePool pool;
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  pool.Run(64, 3, [&](uint32_t) {
    const int now = ++inside;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    --inside;
  });
  EXPECT_LE(most.load(), 3);
  EXPECT_LE(pool.threads(), 2u);
}

TEST(CorePoolTest, ConcurrentLaunchesShareTheHelpers) {
  CorePool pool;
  std::vector<std::thread> launchers;
  std::atomic<int> total{0};
  for (int t = 0; t < 4; ++t) {
    launchers.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        pool.Run(8, 4, [&](uint32_t) { total++; });
      }
    });
  }
  for (auto& t : launchers) t.join();
  EXPECT_EQ(total.load(), 4 * 50 * 8);
  EXPECT_LE(pool.threads(), CorePool::kMaxThreads);
}

}  // namespace
}  // namespace ascend::device::sim::internal
