// Pre-copy through the C API (ascendclSnapshotPrecopy, ascendcl/snapshot.h;
// DESIGN.md §4.14): device memory is copied while the application runs, and
// the next Lock + Backup copies only what was written after the pre-copy
// began, whoever wrote it and whenever (also during the pre-copy). Each
// case ends with a memory loss and a Restore, so a write the Backup missed
// would come back wrong.
#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "runtime/rt_snapshot.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::ProcessState;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = kKiB * kKiB;
constexpr uint64_t kPiece = 64 * kKiB;  // MemoryOptions::piece_bytes
constexpr int kBuffers = 8;

nlohmann::json Report() {
  size_t needed = 0;
  (void)ascendclSnapshotGetReport(nullptr, 0, &needed);
  std::string json(needed, '\0');
  EXPECT_EQ(ascendclSnapshotGetReport(json.data(), json.size(), &needed),
            ACL_SUCCESS);
  json.resize(needed - 1);
  return nlohmann::json::parse(json);
}

class PrecopyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    expected_.assign(kBuffers, std::vector<uint8_t>(kMiB));
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMalloc(&buffers_[b], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
      for (uint64_t i = 0; i < kMiB; ++i) {
        expected_[b][i] = static_cast<uint8_t>(i * 13 + b);
      }
      ASSERT_ACL_OK(aclrtMemcpy(buffers_[b], kMiB, expected_[b].data(), kMiB,
                                ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  void TearDown() override {
    for (void* p : buffers_) EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
    unsetenv("ASCENDCL_SNAPSHOT_INCREMENTAL");
  }

  // A pre-copy; false when this machine cannot track writes (then it
  // answers "not supported", which is checked).
  bool Precopy() {
    const aclError e = ascendclSnapshotPrecopy();
    if (e == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) return false;
    EXPECT_ACL_OK(e);
    return e == ACL_SUCCESS;
  }
  // A write by a writer the host's race detector cannot see (a kernel on
  // the device, a peer process): the pre-copy reads device memory while it
  // is written, by design (DESIGN.md §4.14), and write tracking makes the
  // Backup after it exact, which these cases check byte for byte.
  __attribute__((no_sanitize("thread"))) void KernelWrite(int b,
                                                          uint64_t offset,
                                                          uint8_t value) {
    static_cast<volatile uint8_t*>(buffers_[b])[offset] = value;
    expected_[b][offset] = value;
  }
  void CopyWrite(int b, uint64_t offset, uint64_t size, uint8_t value) {
    std::vector<uint8_t> bytes(size, value);
    ASSERT_ACL_OK(aclrtMemcpy(static_cast<uint8_t*>(buffers_[b]) + offset, size,
                              bytes.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    std::memset(expected_[b].data() + offset, value, size);
  }
  // Backup, memory loss, Restore, Unlock; then every byte as expected.
  void BackupLoseRestoreAndCheck() {
    ASSERT_ACL_OK(Lock());
    ASSERT_ACL_OK(Backup());
    backup_report_ = Report();
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(Restore());
    ASSERT_ACL_OK(Unlock());
    std::vector<uint8_t> got(kMiB);
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMemcpy(got.data(), kMiB, buffers_[b], kMiB,
                                ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(got, expected_[b]) << "buffer " << b;
    }
  }

  void* buffers_[kBuffers] = {};
  std::vector<std::vector<uint8_t>> expected_;
  nlohmann::json backup_report_;
};

// Constraints: RUNNING only, with the Backup's code for a wrong state and
// no change; an open device needed.
TEST_F(PrecopyTest, OnlyARunningProcessPrecopiesAndARefusalChangesNothing) {
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const std::string before = Report().dump();
  EXPECT_EQ(ascendclSnapshotPrecopy(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_BACKED_UP);
  EXPECT_EQ(Report().dump(), before);
  ASSERT_ACL_OK(Unlock());
  ASSERT_ACL_OK(Lock());
  EXPECT_EQ(ascendclSnapshotPrecopy(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(Unlock());
}

TEST(PrecopyWithoutDeviceTest, NeedsAnOpenDevice) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(ascendclSnapshotPrecopy(), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(PrecopyTest, WithIncrementalSnapshotsOffItIsNotSupported) {
  setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "0", 1);
  EXPECT_EQ(ascendclSnapshotPrecopy(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  BackupLoseRestoreAndCheck();
  EXPECT_EQ(backup_report_["mode"], "full");
}

TEST_F(PrecopyTest, TheBackupAfterCopiesOnlyWhatWasWrittenSince) {
  if (!Precopy()) GTEST_SKIP() << "no write tracking here";
  nlohmann::json r = Report();
  EXPECT_EQ(r["operation"], "precopy");
  EXPECT_EQ(r["mode"], "full");  // the process's first
  EXPECT_EQ(r["bytes_copied"], kBuffers * kMiB);
  EXPECT_GE(r["host_bytes"], kBuffers * kMiB);
  CopyWrite(2, 3 * kPiece, kPiece, 0xAB);
  KernelWrite(5, 5 * kPiece + 17, 0xCD);
  BackupLoseRestoreAndCheck();
  EXPECT_EQ(backup_report_["mode"], "incremental");
  EXPECT_EQ(backup_report_["bytes_copied"], 2 * kPiece);
}

TEST_F(PrecopyTest, ASecondPrecopyCopiesOnlyWhatWasWrittenSinceTheFirst) {
  if (!Precopy()) GTEST_SKIP();
  KernelWrite(1, 7, 0x01);
  ASSERT_TRUE(Precopy());
  EXPECT_EQ(Report()["mode"], "incremental");
  EXPECT_EQ(Report()["bytes_copied"], kPiece);
  KernelWrite(6, 2 * kPiece, 0x02);
  BackupLoseRestoreAndCheck();
  EXPECT_EQ(backup_report_["bytes_copied"], kPiece);
}

// A kernel writing all over device memory while the pre-copy runs, and
// stopping the moment it returns: what it wrote after its pages were
// copied reaches the Backup only through the write tracking of the period
// the pre-copy began.
TEST_F(PrecopyTest, WritesMadeDuringThePrecopyReachTheBackup) {
  if (!Precopy()) GTEST_SKIP();
  // Writes that landed while a pre-copy ran. On a loaded machine the writer
  // may not get a core during a pre-copy of a few milliseconds, so pre-copies
  // are repeated until one overlaps writes (each a valid pre-copy; bounded).
  uint64_t during = 0;
  for (int attempt = 0; attempt < 500 && (attempt < 5 || during == 0);
       ++attempt) {
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> writes{0};
    std::thread kernel([&] {
      for (uint8_t round = 1; !stop.load(); ++round) {
        for (int b = 0; b < kBuffers && !stop.load(); ++b) {
          for (uint64_t at = 0; at < kMiB && !stop.load(); at += 4 * kKiB) {
            KernelWrite(b, at + round % 64, round);
            writes.fetch_add(1);
          }
        }
      }
    });
    while (writes.load() < 16) std::this_thread::yield();
    const uint64_t before = writes.load();
    EXPECT_ACL_OK(ascendclSnapshotPrecopy());
    stop.store(true);
    during += writes.load() - before;
    kernel.join();
  }
  EXPECT_GT(during, 0u);
  BackupLoseRestoreAndCheck();
  EXPECT_EQ(backup_report_["mode"], "incremental");
}

// A pre-copy that no Backup follows leaves nothing behind a reset.
TEST_F(PrecopyTest, ADeviceResetReleasesThePrecopy) {
  if (!Precopy()) GTEST_SKIP();
  for (void*& p : buffers_) {
    ASSERT_ACL_OK(aclrtFree(p));
    p = nullptr;
  }
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  for (int b = 0; b < kBuffers; ++b) {
    ASSERT_ACL_OK(aclrtMalloc(&buffers_[b], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemcpy(buffers_[b], kMiB, expected_[b].data(), kMiB,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  BackupLoseRestoreAndCheck();
  EXPECT_EQ(backup_report_["mode"], "full");
}

}  // namespace

// An inference server's pattern: a first Backup, then its memory freed and
// a fresh cache allocated and filled, pre-copied, and 1 % of it rewritten
// (by copies and by direct stores) before the next Backup. The pre-copy
// covers memory allocated since the last Backup, so that Backup copies only
// the rewritten pieces.
TEST(PrecopyOfFreshMemoryTest, MakesTheNextBackupIncremental) {
  constexpr int kCount = 32;
  constexpr uint64_t kSize = 4 * kMiB;
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<void*> first(kCount, nullptr);
  std::vector<uint8_t> fill(kSize, 0x5A);
  for (size_t i = 0; i < first.size(); ++i) {
    // Half of the first set written, half never touched.
    ASSERT_ACL_OK(aclrtMalloc(&first[i], kSize, ACL_MEM_MALLOC_HUGE_FIRST));
    if (i % 2 == 0) {
      ASSERT_ACL_OK(aclrtMemcpy(first[i], kSize, fill.data(), kSize,
                                ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Unlock());
  for (void* p : first) ASSERT_ACL_OK(aclrtFree(p));
  std::vector<void*> cache(kCount, nullptr);
  std::vector<std::vector<uint8_t>> expected(kCount);
  for (int i = 0; i < kCount; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&cache[i], kSize, ACL_MEM_MALLOC_HUGE_FIRST));
    expected[i].assign(kSize, static_cast<uint8_t>(i + 1));
    ASSERT_ACL_OK(aclrtMemcpy(cache[i], kSize, expected[i].data(), kSize,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  const aclError precopied = ascendclSnapshotPrecopy();
  if (precopied == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
    GTEST_SKIP() << "no write tracking here";
  }
  ASSERT_ACL_OK(precopied);
  // 1 % of the memory in 64 KiB pieces, every other one by a direct store.
  const uint64_t pieces = kCount * kSize / kPiece / 100;
  std::vector<uint8_t> bytes(kPiece, 0xEE);
  for (uint64_t k = 0; k < pieces; ++k) {
    const int i = static_cast<int>(k % kCount);
    const uint64_t offset = (k / kCount * 7 + 3) % (kSize / kPiece) * kPiece;
    uint8_t* at = static_cast<uint8_t*>(cache[i]) + offset;
    if (k % 2 == 0) {
      ASSERT_ACL_OK(aclrtMemcpy(at, kPiece, bytes.data(), kPiece,
                                ACL_MEMCPY_HOST_TO_DEVICE));
    } else {
      std::memset(at, 0xEE, kPiece);
    }
    std::memset(expected[i].data() + offset, 0xEE, kPiece);
  }
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const nlohmann::json report = Report();
  EXPECT_EQ(report["mode"], "incremental") << report.dump();
  EXPECT_LE(report["bytes_copied"].get<uint64_t>(), pieces * kPiece)
      << report.dump();
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  std::vector<uint8_t> got(kSize);
  for (int i = 0; i < kCount; ++i) {
    ASSERT_ACL_OK(aclrtMemcpy(got.data(), kSize, cache[i], kSize,
                              ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(got == expected[i]) << "allocation " << i;
    ASSERT_ACL_OK(aclrtFree(cache[i]));
  }
  EXPECT_ACL_OK(aclrtResetDevice(0));
  EXPECT_ACL_OK(aclFinalize());
}
