#include "device/sim/internal/device_writes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim::internal {
namespace {

using Range = DeviceWrites::Range;
using VaMapping = DeviceWrites::VaMapping;

const uint64_t kPage = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));

// A device's memory: `pages` pages of a memory file mapped as the memory
// window, and the same file mapped a second time (a virtual address
// mapping of all of it).
class DeviceWritesTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kPages = 16;

  void SetUp() override {
    fd_ = memfd_create("device_writes_test", MFD_CLOEXEC);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(ftruncate(fd_, static_cast<off_t>(kPages * kPage)), 0);
    window_ = static_cast<char*>(mmap(
        nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0));
    alias_ = static_cast<char*>(mmap(
        nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0));
    ASSERT_NE(window_, MAP_FAILED);
    ASSERT_NE(alias_, MAP_FAILED);
  }
  void TearDown() override {
    munmap(window_, kPages * kPage);
    if (alias_ != nullptr) munmap(alias_, kPages * kPage);
    close(fd_);
  }

  uint64_t page(uint64_t i) const {
    return reinterpret_cast<uint64_t>(window_) + i * kPage;
  }
  Range pages(uint64_t first, uint64_t end) const {
    return Range{page(first), page(end)};
  }
  VaMapping alias() const {
    return VaMapping{reinterpret_cast<uint64_t>(alias_), kPages * kPage,
                     page(0)};
  }
  // A tracker over the window, or false where this kernel or sandbox
  // cannot track (the snapshot then copies everything, covered elsewhere).
  bool Start(DeviceWrites& writes, const std::vector<Range>& ranges,
             const std::vector<VaMapping>& mappings) {
    absl::Status started = writes.Start(ranges, mappings);
    if (started.code() == absl::StatusCode::kUnavailable) return false;
    EXPECT_OK(started);
    return started.ok();
  }

  int fd_ = -1;
  char* window_ = nullptr;
  char* alias_ = nullptr;
};

TEST_F(DeviceWritesTest,
       ReportsWritesThroughTheWindowAndAMappingInTrackedRanges) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(1, 4), pages(8, 10)}, {alias()})) {
    GTEST_SKIP() << "write tracking unavailable here";
  }
  ASSERT_OK_AND_ASSIGN(std::vector<Range> none, writes.Written({alias()}));
  EXPECT_TRUE(none.empty());

  window_[1 * kPage + 5] = 1;  // tracked, through the window
  alias_[9 * kPage] = 2;       // tracked, through the mapping
  window_[12 * kPage] = 3;     // not tracked
  ASSERT_OK_AND_ASSIGN(std::vector<Range> written, writes.Written({alias()}));
  EXPECT_EQ(written, (std::vector<Range>{pages(1, 2), pages(9, 10)}));

  // Reading does not forget.
  ASSERT_OK_AND_ASSIGN(std::vector<Range> again, writes.Written({alias()}));
  EXPECT_EQ(again, written);

  // A new period starts clean.
  ASSERT_TRUE(Start(writes, {pages(1, 4), pages(8, 10)}, {alias()}));
  ASSERT_OK_AND_ASSIGN(std::vector<Range> fresh, writes.Written({alias()}));
  EXPECT_TRUE(fresh.empty());
}

TEST_F(DeviceWritesTest, NotedChangesCountAndAreClippedToTheTrackedRanges) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(2, 6)}, {})) GTEST_SKIP();
  writes.Note(page(1), 2 * kPage);  // a free over [1, 3): only 2 is tracked
  ASSERT_OK_AND_ASSIGN(std::vector<Range> written, writes.Written({}));
  EXPECT_EQ(written, (std::vector<Range>{pages(2, 3)}));

  writes.NoteAll();  // a memory loss
  ASSERT_OK_AND_ASSIGN(std::vector<Range> all, writes.Written({}));
  EXPECT_EQ(all, (std::vector<Range>{pages(2, 6)}));
}

TEST_F(DeviceWritesTest, ExportedMemoryCountsAsWrittenInEveryPeriod) {
  DeviceWrites writes(page(0), kPages * kPage);
  writes.NoteExported(page(4), kPage);  // before any period
  if (!Start(writes, {pages(0, 8)}, {})) GTEST_SKIP();
  ASSERT_OK_AND_ASSIGN(std::vector<Range> first, writes.Written({}));
  EXPECT_EQ(first, (std::vector<Range>{pages(4, 5)}));
  ASSERT_TRUE(Start(writes, {pages(0, 8)}, {}));
  ASSERT_OK_AND_ASSIGN(std::vector<Range> second, writes.Written({}));
  EXPECT_EQ(second, (std::vector<Range>{pages(4, 5)}));
}

TEST_F(DeviceWritesTest, WritesThroughAMappingSurviveItsRemoval) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(0, kPages)}, {alias()})) GTEST_SKIP();
  alias_[3 * kPage] = 7;
  writes.MappingRemoving(alias());
  ASSERT_EQ(munmap(alias_, kPages * kPage), 0);
  alias_ = nullptr;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> written, writes.Written({}));
  EXPECT_EQ(written, (std::vector<Range>{pages(3, 4)}));
}

