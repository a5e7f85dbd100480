#include "device/sim/internal/write_tracker.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim::internal {
namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

const uint64_t kPage = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));

// A tracker, or a skip where this kernel or sandbox cannot track writes
// (the runtime then falls back to full copies, which its own tests cover).
std::unique_ptr<WriteTracker> TrackerOrSkip() {
  absl::StatusOr<std::unique_ptr<WriteTracker>> tracker =
      WriteTracker::Create();
  if (!tracker.ok()) {
    EXPECT_EQ(tracker.status().code(), absl::StatusCode::kUnavailable);
    return nullptr;
  }
  return *std::move(tracker);
}

// `pages` pages of anonymous or memfd-shared memory.
struct Mapping {
  Mapping(uint64_t pages, bool shared) : size(pages * kPage) {
    if (shared) {
      fd = memfd_create("write_tracker_test", MFD_CLOEXEC);
      EXPECT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0);
      ptr = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    } else {
      ptr = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    EXPECT_NE(ptr, MAP_FAILED);
  }
  ~Mapping() {
    munmap(ptr, size);
    if (fd >= 0) close(fd);
  }
  uint64_t addr() const { return reinterpret_cast<uint64_t>(ptr); }
  uint64_t page(uint64_t i) const { return addr() + i * kPage; }
  char* at(uint64_t i) const { return static_cast<char*>(ptr) + i * kPage; }

  uint64_t size;
  int fd = -1;
  void* ptr = nullptr;
};

class WriteTrackerTest : public ::testing::TestWithParam<bool> {};

TEST_P(WriteTrackerTest, ReportsExactlyTheWrittenPagesAndRearms) {
  std::unique_ptr<WriteTracker> tracker = TrackerOrSkip();
  if (!tracker) GTEST_SKIP() << "write tracking unavailable here";
  Mapping m(64, GetParam());
  std::memset(m.ptr, 1, m.size / 2);  // half populated before arming
  ASSERT_OK(tracker->Register(m.addr(), m.size));
  // Nothing written since arming.
  ASSERT_OK_AND_ASSIGN(Ranges none, tracker->Collect(m.addr(), m.size, true));
  EXPECT_TRUE(none.empty());
  // A populated page, a never-touched one, and two adjacent ones.
  m.at(3)[17] = 5;
  m.at(40)[0] = 6;
  m.at(50)[kPage - 1] = 7;
  m.at(51)[1] = 8;
  ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, true));
  EXPECT_EQ(got, (Ranges{{m.page(3), m.page(4)},
                         {m.page(40), m.page(41)},
                         {m.page(50), m.page(52)}}));
  // Re-armed: only what is written after the scan shows next time.
  ASSERT_OK_AND_ASSIGN(Ranges again, tracker->Collect(m.addr(), m.size, true));
  EXPECT_TRUE(again.empty());
  m.at(3)[0] = 9;
  ASSERT_OK_AND_ASSIGN(again, tracker->Collect(m.addr(), m.size, true));
  EXPECT_EQ(again, (Ranges{{m.page(3), m.page(4)}}));
  // The data is what was written.
  EXPECT_EQ(m.at(3)[17], 5);
  EXPECT_EQ(m.at(51)[1], 8);
  ASSERT_OK(tracker->Unregister(m.addr(), m.size));
}

TEST_P(WriteTrackerTest, CollectWithoutRearmKeepsReporting) {
  std::unique_ptr<WriteTracker> tracker = TrackerOrSkip();
  if (!tracker) GTEST_SKIP() << "write tracking unavailable here";
  Mapping m(8, GetParam());
  ASSERT_OK(tracker->Register(m.addr(), m.size));
  m.at(2)[0] = 1;
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, false));
    EXPECT_EQ(got, (Ranges{{m.page(2), m.page(3)}})) << "scan " << i;
  }
  // Arm: forgotten.
  ASSERT_OK(tracker->Arm(m.addr(), m.size));
  ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, false));
  EXPECT_TRUE(got.empty());
  ASSERT_OK(tracker->Unregister(m.addr(), m.size));
}

TEST_P(WriteTrackerTest, ADisarmedRangeCountsAsWrittenUntilRearmed) {
  std::unique_ptr<WriteTracker> tracker = TrackerOrSkip();
  if (!tracker) GTEST_SKIP() << "write tracking unavailable here";
  Mapping m(16, GetParam());
  ASSERT_OK(tracker->Register(m.addr(), m.size));
  ASSERT_OK(tracker->Disarm(m.page(4), 4 * kPage));
  std::memset(m.at(4), 3, 4 * kPage);
  m.at(12)[0] = 1;
  ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, true));
  EXPECT_EQ(got, (Ranges{{m.page(4), m.page(8)}, {m.page(12), m.page(13)}}));
  // Disarmed without a write: reported all the same (it was about to be
  // written); the scan armed it again.
  ASSERT_OK(tracker->Disarm(m.page(0), kPage));
  ASSERT_OK_AND_ASSIGN(got, tracker->Collect(m.addr(), m.size, true));
  EXPECT_EQ(got, (Ranges{{m.page(0), m.page(1)}}));
  ASSERT_OK_AND_ASSIGN(got, tracker->Collect(m.addr(), m.size, true));
  EXPECT_TRUE(got.empty());
  ASSERT_OK(tracker->Unregister(m.addr(), m.size));
}

TEST_P(WriteTrackerTest, WritesFromOtherThreadsCount) {
  std::unique_ptr<WriteTracker> tracker = TrackerOrSkip();
  if (!tracker) GTEST_SKIP() << "write tracking unavailable here";
  Mapping m(256, GetParam());
  ASSERT_OK(tracker->Register(m.addr(), m.size));
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&m, t] {
      for (uint64_t i = static_cast<uint64_t>(t); i < 256; i += 8) {
        m.at(i)[0] = 1;
      }
    });
  }
  for (std::thread& w : writers) w.join();
  ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, true));
  Ranges want;
  for (uint64_t i = 0; i < 256; i += 8) {
    want.emplace_back(m.page(i), m.page(i + 4));
  }
  EXPECT_EQ(got, want);
  ASSERT_OK(tracker->Unregister(m.addr(), m.size));
}

TEST_P(WriteTrackerTest, ManyScatteredPagesNeedMoreThanOneScanBatch) {
  std::unique_ptr<WriteTracker> tracker = TrackerOrSkip();
  if (!tracker) GTEST_SKIP() << "write tracking unavailable here";
  constexpr uint64_t kPages = 4096;
  Mapping m(kPages, GetParam());
  ASSERT_OK(tracker->Register(m.addr(), m.size));
  for (uint64_t i = 0; i < kPages; i += 2) m.at(i)[0] = 1;
  ASSERT_OK_AND_ASSIGN(Ranges got, tracker->Collect(m.addr(), m.size, true));
  ASSERT_EQ(got.size(), kPages / 2);
  EXPECT_EQ(got.front(), std::make_pair(m.page(0), m.page(1)));
  EXPECT_EQ(got.back(), std::make_pair(m.page(kPages - 2), m.page(kPages - 1)));
  ASSERT_OK(tracker->Unregister(m.addr(), m.size));
}

INSTANTIATE_TEST_SUITE_P(AnonymousAndShared, WriteTrackerTest,
                         ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "MemfdShared" : "Anonymous";
                         });

}  // namespace
}  // namespace ascend::device::sim::internal
