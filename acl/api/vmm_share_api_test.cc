// Sharing device memory between processes through the ACL C API (DESIGN.md
// §5.18): shareable handles of physical memory and IPC memory keys, with and
// without a pid whitelist, both directions of data, a dying importer, a dead
// exporter, and what a snapshot does while memory is shared. The other
// process is vmm_share_peer (its path is the first argument).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

std::string g_peer;

constexpr size_t kTwoMiB = size_t{2} << 20;

// One run of the peer with a "go" pipe (it waits before importing) and a
// "hold" pipe (it waits before letting go).
class Peer {
 public:
  Peer(const std::string& mode, const std::string& what, size_t size,
       int expect, int write) {
    EXPECT_EQ(pipe2(go_, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(hold_, O_CLOEXEC), 0);
    const std::string size_text = std::to_string(size);
    const std::string expect_text = std::to_string(expect);
    const std::string write_text = std::to_string(write);
    pid_ = fork();
    if (pid_ == 0) {
      // Only async-signal-safe calls until exec. The pipes may already sit
      // at 10 or 11: move them above first, so that neither dup2 overwrites
      // the other's source (nor is a no-op that keeps close-on-exec).
      const int go = fcntl(go_[0], F_DUPFD, 20);
      const int hold = fcntl(hold_[0], F_DUPFD, 20);
      if (go < 0 || hold < 0 || dup2(go, 10) < 0 || dup2(hold, 11) < 0) {
        _exit(126);
      }
      execl(g_peer.c_str(), g_peer.c_str(), mode.c_str(), what.c_str(),
            size_text.c_str(), expect_text.c_str(), write_text.c_str(), "10",
            "11", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(go_[0]);
    close(hold_[0]);
  }
  ~Peer() {
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      Wait();
    }
    close(go_[1]);
    close(hold_[1]);
  }

  pid_t pid() const { return pid_; }
  void Go() { EXPECT_EQ(write(go_[1], "g", 1), 1); }
  void LetGo() { EXPECT_EQ(write(hold_[1], "h", 1), 1); }
  // The peer's exit code (-1: killed).
  int Wait() {
    int status = 0;
    EXPECT_EQ(waitpid(pid_, &status, 0), pid_);
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void Kill() { kill(pid_, SIGKILL); }

 private:
  int go_[2] = {-1, -1};
  int hold_[2] = {-1, -1};
  pid_t pid_ = -1;
  bool waited_ = false;
};

aclrtPhysicalMemProp DeviceProp() {
  aclrtPhysicalMemProp prop{};
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  return prop;
}

class VmmShareTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  // Physical memory filled with `value`, mapped at *va.
  aclrtDrvMemHandle MakePhysical(void** va, uint8_t value) {
    aclrtPhysicalMemProp prop = DeviceProp();
    aclrtDrvMemHandle handle = nullptr;
    EXPECT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
    EXPECT_ACL_OK(aclrtReserveMemAddress(va, kTwoMiB, 0, nullptr, 0));
    EXPECT_ACL_OK(aclrtMapMem(*va, kTwoMiB, 0, handle, 0));
    EXPECT_ACL_OK(aclrtMemset(*va, kTwoMiB, value, kTwoMiB));
    return handle;
  }

  static uint8_t ByteAt(const void* ptr) {
    uint8_t b = 0;
    EXPECT_ACL_OK(aclrtMemcpy(&b, 1, ptr, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    return b;
  }

  static void Unmap(void* va, aclrtDrvMemHandle handle) {
    EXPECT_ACL_OK(aclrtUnmapMem(va));
    EXPECT_ACL_OK(aclrtReleaseMemAddress(va));
    EXPECT_ACL_OK(aclrtFreePhysical(handle));
  }
};

TEST_F(VmmShareTest, BareTgidIsThisProcess) {
  int32_t pid = 0;
  ASSERT_ACL_OK(aclrtDeviceGetBareTgid(&pid));
  EXPECT_EQ(pid, getpid());
  EXPECT_EQ(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(VmmShareTest, PhysicalMemoryWithAWhitelist) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0x11);
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT,
      &shareable));
  // One shareable handle per allocation.
  uint64_t again = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0,
                                            &again),
            ACL_ERROR_RT_PARAM_INVALID);
  // Not in this process.
  aclrtDrvMemHandle same = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(shareable, 0, &same),
            ACL_ERROR_RT_PARAM_INVALID);

  Peer peer("physical", std::to_string(shareable), kTwoMiB, 0x11, 0x22);
  int32_t pid = peer.pid();
  ASSERT_ACL_OK(aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  // The peer's writes are ours to read.
  EXPECT_EQ(ByteAt(va), 0x22);
  EXPECT_EQ(ByteAt(static_cast<char*>(va) + kTwoMiB - 1), 0x11);
  Unmap(va, handle);
}

