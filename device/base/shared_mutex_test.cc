#include "device/base/shared_mutex.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ascend {
namespace {

// Waits up to 10 s for `flag`.
bool WaitFor(const std::atomic<bool>& flag) {
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (!flag && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(1));
  return flag;
}

TEST(SharedMutexTest, ReadersShareAndWritersExclude) {
  SharedMutex mu;
  std::atomic<bool> second_reader_in{false};
  std::atomic<bool> writer_in{false};
  mu.ReaderLock();
  std::thread reader([&] {
    ReaderMutexLock lock(&mu);
    second_reader_in = true;
  });
  EXPECT_TRUE(WaitFor(second_reader_in));  // while the first still reads
  reader.join();
  std::thread writer([&] {
    WriterMutexLock lock(&mu);
    writer_in = true;
  });
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_FALSE(writer_in);
  mu.ReaderUnlock();
  EXPECT_TRUE(WaitFor(writer_in));
  writer.join();
}

TEST(SharedMutexTest, AWaitingWriterHoldsBackNewReaders) {
  SharedMutex mu;
  std::atomic<bool> writer_in{false};
  std::atomic<bool> late_reader_in{false};
  std::atomic<bool> writer_saw_late_reader{false};
  mu.ReaderLock();
  std::thread writer([&] {
    WriterMutexLock lock(&mu);
    writer_in = true;
    absl::SleepFor(absl::Milliseconds(20));
    writer_saw_late_reader = late_reader_in.load();
  });
  absl::SleepFor(absl::Milliseconds(50));  // the writer is waiting now
  std::thread late_reader([&] {
    ReaderMutexLock lock(&mu);
    late_reader_in = true;
  });
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_FALSE(late_reader_in) << "a new reader overtook a waiting writer";
  mu.ReaderUnlock();
  EXPECT_TRUE(WaitFor(writer_in));
  EXPECT_TRUE(WaitFor(late_reader_in));
  writer.join();
  late_reader.join();
  EXPECT_FALSE(writer_saw_late_reader);
}

TEST(SharedMutexTest, ManyReadersAndAWriterUnderLoad) {
  SharedMutex mu;
  std::atomic<int> readers{0};
  std::atomic<int> max_readers{0};
  std::atomic<bool> writer_inside{false};
  std::atomic<bool> overlap{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        ReaderMutexLock lock(&mu);
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
      WriterMutexLock lock(&mu);
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

// The exclusive side is BasicLockable, for std::condition_variable_any.
TEST(SharedMutexTest, WorksWithConditionVariableAny) {
  SharedMutex mu;
  std::condition_variable_any cv;
  bool ready = false;
  std::thread setter([&] {
    absl::SleepFor(absl::Milliseconds(10));
    {
      WriterMutexLock lock(&mu);
      ready = true;
    }
    cv.notify_all();
  });
  {
    std::unique_lock<SharedMutex> lock(mu);
    EXPECT_TRUE(
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return ready; }));
  }
  setter.join();
}

}  // namespace
}  // namespace ascend
