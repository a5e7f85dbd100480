// A snapshot image on disk (DESIGN.md §4.15), through the C API: Backup
// streams device memory into files under the configured image directory,
// Restore reads it back and verifies it, damaged or stale files are refused
// with 507909 changing nothing, write errors fail the Backup with 507908
// leaving no partial file, and the image goes with aclFinalize, with a
// normal exit, and (after a crash) with the next process's aclInit.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "device/checksum.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "runtime/rt_snapshot.h"
#include "snapshot/image_file.h"
#include "snapshot/image_format.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::snapshot::internal::ImageHeader;
using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::ProcessState;
using ascend::testing::Restore;
using ascend::testing::Unlock;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = kKiB * kKiB;
constexpr uint64_t kPiece = 64 * kKiB;
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

std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The image files (not the manifest) in `dir`.
std::vector<std::string> Images(const std::string& dir) {
  std::vector<std::string> names;
  for (const std::string& name : List(dir)) {
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".img") == 0) {
      names.push_back(name);
    }
  }
  return names;
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string MakeTempDir(const char* what) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/" + what + "-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

class DiskImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("images");
    setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_.c_str(), 1);
    // A small staging pool: the bound is exercised with 8 MiB of data.
    setenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "2", 1);
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    expected_.assign(kBuffers, std::vector<uint8_t>(kMiB));
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMalloc(&buffers_[b], kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
      for (uint64_t i = 0; i < kMiB; ++i) {
        expected_[b][i] = static_cast<uint8_t>(i * 7 + b * 31);
      }
      ASSERT_ACL_OK(aclrtMemcpy(buffers_[b], kMiB, expected_[b].data(), kMiB,
                                ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  void TearDown() override {
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) (void)Unlock();
    for (void* p : buffers_) EXPECT_ACL_OK(aclrtFree(p));
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
    unsetenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
    unsetenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB");
    // aclFinalize left nothing behind.
    EXPECT_EQ(List(dir_), std::vector<std::string>{});
    rmdir(dir_.c_str());
  }

  void Write(int b, uint64_t offset, uint64_t size, uint8_t value) {
    std::vector<uint8_t> bytes(size, value);
    ASSERT_ACL_OK(aclrtMemcpy(static_cast<uint8_t*>(buffers_[b]) + offset, size,
                              bytes.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    std::memset(expected_[b].data() + offset, value, size);
  }
  void ExpectAllBack() {
    std::vector<uint8_t> got(kMiB);
    for (int b = 0; b < kBuffers; ++b) {
      ASSERT_ACL_OK(aclrtMemcpy(got.data(), kMiB, buffers_[b], kMiB,
                                ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(got, expected_[b]) << "buffer " << b;
    }
  }
  // Lock, Backup; the report's image directory.
  std::string LockAndBackup() {
    EXPECT_ACL_OK(Lock());
    EXPECT_ACL_OK(Backup());
    report_ = Report();
    return report_.value("image_dir", "");
  }
  void LoseRestoreUnlockAndCheck() {
    ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_ACL_OK(Restore());
    ASSERT_ACL_OK(Unlock());
    ExpectAllBack();
  }
  std::vector<std::string> ImageFiles(const std::string& image_dir) {
    std::vector<std::string> files;
    for (const std::string& name : Images(image_dir)) {
      files.push_back(image_dir + "/" + name);
    }
    return files;
  }

  std::string dir_;
  void* buffers_[kBuffers] = {};
  std::vector<std::vector<uint8_t>> expected_;
  nlohmann::json report_;
};

TEST_F(DiskImageTest, BackupGoesToDiskAndRestoreBringsEveryByteBack) {
  const std::string image_dir = LockAndBackup();
  // A subdirectory of the configured one, only its owner's.
  ASSERT_EQ(image_dir.rfind(dir_ + "/ascendcl-snapshot-", 0), 0u) << image_dir;
  struct stat st;
  ASSERT_EQ(stat(image_dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  const std::vector<std::string> files = Images(image_dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rfind("dev0-", 0), 0u);
  // The manifest names who wrote what.
  std::ifstream in(image_dir + "/image.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest["version"], 1);
  EXPECT_EQ(manifest["pid"], getpid());
  EXPECT_EQ(
      manifest["checksum"],
      absl::StrFormat("%016x", ascend::snapshot::ManifestChecksum(manifest)));
  ASSERT_EQ(manifest["devices"].size(), 1u);
  const nlohmann::json& device = manifest["devices"][0];
  EXPECT_EQ(device["files"][0]["name"], files[0]);
  EXPECT_EQ(device["files"][0]["data_bytes"], kBuffers * kMiB);
  ASSERT_EQ(device["allocations"].size(), 1u);
  EXPECT_EQ(device["allocations"][0]["kind"], "device");
  EXPECT_EQ(device["allocations"][0]["count"], kBuffers);
  EXPECT_EQ(device["allocations"][0]["bytes"], kBuffers * kMiB);
  EXPECT_EQ(report_["disk_bytes"], kBuffers * kMiB);
  // Device contents are on disk; host memory holds tables only.
  EXPECT_LT(report_["host_bytes"].get<uint64_t>(), kMiB);
  LoseRestoreUnlockAndCheck();
  EXPECT_EQ(Report()["operation"], "restore");
  EXPECT_EQ(Report()["image_dir"], image_dir);
}

TEST_F(DiskImageTest, AnIncrementalBackupWritesOnlyWhatChanged) {
  const std::string image_dir = LockAndBackup();
  const std::vector<std::string> first = Images(image_dir);
  ASSERT_ACL_OK(Unlock());
  Write(3, 5 * kPiece, kPiece, 0x5A);
  LockAndBackup();
  if (report_["write_tracking"] == "none") GTEST_SKIP() << "no write tracking";
  EXPECT_EQ(report_["mode"], "incremental");
  EXPECT_EQ(report_["bytes_copied"], kPiece);
  // The first file still holds the unchanged pieces; the new one, the
  // piece written.
  const std::vector<std::string> now = Images(image_dir);
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[0], first[0]);
  LoseRestoreUnlockAndCheck();
}

// Restore refuses every damaged, missing, replaced or stale file with
// 507909 before changing anything: the process stays BACKED_UP, Unlock
// works, and a new Backup (full: the damaged image is no base) restores
// every byte.
struct Damage {
  const char* name;
  // Damages the image's newest file; `older`: a file of an earlier Backup
  // of the same device, if any.
  std::function<void(const std::string& file, const std::string& older)> act;
  bool needs_older = false;
};

void FlipByte(const std::string& file, off_t at) {
  const int fd = open(file.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  uint8_t byte = 0;
  ASSERT_EQ(pread(fd, &byte, 1, at), 1);
  byte ^= 0x40;
  ASSERT_EQ(pwrite(fd, &byte, 1, at), 1);
  close(fd);
}

// Rewrites the header's pid (a file of another process), checksum fixed.
void ForgeOtherProcess(const std::string& file) {
  const int fd = open(file.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ImageHeader h;
  ASSERT_EQ(pread(fd, &h, sizeof(h), 0), static_cast<ssize_t>(sizeof(h)));
  h.pid += 1;
  h.header_checksum =
      ascend::device::Checksum(&h, offsetof(ImageHeader, header_checksum));
  ASSERT_EQ(pwrite(fd, &h, sizeof(h), 0), static_cast<ssize_t>(sizeof(h)));
  close(fd);
}

const Damage kDamages[] = {
    {"truncated",
     [](const std::string& f, const std::string&) {
       struct stat st;
       ASSERT_EQ(stat(f.c_str(), &st), 0);
       ASSERT_EQ(truncate(f.c_str(), st.st_size - 100), 0);
     }},
    {"data_corrupted",
     [](const std::string& f, const std::string&) { FlipByte(f, 4096 + 777); }},
    {"header_corrupted",
     [](const std::string& f, const std::string&) { FlipByte(f, 40); }},
    {"piece_table_corrupted",
     [](const std::string& f, const std::string&) {
       struct stat st;
       ASSERT_EQ(stat(f.c_str(), &st), 0);
       FlipByte(f, st.st_size - 20);
     }},
    {"missing", [](const std::string& f,
                   const std::string&) { ASSERT_EQ(unlink(f.c_str()), 0); }},
    {"from_another_process",
     [](const std::string& f, const std::string&) { ForgeOtherProcess(f); }},
    {"from_an_earlier_backup",
     [](const std::string& f, const std::string& older) {
       std::ifstream in(older, std::ios::binary);
       std::ofstream out(f, std::ios::binary | std::ios::trunc);
       out << in.rdbuf();
     },
     true},
};

class DiskImageDamageTest : public DiskImageTest,
                            public ::testing::WithParamInterface<Damage> {};

TEST_P(DiskImageDamageTest, IsRefusedAndChangesNothing) {
  const Damage& damage = GetParam();
  std::string older;
  if (damage.needs_older) {
    // An earlier Backup's file, kept (copied) before the next replaces it.
    const std::string image_dir = LockAndBackup();
    const std::vector<std::string> files = ImageFiles(image_dir);
    ASSERT_EQ(files.size(), 1u);
    older = dir_ + "/older.img";
    std::ifstream in(files[0], std::ios::binary);
    std::ofstream out(older, std::ios::binary);
    out << in.rdbuf();
    ASSERT_ACL_OK(Unlock());
    // The next Backup full, in a file of its own.
    setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "0", 1);
  }
  const std::string image_dir = LockAndBackup();
  std::vector<std::string> files = ImageFiles(image_dir);
  ASSERT_FALSE(files.empty());
  unsetenv("ASCENDCL_SNAPSHOT_INCREMENTAL");
  damage.act(files.back(), older);
  if (!older.empty()) unlink(older.c_str());
  // The first piece of the first buffer written since the Backup, so that
  // even an incremental Restore reads it (and with it the damaged data).
  std::memset(buffers_[0], 0x11, kPiece);
  EXPECT_EQ(Restore(), ACL_ERROR_SNAPSHOT_RESTORE_FAILED) << damage.name;
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_BACKED_UP);
  ASSERT_ACL_OK(Unlock());
  ASSERT_ACL_OK(aclrtMemcpy(buffers_[0], kMiB, expected_[0].data(), kMiB,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  LockAndBackup();
  EXPECT_EQ(report_["mode"], "full");
  LoseRestoreUnlockAndCheck();
}

INSTANTIATE_TEST_SUITE_P(Damages, DiskImageDamageTest,
                         ::testing::ValuesIn(kDamages),
                         [](const ::testing::TestParamInfo<Damage>& info) {
                           return std::string(info.param.name);
                         });

// A write error (here the file-size limit) fails the Backup with 507908,
// leaves no file of it, and keeps the files there were before it (the last
// capture's, which the next incremental Backup builds on; a full-mode
// process releases its backup at Unlock, DESIGN.md §4.11): the next Backup
// after the limit is lifted works, incrementally where tracking runs.
TEST_F(DiskImageTest, AWriteErrorFailsTheBackupAndLeavesNoPartialFile) {
  const std::string image_dir = LockAndBackup();
  ASSERT_ACL_OK(Unlock());
  const std::vector<std::string> first = List(image_dir);
  void* big = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&big, 4 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> bytes(4 * kMiB, 0xEE);
  ASSERT_ACL_OK(aclrtMemcpy(big, bytes.size(), bytes.data(), bytes.size(),
                            ACL_MEMCPY_HOST_TO_DEVICE));
  // A process that sets a file-size limit ignores SIGXFSZ, so that writes
  // past it fail with EFBIG instead of ending the process.
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_action = {};
  ASSERT_EQ(sigaction(SIGXFSZ, &ignore, &old_action), 0);
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct rlimit limit = old_limit;
  limit.rlim_cur = kMiB;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
  ASSERT_ACL_OK(Lock());
  EXPECT_EQ(Backup(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
  ASSERT_EQ(sigaction(SIGXFSZ, &old_action, nullptr), 0);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  EXPECT_EQ(List(image_dir), first);  // no partial file, the old one kept
  ASSERT_ACL_OK(Backup());
  if (Report()["mode"] == "incremental") {
    EXPECT_EQ(Report()["bytes_copied"], 4 * kMiB);
  } else {
    EXPECT_EQ(Report()["bytes_unchanged"], 0);
    EXPECT_GE(Report()["bytes_copied"], 4 * kMiB);
  }
  LoseRestoreUnlockAndCheck();
  std::vector<uint8_t> got(4 * kMiB);
  ASSERT_ACL_OK(aclrtMemcpy(got.data(), got.size(), big, got.size(),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, bytes);
  ASSERT_ACL_OK(aclrtFree(big));
}

// A full file system (a 6 MiB tmpfs mounted over the image directory, for
// 8 MiB of device memory) fails the Backup with 507908 and leaves nothing;
// once there is room, the next Backup works. Skipped where this process
// may not mount one (the file-size limit case above covers write errors
// there).
TEST_F(DiskImageTest, AFullFileSystemFailsTheBackupAndLeavesNothing) {
  if (mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=6m,mode=0700") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here: " << std::strerror(errno);
  }
  ASSERT_ACL_OK(Lock());
  EXPECT_EQ(Backup(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  // Only the (empty) image subdirectory is there: no partial file.
  for (const std::string& name : List(dir_)) {
    EXPECT_EQ(List(dir_ + "/" + name), std::vector<std::string>{}) << name;
  }
  ASSERT_ACL_OK(Unlock());
  ASSERT_EQ(umount2(dir_.c_str(), MNT_DETACH), 0);
  LockAndBackup();
  EXPECT_EQ(report_["disk_bytes"], kBuffers * kMiB);
  LoseRestoreUnlockAndCheck();
}

// The snapshot state outlives aclFinalize: a backed-up process's image
// stays for its Restore.
TEST_F(DiskImageTest, ABackedUpProcessKeepsItsImageThroughAclFinalize) {
  const std::string image_dir = LockAndBackup();
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_TRUE(Exists(image_dir));
  ASSERT_ACL_OK(aclInit(nullptr));
  LoseRestoreUnlockAndCheck();
}

TEST_F(DiskImageTest, AclFinalizeRemovesTheImage) {
  const std::string image_dir = LockAndBackup();
  ASSERT_ACL_OK(Unlock());
  ASSERT_TRUE(Exists(image_dir));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_FALSE(Exists(image_dir));
  ASSERT_ACL_OK(aclInit(nullptr));  // for TearDown
}

}  // namespace