TEST_F(VmmShareTest, PhysicalMemoryRefusesAProcessNotWhitelisted) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0x33);
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
  int32_t other = getpid();  // whitelisting ourselves admits nobody else
  ASSERT_ACL_OK(aclrtMemSetPidToShareableHandle(shareable, &other, 1));
  Peer peer("physical", std::to_string(shareable), kTwoMiB, 0x33, 0x44);
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 3);
  EXPECT_EQ(ByteAt(va), 0x33);
  Unmap(va, handle);
}

TEST_F(VmmShareTest, PhysicalMemoryWithoutPidValidation) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0x55);
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandleV2(
      handle, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
      ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &shareable));
  Peer peer("physical", std::to_string(shareable), kTwoMiB, 0x55, 0x66);
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  EXPECT_EQ(ByteAt(va), 0x66);
  aclrtMemFabricHandle fabric{};
  EXPECT_EQ(aclrtMemExportToShareableHandleV2(
                handle, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  Unmap(va, handle);
}

TEST_F(VmmShareTest, SharingArgumentsAreChecked) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0);
  uint64_t shareable = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 7,
                                            &shareable),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemExportToShareableHandle(
                handle, static_cast<aclrtMemHandleType>(9), 0, &shareable),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0,
                                            nullptr),
            ACL_ERROR_INVALID_PARAM);
  int32_t pid = 1;
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(12345, &pid, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemSetPidToShareableHandle(12345, nullptr, 1),
            ACL_ERROR_INVALID_PARAM);
  aclrtDrvMemHandle imported = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(0, 0, &imported),
            ACL_ERROR_RT_PARAM_INVALID);
  char key[65] = {};
  EXPECT_EQ(aclrtIpcMemGetExportKey(va, kTwoMiB, key, 10, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemGetExportKey(va, kTwoMiB, key, sizeof key, 5),
            ACL_ERROR_INVALID_PARAM);
  int host = 0;
  EXPECT_EQ(aclrtIpcMemGetExportKey(&host, 4, key, sizeof key, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemGetExportKey(va, 2 * kTwoMiB, key, sizeof key, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemSetImportPid("aclsim-ipc-1-1", &pid, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemClose("not a key"), ACL_ERROR_RT_PARAM_INVALID);
  void* ptr = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&ptr, "not a key", 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportPidInterServer("aclsim-ipc-1-1", nullptr, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  Unmap(va, handle);
}

TEST_F(VmmShareTest, IpcMemoryOfAPlainAllocation) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, 1 << 20, 0x7A, 1 << 20));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 1 << 20, key, sizeof key,
                                        ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
  ASSERT_ACL_OK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
                                   ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
  EXPECT_EQ(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 9),
            ACL_ERROR_INVALID_PARAM);
  Peer peer("ipc", key, 1 << 20, 0x7A, 0x7B);
  int32_t pid = peer.pid();
  ASSERT_ACL_OK(aclrtIpcMemSetImportPid(key, &pid, 1));
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  EXPECT_EQ(ByteAt(dev), 0x7B);
  EXPECT_EQ(ByteAt(static_cast<char*>(dev) + (1 << 20) - 1), 0x7A);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtFree(dev));
}

