#include "device/npu/internal/shared_mutex.h"

#include <atomic>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ascend::device::npu::internal {
namespace {

TEST(SharedMutexTest, ReadersShareWritersExclude) {
  SharedMutex mu;
  std::atomic<int> readers{0};
  std::atomic<int> max_readers{0};
  std::atomic<bool> writer_inside{false};
  std::atomic<bool> overlap{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        ReaderLock lock(&mu);
        if (writer_inside) overlap = true;
        const int now = ++readers;
        int seen = max_readers;
        while (now > seen && !max_readers.compare_exchange_weak(seen, now)) {
        }
        absl::SleepFor(absl::Microseconds(100));
        --readers;
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 50; ++i) {
      WriterLock lock(&mu);
      writer_inside = true;
      if (readers != 0) overlap = true;
      absl::SleepFor(absl::Microseconds(50));
      writer_inside = false;
    }
  });
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(overlap);
  EXPECT_GT(max_readers, 1) << "readers never held the lock together";
}

}  // namespace
}  // namespace ascend::device::npu::internal
