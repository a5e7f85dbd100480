// A refused Restore changes nothing, on any device (DESIGN.md §4.9, §4.10,
// §4.15; a failed Restore is checked before any device is touched), through
// the C API as a program would use it: whatever is damaged in an image on
// disk (data in the middle of a file, its header, its piece table, a file
// truncated or missing), with or without a memory loss, on one device or
// two, after a full or an incremental Backup, and whichever Restore runs
// (full after a loss, incremental without one; this suite also runs with
// ASCENDCL_SNAPSHOT_INCREMENTAL=0). The application's own contents, written
// by direct stores after the Backup, must still be there after the refusal;
// after a memory loss, the device must still read as zero. A transfer that
// goes wrong while Restore copies (a one-time copy fault, in host memory or
// on disk) is copied again from the verified image, so it fails nothing.
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

nlohmann::json Report() {
  size_t needed = 0;
  (void)ascendclSnapshotGetReport(nullptr, 0, &needed);
  std::string json(needed, '\0');
  EXPECT_EQ(ascendclSnapshotGetReport(json.data(), json.size(), &needed),
            ACL_SUCCESS);
  json.resize(needed - 1);
  return nlohmann::json::parse(json);
}

std::string MakeTempDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/refused-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

uint64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// The image files of `image_dir` (device `device`'s only, when >= 0).
std::vector<std::string> ImageFiles(const std::string& image_dir,
                                    int32_t device = -1) {
  std::vector<std::string> files;
  const std::string prefix =
      device >= 0 ? "dev" + std::to_string(device) + "-" : "dev";
  if (DIR* d = opendir(image_dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind(prefix, 0) == 0 && name.size() > 4 &&
          name.compare(name.size() - 4, 4, ".img") == 0) {
        files.push_back(image_dir + "/" + name);
      }
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Largest(const std::vector<std::string>& files) {
  std::string best;
  for (const std::string& f : files) {
    if (best.empty() || FileSize(f) > FileSize(best)) best = f;
  }
  return best;
}

void FlipByte(const std::string& file, uint64_t at) {
  const int fd = open(file.c_str(), O_RDWR);
  ASSERT_GE(fd, 0) << file;
  uint8_t byte = 0;
  ASSERT_EQ(pread(fd, &byte, 1, static_cast<off_t>(at)), 1);
  byte ^= 0x40;
  ASSERT_EQ(pwrite(fd, &byte, 1, static_cast<off_t>(at)), 1);
  close(fd);
}

// Whether every byte of [p, p + size) is `value`.
bool AllEqual(const void* p, size_t size, uint8_t value) {
  const std::vector<uint8_t> block(std::min<size_t>(size, kMiB), value);
  const auto* bytes = static_cast<const uint8_t*>(p);
  for (size_t at = 0; at < size; at += block.size()) {
    const size_t n = std::min(block.size(), size - at);
    if (std::memcmp(bytes + at, block.data(), n) != 0) return false;
  }
  return true;
}

// One allocation: the byte Backup saw in it, and the byte it holds now.
struct Allocation {
  int32_t device = 0;
  void* ptr = nullptr;
  size_t size = 0;
  uint8_t saved = 0;
  uint8_t now = 0;
};

class RefusedRestoreTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    for (const Allocation& a : allocations_) {
      EXPECT_ACL_OK(aclrtSetDevice(a.device));
      EXPECT_ACL_OK(aclrtFree(a.ptr));
    }
    for (int32_t d = 0; d < devices_; ++d) (void)aclrtResetDeviceForce(d);
    if (initialized_) {
      EXPECT_ACL_OK(aclFinalize());
    }
    unsetenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
    unsetenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB");
    if (!dir_.empty()) {
      // aclFinalize removed the image; nothing else is left.
      EXPECT_EQ(rmdir(dir_.c_str()), 0) << dir_ << " is not empty";
    }
  }

  // aclInit with the image on disk (host_buffer_mb as given) or, with
  // `on_disk` false, in host memory; opens `devices` devices.
  void Start(bool on_disk, int devices, int host_buffer_mb = 16) {
    if (on_disk) {
      dir_ = MakeTempDir();
      setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_.c_str(), 1);
      setenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB",
             std::to_string(host_buffer_mb).c_str(), 1);
    }
    ASSERT_ACL_OK(aclInit(nullptr));
    initialized_ = true;
    devices_ = devices;
    for (int32_t d = 0; d < devices; ++d) ASSERT_ACL_OK(aclrtSetDevice(d));
  }

  // An allocation of `size` bytes on `device`, every byte `value` (through
  // the API, as a program fills its memory).
  void Add(int32_t device, size_t size, uint8_t value) {
    Allocation a;
    a.device = device;
    a.size = size;
    a.saved = a.now = value;
    ASSERT_ACL_OK(aclrtSetDevice(device));
    ASSERT_ACL_OK(aclrtMalloc(&a.ptr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(a.ptr, size, value, size));
    allocations_.push_back(a);
  }

  // The allocations of a program that frees and allocates again and keeps
  // many small allocations: sizes below and above 64 KiB, one made again
  // after a free, on every open device.
  void AddMixed() {
    uint8_t value = 0x21;
    for (int32_t d = 0; d < devices_; ++d) {
      void* gone = nullptr;
      ASSERT_ACL_OK(aclrtSetDevice(d));
      ASSERT_ACL_OK(aclrtMalloc(&gone, 2 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST));
      ASSERT_ACL_OK(aclrtMemset(gone, 2 * kMiB, 0x7E, 2 * kMiB));
      ASSERT_ACL_OK(aclrtFree(gone));
      for (size_t size : {size_t{3} * kMiB, size_t{2} * kMiB, 4 * kKiB,
                          size_t{10737}, 60 * kKiB, kMiB + 7}) {
        Add(d, size, value++);
      }
    }
  }

  // The application writes every byte again, by direct stores (device
  // memory is host-addressable on the simulator; this works in any state).
  void OverwriteDirect() {
    for (Allocation& a : allocations_) {
      a.now = static_cast<uint8_t>(a.saved ^ 0xA5);
      std::memset(a.ptr, a.now, a.size);
    }
  }

  void LoseMemory() {
    for (int32_t d = 0; d < devices_; ++d) {
      ASSERT_ACL_OK(aclsimInjectFault(d, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    }
    for (Allocation& a : allocations_) a.now = 0;
  }

  // Every allocation holds what the application last held (non-fatal).
  void ExpectUnchanged(const std::string& when) {
    for (const Allocation& a : allocations_) {
      EXPECT_TRUE(AllEqual(a.ptr, a.size, a.now))
          << when << ": device " << a.device << " allocation of " << a.size
          << " bytes no longer holds 0x" << std::hex << int{a.now}
          << " only (the image held 0x" << int{a.saved} << ")";
    }
  }
  void ExpectSaved(const std::string& when) {
    for (const Allocation& a : allocations_) {
      EXPECT_TRUE(AllEqual(a.ptr, a.size, a.saved))
          << when << ": device " << a.device << " allocation of " << a.size
          << " bytes does not hold the image's 0x" << std::hex << int{a.saved};
    }
  }

  std::string LockAndBackup() {
    EXPECT_ACL_OK(Lock());
    EXPECT_ACL_OK(Backup());
    return Report().value("image_dir", "");
  }

  std::string dir_;
  int devices_ = 0;
  bool initialized_ = false;
  std::vector<Allocation> allocations_;
};

// The case as it was reported: 256 MiB in 32 allocations, host_buffer_mb 16,
// every page overwritten by the application, one byte flipped in the middle
// of the largest image file. (Under the sanitizers, 64 MiB: the same shape,
// within the suite's time.)
TEST_F(RefusedRestoreTest, AFlippedByteOnDiskChangesNoDeviceMemory) {
  Start(/*on_disk=*/true, /*devices=*/1, /*host_buffer_mb=*/16);
  const size_t each = (kSanitized ? 2 : 8) * kMiB;
  for (int i = 0; i < 32; ++i) Add(0, each, static_cast<uint8_t>(0x10 + i));
  const std::string image_dir = LockAndBackup();
  ASSERT_FALSE(image_dir.empty());
  OverwriteDirect();
  const std::string file = Largest(ImageFiles(image_dir));
  ASSERT_FALSE(file.empty());
  FlipByte(file, FileSize(file) / 2);
  EXPECT_EQ(Restore(), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_BACKED_UP);
  ExpectUnchanged("after the refused Restore");
  // Refused again (the damage is in the image), still changing nothing.
  EXPECT_EQ(Restore(), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  ExpectUnchanged("after the second refused Restore");
  ASSERT_ACL_OK(Unlock());
  ExpectUnchanged("after Unlock");
}

// --- Every kind of damage, with and without a memory loss, on one device
// and on two.

struct DamageCase {
  const char* name;
  // Damages one file of the image.
  std::function<void(const std::string& file)> act;
};

const DamageCase kDamages[] = {
    {"DataInTheMiddle",
     [](const std::string& f) { FlipByte(f, FileSize(f) / 2); }},
    {"DataAtTheEnd",
     [](const std::string& f) {
       // The last data byte lies before the piece table; a byte well into
       // the last quarter of the file is data for these images.
       FlipByte(f, FileSize(f) * 3 / 4);
     }},
    {"Header", [](const std::string& f) { FlipByte(f, 40); }},
    {"PieceTable", [](const std::string& f) { FlipByte(f, FileSize(f) - 20); }},
    {"Truncated",
     [](const std::string& f) {
       ASSERT_EQ(truncate(f.c_str(), static_cast<off_t>(FileSize(f) / 2)), 0);
     }},
    {"Missing", [](const std::string& f) { ASSERT_EQ(unlink(f.c_str()), 0); }},
};

struct Case {
  DamageCase damage;
  bool loss;
  int devices;
  bool incremental_image;  // a second Backup, so the image spans two files
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  return std::string(c.damage.name) + (c.loss ? "_AfterALoss" : "_NoLoss") +
         "_" + std::to_string(c.devices) + "Devices" +
         (c.incremental_image ? "_TwoBackups" : "");
}

class DamagedImageTest : public RefusedRestoreTest,
                         public ::testing::WithParamInterface<Case> {};

TEST_P(DamagedImageTest, IsRefusedBeforeAnyDeviceIsTouched) {
  const Case& c = GetParam();
  Start(/*on_disk=*/true, c.devices, /*host_buffer_mb=*/2);
  AddMixed();
  std::string image_dir = LockAndBackup();
  if (c.incremental_image) {
    // The small allocations written after the first Backup: the second
    // copies them into a file of its own and (incremental mode) refers to
    // the first for the rest.
    ASSERT_ACL_OK(Unlock());
    for (Allocation& a : allocations_) {
      if (a.size >= kMiB) continue;
      a.saved = a.now = static_cast<uint8_t>(a.saved + 1);
      ASSERT_ACL_OK(aclrtSetDevice(a.device));
      ASSERT_ACL_OK(aclrtMemset(a.ptr, a.size, a.saved, a.size));
    }
    image_dir = LockAndBackup();
  }
  ASSERT_FALSE(image_dir.empty());
  OverwriteDirect();
  if (c.loss) LoseMemory();
  // The last device's largest file: with two devices, device 0's memory
  // would be restored first if the damage were found only on the way.
  const std::string file = Largest(ImageFiles(image_dir, c.devices - 1));
  ASSERT_FALSE(file.empty());
  c.damage.act(file);
  EXPECT_EQ(Restore(), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_BACKED_UP);
  ExpectUnchanged("after the refused Restore");
  ASSERT_ACL_OK(Unlock());
  ExpectUnchanged("after Unlock");
  // The devices lost their memory and no Restore brought it back: they are
  // abnormal (no Backup) until reset.
  if (c.loss) return;
  // A new Backup of what the devices hold now restores every byte.
  for (Allocation& a : allocations_) a.saved = a.now;
  LockAndBackup();
  // A damaged image is no base (the other device's image, undamaged, may
  // still be one).
  if (c.devices == 1) {
    EXPECT_EQ(Report()["mode"], "full");
  }
  LoseMemory();
  ASSERT_ACL_OK(Restore());
  ExpectSaved("after the Restore of the new Backup");
  ASSERT_ACL_OK(Unlock());
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const DamageCase& damage : kDamages) {
    for (bool loss : {false, true}) {
      for (int devices : {1, 2}) {
        cases.push_back(Case{damage, loss, devices, false});
      }
    }
    cases.push_back(Case{damage, false, 1, true});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Damages, DamagedImageTest,
                         ::testing::ValuesIn(AllCases()), CaseName);

// --- A copy that goes wrong while Restore copies: the image is good, the
// transfer is copied again, nothing fails.

struct TransferCase {
  bool on_disk;
  aclsimFault fault;
  bool loss;
};

std::string TransferName(const ::testing::TestParamInfo<TransferCase>& info) {
  const TransferCase& c = info.param;
  return std::string(c.on_disk ? "OnDisk" : "InHostMemory") +
         (c.fault == ACLSIM_FAULT_NEXT_COPY_CORRUPTS ? "_CopyCorrupts"
                                                     : "_CopyFails") +
         (c.loss ? "_AfterALoss" : "_NoLoss");
}

class TransferFaultTest : public RefusedRestoreTest,
                          public ::testing::WithParamInterface<TransferCase> {};

TEST_P(TransferFaultTest, IsCopiedAgainAndRestoresEveryByte) {
  const TransferCase& c = GetParam();
  Start(c.on_disk, /*devices=*/2, /*host_buffer_mb=*/2);
  AddMixed();
  LockAndBackup();
  OverwriteDirect();
  if (c.loss) LoseMemory();
  // On the second device: the first device's memory is restored before a
  // fault there shows.
  ASSERT_ACL_OK(aclsimInjectFault(1, c.fault));
  const aclError restored = Restore();
  if (restored != ACL_SUCCESS) {
    // Were a Restore to fail here, it would have to change nothing.
    ExpectUnchanged("after a failed Restore");
  }
  ASSERT_ACL_OK(restored);
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  ExpectSaved("after the Restore");
  ASSERT_ACL_OK(Unlock());
  // The fault was spent by the Restore: the next copy is a clean one.
  std::vector<uint8_t> back(allocations_.back().size);
  ASSERT_ACL_OK(aclrtSetDevice(allocations_.back().device));
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), allocations_.back().ptr,
                            back.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(AllEqual(back.data(), back.size(), allocations_.back().saved));
}

INSTANTIATE_TEST_SUITE_P(
    Faults, TransferFaultTest,
    ::testing::Values(
        TransferCase{false, ACLSIM_FAULT_NEXT_COPY_CORRUPTS, false},
        TransferCase{false, ACLSIM_FAULT_NEXT_COPY_CORRUPTS, true},
        TransferCase{false, ACLSIM_FAULT_NEXT_COPY_FAILS, false},
        TransferCase{false, ACLSIM_FAULT_NEXT_COPY_FAILS, true},
        TransferCase{true, ACLSIM_FAULT_NEXT_COPY_CORRUPTS, false},
        TransferCase{true, ACLSIM_FAULT_NEXT_COPY_CORRUPTS, true},
        TransferCase{true, ACLSIM_FAULT_NEXT_COPY_FAILS, false},
        TransferCase{true, ACLSIM_FAULT_NEXT_COPY_FAILS, true}),
    TransferName);

}  // namespace