// A peer process writes exported memory through its own page tables, which
// this process's write tracking cannot see: the memory counts as written in
// every tracking period, so an incremental Backup copies it again (DESIGN.md
// §4.14). Were it carried over, the Restore after the loss would bring back
// 0x7A.
TEST_F(VmmShareTest, APeersWriteReachesTheIncrementalBackup) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, 1 << 20, 0x7A, 1 << 20));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 1 << 20, key, sizeof key,
                                        ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
  // The first Backup: full, and write tracking starts.
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  {
    Peer peer("ipc", key, 1 << 20, 0x7A, 0x7B);
    int32_t pid = peer.pid();
    ASSERT_ACL_OK(aclrtIpcMemSetImportPid(key, &pid, 1));
    peer.Go();
    peer.LetGo();
    ASSERT_EQ(peer.Wait(), 0);
  }
  ASSERT_EQ(ByteAt(dev), 0x7B);
  // The broker may not have seen the peer go yet: Backup refuses until it
  // has.
  aclError backup = ACL_ERROR_SNAPSHOT_BACKUP_FAILED;
  for (int i = 0; i < 1000 && backup != ACL_SUCCESS; ++i) {
    ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
    backup = aclrtSnapShotProcessBackup(getpid(), nullptr);
    if (backup != ACL_SUCCESS) {
      ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
      usleep(10000);
    }
  }
  ASSERT_ACL_OK(backup);
  char json[4096] = {};
  size_t needed = 0;
  ASSERT_ACL_OK(ascendclSnapshotGetReport(json, sizeof json, &needed));
  const bool tracked =
      std::strstr(json, "\"write_tracking\":\"none\"") == nullptr;
  if (tracked) {
    EXPECT_NE(std::strstr(json, "\"mode\":\"incremental\""), nullptr) << json;
  }
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_EQ(ByteAt(dev), 0x7B);
  EXPECT_EQ(ByteAt(static_cast<char*>(dev) + (1 << 20) - 1), 0x7A);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(VmmShareTest, IpcMemoryWithoutPidValidationAndUnaligned) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, 3 << 20, 0, 3 << 20));
  char* middle = static_cast<char*>(dev) + 1000;  // not page-aligned
  ASSERT_ACL_OK(aclrtMemset(middle, 5000, 0x19, 5000));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(
      middle, 5000, key, sizeof key,
      ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  Peer peer("ipc", key, 5000, 0x19, 0x1A);
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  EXPECT_EQ(ByteAt(middle), 0x1A);
  EXPECT_EQ(ByteAt(middle + 4999), 0x19);
  EXPECT_EQ(ByteAt(middle - 1), 0);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(VmmShareTest, IpcMemoryRefusesAProcessNotWhitelisted) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 4096, key, sizeof key, 0));
  Peer peer("ipc", key, 4096, 0, 1);
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 3);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
}

// A snapshot cannot save memory another process maps: Backup fails while the
// peer holds the import, and works once it let go (or died).
TEST_F(VmmShareTest, BackupRefusesMemoryAnotherProcessMaps) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0x42);
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE,
      ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &shareable));
  {
    Peer peer("physical", std::to_string(shareable), kTwoMiB, 0x42, 0x43);
    peer.Go();
    // Wait until the peer wrote (it imported by then).
    for (int i = 0; i < 3000 && ByteAt(va) != 0x43; ++i) usleep(10000);
    ASSERT_EQ(ByteAt(va), 0x43);
    ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
    EXPECT_EQ(aclrtSnapShotProcessBackup(getpid(), nullptr),
              ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
    ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
    peer.Kill();  // dies holding the import
    EXPECT_EQ(peer.Wait(), -1);
  }
  // The broker saw the connection close: nobody maps it any more.
  aclError backup = ACL_ERROR_SNAPSHOT_BACKUP_FAILED;
  for (int i = 0; i < 1000 && backup != ACL_SUCCESS; ++i) {
    ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
    backup = aclrtSnapShotProcessBackup(getpid(), nullptr);
    ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
    if (backup != ACL_SUCCESS) usleep(10000);
  }
  EXPECT_EQ(backup, ACL_SUCCESS);
  Unmap(va, handle);
}

// The exporter frees while the importer still maps: the memory stays until
// the importer lets go.
TEST_F(VmmShareTest, FreedExportStaysWhileImported) {
  void* va = nullptr;
  aclrtDrvMemHandle handle = MakePhysical(&va, 0x61);
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(
      handle, ACL_MEM_HANDLE_TYPE_NONE,
      ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &shareable));
  size_t free_before = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  Peer peer("physical", std::to_string(shareable), kTwoMiB, 0x61, 0x62);
  peer.Go();
  for (int i = 0; i < 3000 && ByteAt(va) != 0x62; ++i) usleep(10000);
  ASSERT_EQ(ByteAt(va), 0x62);
  Unmap(va, handle);
  size_t free_now = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
  EXPECT_EQ(free_now, free_before);  // still held for the peer
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  // The next VMM call frees what no process uses any more.
  aclrtDrvMemHandle other = nullptr;
  aclrtPhysicalMemProp prop = DeviceProp();
  for (int i = 0; i < 1000 && free_now != free_before + kTwoMiB; ++i) {
    ASSERT_ACL_OK(aclrtMallocPhysical(&other, kTwoMiB, &prop, 0));
    ASSERT_ACL_OK(aclrtFreePhysical(other));
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
    if (free_now != free_before + kTwoMiB) usleep(10000);
  }
  EXPECT_EQ(free_now, free_before + kTwoMiB);
}

