#include "device/sim/internal/shared_mutex.h"

#include <atomic>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ascend::device::sim::internal {
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

}  // namespace
}  // namespace ascend::device::sim::internal