TEST_F(DeviceWritesTest, AMappingMadeDuringAPeriodIsTracked) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(0, kPages)}, {})) GTEST_SKIP();
  writes.MappingAdded(alias());
  alias_[6 * kPage] = 1;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> written, writes.Written({alias()}));
  EXPECT_EQ(written, (std::vector<Range>{pages(6, 7)}));
}

TEST_F(DeviceWritesTest, EveryPeriodSeesEveryWriteWhateverTheLastOneSaw) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(0, 4)}, {})) GTEST_SKIP();
  window_[1 * kPage] = 1;
  // Punched behind the page tables' back (a free), and noted.
  ASSERT_EQ(fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                      static_cast<off_t>(3 * kPage), static_cast<off_t>(kPage)),
            0);
  writes.Note(page(3), kPage);
  // The next period re-arms what was written and noted, keeps what was
  // never written armed, and arms what it adds.
  ASSERT_TRUE(Start(writes, {pages(0, 8)}, {}));
  for (uint64_t p : {0, 1, 2, 3, 6}) window_[p * kPage + 1] = 9;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> written, writes.Written({}));
  EXPECT_EQ(written, (std::vector<Range>{pages(0, 4), pages(6, 7)}));
  // And once more, with nothing written in between.
  ASSERT_TRUE(Start(writes, {pages(0, 8)}, {}));
  ASSERT_OK_AND_ASSIGN(std::vector<Range> none, writes.Written({}));
  EXPECT_TRUE(none.empty());
  window_[5 * kPage] = 1;
  window_[1 * kPage] = 2;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> again, writes.Written({}));
  EXPECT_EQ(again, (std::vector<Range>{pages(1, 2), pages(5, 6)}));
}

// A pre-copy restarts the period while writers run: what the ending period
// saw is answered, the new period starts empty but for what mappings show,
// and a writer on another thread loses no write to the switch.
TEST_F(DeviceWritesTest, RestartHandsOverEveryWriteToOneOfTheTwoPeriods) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(0, 8)}, {})) GTEST_SKIP();
  window_[2 * kPage] = 1;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> first,
                       writes.Restart({pages(0, 8)}, {}));
  EXPECT_EQ(first, std::vector<Range>{pages(2, 3)});
  ASSERT_OK_AND_ASSIGN(std::vector<Range> none, writes.Written({}));
  EXPECT_TRUE(none.empty());
  window_[5 * kPage] = 1;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> second,
                       writes.Restart({pages(0, 8)}, {}));
  EXPECT_EQ(second, std::vector<Range>{pages(5, 6)});

  // A writer touching every page in turn while periods restart: each page
  // it wrote is in the answer of the period it ended in or of the last.
  ASSERT_OK(writes.Start({pages(0, kPages)}, {}));
  std::vector<bool> seen(kPages, false);
  std::atomic<uint64_t> written_up_to{0};
  std::thread writer([&] {
    for (uint64_t i = 0; i < kPages; ++i) {
      window_[i * kPage + 7] = static_cast<char>(i + 1);
      written_up_to.store(i + 1);
      std::this_thread::yield();
    }
  });
  auto mark = [&](const std::vector<Range>& ranges) {
    for (const Range& r : ranges) {
      for (uint64_t a = r.begin; a < r.end; a += kPage) {
        seen[(a - page(0)) / kPage] = true;
      }
    }
  };
  while (written_up_to.load() < kPages) {
    ASSERT_OK_AND_ASSIGN(std::vector<Range> got,
                         writes.Restart({pages(0, kPages)}, {}));
    mark(got);
  }
  writer.join();
  ASSERT_OK_AND_ASSIGN(std::vector<Range> last, writes.Written({}));
  mark(last);
  for (uint64_t i = 0; i < kPages; ++i) EXPECT_TRUE(seen[i]) << "page " << i;
}

// A write through a mapping between its scan and its arming would be lost:
// what mappings show counts as written in the period a Restart starts.
TEST_F(DeviceWritesTest, AfterARestartMappedMemoryCountsAsWritten) {
  DeviceWrites writes(page(0), kPages * kPage);
  if (!Start(writes, {pages(0, 8)}, {alias()})) GTEST_SKIP();
  alias_[3 * kPage] = 1;
  ASSERT_OK_AND_ASSIGN(std::vector<Range> ended,
                       writes.Restart({pages(0, 8)}, {alias()}));
  EXPECT_EQ(ended, std::vector<Range>{pages(3, 4)});
  ASSERT_OK_AND_ASSIGN(std::vector<Range> now, writes.Written({alias()}));
  EXPECT_EQ(now, std::vector<Range>{pages(0, 8)});
}

TEST_F(DeviceWritesTest, WithoutAPeriodThereIsNoAnswer) {
  DeviceWrites writes(page(0), kPages * kPage);
  EXPECT_EQ(writes.Written({}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  writes.Note(page(0), kPage);  // ignored, and cheap
}

}  // namespace
}  // namespace ascend::device::sim::internal