// Memory another process imported stays with it when its owner closes the
// key, frees the memory and resets the device (CANN's IPC example order:
// the importer's kernels may still read it); the owner sees it freed at
// once, and the device gets it back when the importer lets go.
TEST_F(VmmShareTest, IpcMemoryFreedByItsOwnerStaysWithTheImporter) {
  constexpr size_t kSize = 1 << 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, kSize, 0x24, kSize));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(
      dev, kSize, key, sizeof key,
      ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  size_t free_before = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  Peer peer("ipc-keep", key, kSize, 0x24, 0x25);
  peer.Go();
  for (int i = 0; i < 3000 && ByteAt(dev) != 0x25; ++i) usleep(10000);
  ASSERT_EQ(ByteAt(dev), 0x25);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
  // Freed for this process: a second free is refused, no new import works,
  // and a backup refuses memory another process still holds.
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);
  size_t free_now = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
  EXPECT_EQ(free_now, free_before);  // still held for the peer
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  EXPECT_EQ(aclrtSnapShotProcessBackup(getpid(), nullptr),
            ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  // The owner's next allocations never share the importer's bytes.
  void* other = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&other, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_NE(other, dev);
  EXPECT_EQ(ByteAt(other), 0);
  ASSERT_ACL_OK(aclrtFree(other));
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  // The next allocation frees what no process uses any more.
  for (int i = 0; i < 1000 && free_now != free_before + kSize; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtFree(other));
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total));
    if (free_now != free_before + kSize) usleep(10000);
  }
  EXPECT_GE(free_now, free_before + kSize);
}

// The same after a device reset: the importer keeps the bytes.
TEST_F(VmmShareTest, IpcMemoryOutlivesItsOwnersDeviceReset) {
  constexpr size_t kSize = 1 << 20;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, kSize, 0x31, kSize));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(
      dev, kSize, key, sizeof key,
      ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  Peer peer("ipc-keep", key, kSize, 0x31, 0x32);
  peer.Go();
  for (int i = 0; i < 3000 && ByteAt(dev) != 0x32; ++i) usleep(10000);
  ASSERT_EQ(ByteAt(dev), 0x32);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  // The re-opened device starts from empty memory of its own.
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&again, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ByteAt(again), 0);
  ASSERT_ACL_OK(aclrtMemset(again, kSize, 0x77, kSize));
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 0);
  EXPECT_EQ(ByteAt(again), 0x77);
  ASSERT_ACL_OK(aclrtFree(again));
}

// A device reset takes the device's memory with it: its exports are
// withdrawn (no process can import them any more), and the key is still
// closed without error.
TEST_F(VmmShareTest, ResetWithdrawsTheDevicesExports) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(
      dev, 4096, key, sizeof key,
      ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  // The next VMM call notices the reset.
  aclrtPhysicalMemProp prop = DeviceProp();
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&handle, kTwoMiB, &prop, 0));
  ASSERT_ACL_OK(aclrtFreePhysical(handle));
  Peer peer("ipc", key, 4096, 0, 1);
  peer.Go();
  peer.LetGo();
  EXPECT_EQ(peer.Wait(), 4);
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmShareTest, ImportFromADeadProcessFails) {
  pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  const std::string key = "aclsim-ipc-" + std::to_string(child) + "-7";
  void* ptr = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&ptr, key.c_str(), 0),
            ACL_ERROR_RT_PARAM_INVALID);
  aclrtDrvMemHandle handle = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(
                (static_cast<uint64_t>(child) << 32) | 7, 0, &handle),
            ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <vmm_share_peer>\n", argv[0]);
    return 2;
  }
  g_peer = argv[1];
  // A peer that died early must fail its test, not kill this process when
  // the test writes to its pipe.
  signal(SIGPIPE, SIG_IGN);
  return RUN_ALL_TESTS();
}
