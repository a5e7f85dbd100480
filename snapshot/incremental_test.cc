// Incremental Backup and Restore through the C API (DESIGN.md §4.14): a
// Backup after the first copies only what was written since, whoever wrote
// it (a copy, or code writing the simulated device memory directly as a
// kernel on a simulated core does), and a Restore of a device that kept its
// memory copies back only what was written since the Backup. Each case
// damages what was not copied to show that the restored bytes are right,
// and reads the report (ascendcl/snapshot.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = kKiB * kKiB;
constexpr uint64_t kPiece = 64 * kKiB;  // MemoryOptions::piece_bytes
constexpr int kBuffers = 8;

nlohmann::json Report() {
  size_t needed = 0;
  EXPECT_EQ(ascendclSnapshotGetReport(nullptr, 0, &needed),
            ACL_ERROR_RT_PARAM_INVALID);
  std::string json(needed, '\0');
  EXPECT_EQ(ascendclSnapshotGetReport(json.data(), json.size(), &needed),
            ACL_SUCCESS);
  json.resize(needed - 1);
  return nlohmann::json::parse(json);
}

class IncrementalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    expected_.assign(kBuffers, std::vector<uint8_t>(kMiB));
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMalloc(&buffers_[b], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
      for (uint64_t i = 0; i < kMiB; ++i) {
        expected_[b][i] = static_cast<uint8_t>(i * 7 + b);
      }
      ASSERT_ACL_OK(aclrtMemcpy(buffers_[b], kMiB, expected_[b].data(), kMiB,
                                ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  void TearDown() override {
    for (void* p : buffers_) EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
  }

  // A full cycle that leaves a write-tracking period running; false when
  // this machine cannot track writes (every Backup is then full, which
  // every other snapshot test covers).
  bool FirstBackup() {
    EXPECT_ACL_OK(Lock());
    EXPECT_ACL_OK(Backup());
    const nlohmann::json r = Report();
    EXPECT_EQ(r["operation"], "backup");
    EXPECT_EQ(r["mode"], "full");
    EXPECT_ACL_OK(Unlock());
    return r["write_tracking"] != "none";
  }

  // Code writing device memory directly, as a kernel on a simulated core.
  void KernelWrite(int b, uint64_t offset, uint8_t value) {
    static_cast<uint8_t*>(buffers_[b])[offset] = value;
    expected_[b][offset] = value;
  }
  void CopyWrite(int b, uint64_t offset, uint64_t size, uint8_t value) {
    std::vector<uint8_t> bytes(size, value);
    ASSERT_ACL_OK(aclrtMemcpy(static_cast<uint8_t*>(buffers_[b]) + offset, size,
                              bytes.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    std::memset(expected_[b].data() + offset, value, size);
  }
  void ExpectContents() {
    std::vector<uint8_t> got(kMiB);
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMemcpy(got.data(), kMiB, buffers_[b], kMiB,
                                ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(got, expected_[b]) << "buffer " << b;
    }
  }

  void* buffers_[kBuffers] = {};
  std::vector<std::vector<uint8_t>> expected_;
};

TEST(ReportTest, ParametersAreChecked) {
  size_t needed = 0;
  EXPECT_EQ(ascendclSnapshotGetReport(nullptr, 0, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  char small[8] = "keep";
  EXPECT_EQ(ascendclSnapshotGetReport(small, sizeof small, &needed),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_GT(needed, sizeof small);
  EXPECT_STREQ(small, "keep");  // nothing written
  std::string json(needed, '\0');
  ASSERT_EQ(ascendclSnapshotGetReport(json.data(), json.size(), &needed),
            ACL_SUCCESS);
  EXPECT_EQ(json.back(), '\0');
  const nlohmann::json r = nlohmann::json::parse(json.c_str());
  for (const char* key : {"operation", "mode", "write_tracking", "bytes_copied",
                          "bytes_unchanged", "bytes_in_place", "plan",
                          "host_bytes", "duration_us", "participants"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
}

TEST_F(IncrementalTest, BackupCopiesOnlyWhatCopiesAndKernelsWrote) {
  if (!FirstBackup()) GTEST_SKIP() << "no write tracking here";
  CopyWrite(2, 3 * kPiece, kPiece, 0xAB);  // one piece
  KernelWrite(5, 5 * kPiece + 17, 0xCD);   // one byte: its piece
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental");
  EXPECT_EQ(r["bytes_copied"], 2 * kPiece);
  EXPECT_EQ(r["bytes_unchanged"], kBuffers * kMiB - 2 * kPiece);
  bool memory_seen = false;
  for (const auto& p : r["participants"]) {
    if (p["name"] == "memory") {
      memory_seen = true;
      EXPECT_EQ(p["bytes"], 2 * kPiece);
    }
  }
  EXPECT_TRUE(memory_seen);
  // Restoring an image that missed either write would bring back the old
  // bytes there.
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  EXPECT_EQ(Report()["mode"], "full");  // the device lost its memory
  EXPECT_EQ(Report()["bytes_copied"], kBuffers * kMiB);
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

TEST_F(IncrementalTest,
       RestoreOfADeviceThatKeptItsMemoryCopiesOnlyWhatWasWritten) {
  if (!FirstBackup()) GTEST_SKIP();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  // Written after the Backup, as a kernel still running would (the
  // resource calls are blocked): the Restore must undo it.
  const uint8_t saved = expected_[6][9 * kPiece];
  static_cast<uint8_t*>(buffers_[6])[9 * kPiece] = saved ^ 0xFF;
  ASSERT_ACL_OK(Restore());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["operation"], "restore");
  EXPECT_EQ(r["mode"], "incremental");
  EXPECT_EQ(r["bytes_copied"], kPiece);
  ASSERT_ACL_OK(Unlock());
  ExpectContents();

  // The next Backup starts from the restored image.
  CopyWrite(0, 0, 10, 0x11);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  EXPECT_EQ(Report()["mode"], "incremental");
  EXPECT_EQ(Report()["bytes_copied"], kPiece);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

TEST_F(IncrementalTest, MemoryFreedAndAllocatedAgainIsCopiedWhole) {
  if (!FirstBackup()) GTEST_SKIP();
  ASSERT_ACL_OK(aclrtFree(buffers_[4]));
  ASSERT_ACL_OK(aclrtMalloc(&buffers_[4], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  // Fresh memory reads as zero; only part of it is written.
  std::fill(expected_[4].begin(), expected_[4].end(), 0);
  CopyWrite(4, 2 * kPiece, kPiece, 0x5A);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental");
  EXPECT_GE(r["bytes_copied"], kPiece);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

TEST_F(IncrementalTest, AFailedIncrementalBackupKeepsEveryWriteForTheNext) {
  if (!FirstBackup()) GTEST_SKIP();
  KernelWrite(1, 100, 0x42);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  EXPECT_EQ(Backup(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  ASSERT_ACL_OK(Backup());
  EXPECT_EQ(Report()["mode"], "incremental");
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

// An allocation mostly never written (its holes are not saved): a kernel
// writing into a hole, and a copy zeroing what held data, after the first
// Backup. The next Backup learns where data is from the previous image and
// the writes (DESIGN.md §4.14), so both must show up after a loss.
TEST_F(IncrementalTest, WritesIntoHolesAndZeroedRangesAreSaved) {
  void* sparse = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&sparse, kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> want(kMiB, 0);
  std::vector<uint8_t> piece(kPiece, 0x77);
  ASSERT_ACL_OK(aclrtMemcpy(static_cast<uint8_t*>(sparse) + 4 * kPiece, kPiece,
                            piece.data(), kPiece, ACL_MEMCPY_HOST_TO_DEVICE));
  std::memset(want.data() + 4 * kPiece, 0x77, kPiece);
  if (!FirstBackup()) {
    EXPECT_ACL_OK(aclrtFree(sparse));
    GTEST_SKIP();
  }
  // A kernel writes into a hole, a copy zeroes the piece that held data.
  static_cast<uint8_t*>(sparse)[9 * kPiece + 5] = 0x3C;
  want[9 * kPiece + 5] = 0x3C;
  ASSERT_ACL_OK(aclrtMemset(static_cast<uint8_t*>(sparse) + 4 * kPiece, kPiece,
                            0, kPiece));
  std::memset(want.data() + 4 * kPiece, 0, kPiece);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  EXPECT_EQ(Report()["mode"], "incremental");
  EXPECT_LE(Report()["bytes_copied"], 2 * kPiece);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  std::vector<uint8_t> got(kMiB, 0xEE);
  ASSERT_ACL_OK(
      aclrtMemcpy(got.data(), kMiB, sparse, kMiB, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, want);
  ExpectContents();
  EXPECT_ACL_OK(aclrtFree(sparse));
}

// The previous capture's image was released (Unlock) and only its
// write-tracking period holds it: a Backup copies what was written since
// into that memory, where it was, instead of into new host memory (the
// report says how much, and which plan ran). Written memory comes back
// byte for byte, over several rounds with unchanged pieces carried over.
TEST_F(IncrementalTest, RewrittenMemoryIsCopiedIntoTheLastCaptureInPlace) {
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const nlohmann::json first = Report();
  EXPECT_EQ(first["bytes_in_place"], 0u);
  EXPECT_EQ(first["plan"].get<std::string>().rfind("full: ", 0), 0u)
      << first.dump();
  ASSERT_ACL_OK(Unlock());
  if (first["write_tracking"] == "none") GTEST_SKIP();
  for (int b = 0; b < kBuffers; ++b) CopyWrite(b, 0, kMiB, 0x10 + b);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental") << r.dump();
  EXPECT_EQ(r["bytes_copied"], kBuffers * kMiB);
  EXPECT_EQ(r["bytes_in_place"], kBuffers * kMiB);
  EXPECT_EQ(r["host_bytes"], first["host_bytes"]);  // no new memory
  EXPECT_EQ(r["plan"].get<std::string>().rfind("incremental: ", 0), 0u)
      << r.dump();
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
  // Rounds writing a few pieces each (copies and direct stores), the rest
  // carried over from the memory rewritten before.
  for (int round = 0; round < 3; ++round) {
    CopyWrite(round, 2 * kPiece, kPiece, 0x60 + round);
    KernelWrite(kBuffers - 1 - round, 7 * kPiece + round, 0x70 + round);
    ASSERT_ACL_OK(Lock());
    ASSERT_ACL_OK(Backup());
    r = Report();
    EXPECT_EQ(r["bytes_copied"], 2 * kPiece) << r.dump();
    EXPECT_EQ(r["bytes_in_place"], 2 * kPiece) << r.dump();
    EXPECT_EQ(r["host_bytes"], first["host_bytes"]);
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(Restore());
    ASSERT_ACL_OK(Unlock());
    ExpectContents();
  }
}

// An image a Restore came from is still held until the next Backup
// replaces it: that Backup does not rewrite it, and copies into new memory.
TEST_F(IncrementalTest, AnImageStillHeldIsNotRewritten) {
  if (!FirstBackup()) GTEST_SKIP();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  KernelWrite(3, 11, 0x99);
  ASSERT_ACL_OK(Backup());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental") << r.dump();
  EXPECT_EQ(r["bytes_copied"], kPiece);
  EXPECT_EQ(r["bytes_in_place"], 0u) << r.dump();
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

// A Backup rewriting in place fails part way (some pieces rewritten, one
// copy failed): the writes since the last capture all stay counted, so the
// next Backup is incremental again and copies them, and what it carries
// over was never touched.
TEST_F(IncrementalTest, AFailedRewriteInPlaceLeavesTheNextBackupWhole) {
  if (!FirstBackup()) GTEST_SKIP();
  for (int b = 0; b < kBuffers; b += 2) CopyWrite(b, 0, kMiB / 2, 0xA0 + b);
  KernelWrite(1, kMiB - 1, 0x3D);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  EXPECT_EQ(Backup(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  ASSERT_ACL_OK(Backup());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental") << r.dump();
  EXPECT_EQ(r["bytes_copied"], kBuffers / 2 * (kMiB / 2) + kPiece);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  ExpectContents();
}

}  // namespace

namespace {

// Many small allocations (below 64 KiB each, next to each other): a Backup
// with nothing written since the last Restore copies nothing and keeps
// every byte; after one is written, one made and one freed, the next
// Backup sees each change (the unchanged capture is not reused then).
TEST(SmallAllocationsTest, NothingWrittenThenEachKindOfChange) {
  constexpr int kCount = 2000;
  constexpr uint64_t kSize = 10737;
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<void*> device(kCount, nullptr);
  std::vector<std::vector<uint8_t>> expected(kCount);
  for (int i = 0; i < kCount; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&device[i], kSize, ACL_MEM_MALLOC_HUGE_FIRST));
    expected[i].assign(kSize, static_cast<uint8_t>(i * 3 + 1));
    ASSERT_ACL_OK(aclrtMemcpy(device[i], kSize, expected[i].data(), kSize,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  auto check = [&] {
    std::vector<uint8_t> got(kSize);
    for (int i = 0; i < kCount; ++i) {
      if (device[i] == nullptr) continue;
      ASSERT_ACL_OK(aclrtMemcpy(got.data(), kSize, device[i], kSize,
                                ACL_MEMCPY_DEVICE_TO_HOST));
      ASSERT_TRUE(got == expected[i]) << "allocation " << i;
    }
  };
  auto lose_and_restore = [&] {
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(Restore());
  };
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  if (Report()["write_tracking"] == "none") {
    ASSERT_ACL_OK(Unlock());
    GTEST_SKIP() << "no write tracking here";
  }
  lose_and_restore();
  // Nothing written since the Restore, twice in a row.
  for (int round = 0; round < 2; ++round) {
    ASSERT_ACL_OK(Backup());
    const nlohmann::json r = Report();
    EXPECT_EQ(r["mode"], "incremental") << r.dump();
    EXPECT_EQ(r["bytes_copied"], 0u) << r.dump();
    lose_and_restore();
  }
  ASSERT_ACL_OK(Unlock());
  check();

  // One allocation written: its piece is copied (and its neighbour's,
  // when the written page holds part of it too).
  std::memset(static_cast<uint8_t*>(device[7]) + 100, 0xAB, 10);
  std::memset(expected[7].data() + 100, 0xAB, 10);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  EXPECT_GE(Report()["bytes_copied"].get<uint64_t>(), kSize);
  EXPECT_LE(Report()["bytes_copied"].get<uint64_t>(), 2 * kSize);
  lose_and_restore();
  // Nothing written again, then one allocation made (never written: it
  // reads as zero) and one freed, with nothing else written.
  ASSERT_ACL_OK(Backup());
  EXPECT_EQ(Report()["bytes_copied"], 0u);
  ASSERT_ACL_OK(Unlock());
  void* extra = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&extra, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> extra_bytes(kSize, 0x5C);
  ASSERT_ACL_OK(aclrtMemcpy(extra, kSize, extra_bytes.data(), kSize,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtFree(device[11]));
  device[11] = nullptr;
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const nlohmann::json r = Report();
  EXPECT_EQ(r["mode"], "incremental") << r.dump();
  // The new allocation, and neighbours of the made and the freed one whose
  // pages they share (the tracking errs towards more, page by page).
  EXPECT_GE(r["bytes_copied"].get<uint64_t>(), kSize) << r.dump();
  EXPECT_LE(r["bytes_copied"].get<uint64_t>(), 4 * kSize) << r.dump();
  lose_and_restore();
  ASSERT_ACL_OK(Unlock());
  check();
  std::vector<uint8_t> got(kSize);
  ASSERT_ACL_OK(
      aclrtMemcpy(got.data(), kSize, extra, kSize, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(got == extra_bytes);
  ASSERT_ACL_OK(aclrtFree(extra));
  for (void* p : device) {
    if (p != nullptr) {
      EXPECT_ACL_OK(aclrtFree(p));
    }
  }
  EXPECT_ACL_OK(aclrtResetDevice(0));
  EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
