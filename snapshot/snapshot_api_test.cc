// The snapshot state machine through the public C API (ACL and RT layers):
// every cell of the reference's §2.5 table, every row of §2.7's stage table,
// the ACL parameter checks, the device fan-out of callbacks and re-entrant
// snapshot calls from inside callbacks.
//
// One process-wide state: every test starts and ends RUNNING with no device
// open and no callback registered (the fixture checks and restores that).
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"
#include "testing/sync_helpers.h"

namespace {

using ::ascend::testing::Event;
using ::ascend::testing::RunWithDeadline;

constexpr int kDevices = 8;  // the simulator's default

using ::ascend::testing::Backup;
using ::ascend::testing::Lock;
using ::ascend::testing::Restore;
using ::ascend::testing::State;
using ::ascend::testing::Unlock;

const char* StageName(int stage) {
  static const char* const kNames[] = {"LOCK_PRE",     "BACKUP_PRE",
                                       "BACKUP_POST",  "RESTORE_PRE",
                                       "RESTORE_POST", "UNLOCK_POST"};
  return stage >= 0 && stage < 6 ? kNames[stage] : "?";
}

// What the recording callbacks saw: "<stage>@<device>:<state>".
struct Recorder {
  std::mutex mu;
  std::vector<std::string> calls;
  // stage -> device on which the callback fails (-1 never).
  int fail_device[6] = {-1, -1, -1, -1, -1, -1};
  // Optional extra action run inside the callback.
  std::function<void(int stage, int32_t device)> action;

  void Clear() {
    std::lock_guard<std::mutex> lock(mu);
    calls.clear();
    for (int& d : fail_device) d = -1;
    action = nullptr;
  }
  std::string Take() {
    std::lock_guard<std::mutex> lock(mu);
    std::string joined = absl::StrJoin(calls, " ");
    calls.clear();
    return joined;
  }
};
Recorder g_recorder;

template <int kStage>
uint32_t RecordingCallback(int32_t device, void* args) {
  auto* r = static_cast<Recorder*>(args);
  rtProcessState state = RT_PROCESS_STATE_MAX;
  const rtError_t got = rtSnapShotProcessGetState(&state);
  std::function<void(int, int32_t)> action;
  int fail = -1;
  {
    std::lock_guard<std::mutex> lock(r->mu);
    r->calls.push_back(absl::StrCat(StageName(kStage), "@", device, ":",
                                    got == 0 ? static_cast<int>(state) : -1));
    action = r->action;
    fail = r->fail_device[kStage];
  }
  if (action) action(kStage, device);
  return device == fail ? 1u : 0u;
}

constexpr aclrtSnapShotCallBack kCallbacks[6] = {
    &RecordingCallback<0>, &RecordingCallback<1>, &RecordingCallback<2>,
    &RecordingCallback<3>, &RecordingCallback<4>, &RecordingCallback<5>};

class SnapshotApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(State(), RT_PROCESS_STATE_RUNNING)
        << "a previous test left the process locked";
    g_recorder.Clear();
  }

  void TearDown() override {
    for (int stage = 0; stage < 6; ++stage) {
      if (registered_[stage]) {
        EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(
            static_cast<aclrtSnapShotStage>(stage), kCallbacks[stage]));
      }
    }
    if (State() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    for (void* p : buffers_) EXPECT_ACL_OK(aclrtFree(p));
    for (int id = 0; id < kDevices; ++id) (void)aclrtResetDeviceForce(id);
    g_recorder.Clear();
  }

  void RegisterAll() {
    for (int stage = 0; stage < 6; ++stage) Register(stage);
  }
  void Register(int stage) {
    ASSERT_ACL_OK(
        aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(stage),
                                      kCallbacks[stage], &g_recorder));
    registered_[stage] = true;
  }
  void Unregister(int stage) {
    ASSERT_ACL_OK(aclrtSnapShotCallbackUnregister(
        static_cast<aclrtSnapShotStage>(stage), kCallbacks[stage]));
    registered_[stage] = false;
  }
  void FailOn(int stage, int32_t device) {
    std::lock_guard<std::mutex> lock(g_recorder.mu);
    g_recorder.fail_device[stage] = device;
  }

  // A device buffer of `size` bytes filled with `byte` (device 0 current).
  void* Buffer(size_t size, uint8_t byte) {
    void* p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint8_t> host(size, byte);
    EXPECT_ACL_OK(
        aclrtMemcpy(p, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    buffers_.push_back(p);
    return p;
  }

  // Device memory is host-addressable in the simulator: read it without an
  // API call (which would block while locked).
  static bool AllBytesAre(const void* device_ptr, size_t size, uint8_t byte) {
    const auto* p = static_cast<const uint8_t*>(device_ptr);
    for (size_t i = 0; i < size; ++i) {
      if (p[i] != byte) return false;
    }
    return true;
  }

  bool registered_[6] = {};
  std::vector<void*> buffers_;
};

// --- GetState ----------------------------------------------------------------

TEST_F(SnapshotApiTest, GetStateNullIsParamInvalid) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   rtSnapShotProcessGetState(nullptr));
}

TEST_F(SnapshotApiTest, GetStateReportsEveryState) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  ASSERT_ACL_OK(rtSnapShotProcessLock());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(rtSnapShotProcessBackup());
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
  ASSERT_ACL_OK(rtSnapShotProcessRestore());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(rtSnapShotProcessUnlock());
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  // The ACL enum's two values match the RT ones.
  EXPECT_EQ(static_cast<int>(ACL_RT_PROCESS_STATE_RUNNING),
            static_cast<int>(RT_PROCESS_STATE_RUNNING));
  EXPECT_EQ(static_cast<int>(ACL_RT_PROCESS_STATE_LOCKED),
            static_cast<int>(RT_PROCESS_STATE_LOCKED));
}

// --- ACL parameter checks (§2.4), before any state check
// ------------------------

TEST_F(SnapshotApiTest, WrongPidIsInvalidParamInEveryState) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  const int other = getpid() + 1;
  auto check_all = [&](int32_t expected_state) {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessLock(other, nullptr));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessLock(0, nullptr));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessLock(-1, nullptr));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessUnlock(other, nullptr));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessBackup(other, nullptr));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessRestore(other, nullptr));
    EXPECT_EQ(State(), expected_state);
    // No callback ran: the pid check precedes LOCK_PRE and the state check.
    EXPECT_EQ(g_recorder.Take(), "");
  };
  check_all(RT_PROCESS_STATE_RUNNING);
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  check_all(RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(Backup());
  g_recorder.Take();
  check_all(RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, NonNullReserveOrArgsIsInvalidParamInEveryState) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  int reserve = 0;
  aclrtSnapShotBackupArgs backup_args;
  std::memset(&backup_args, 0, sizeof(backup_args));
  aclrtSnapShotRestoreArgs restore_args;
  std::memset(&restore_args, 0, sizeof(restore_args));
  auto check_all = [&](int32_t expected_state) {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessLock(getpid(), &reserve));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessUnlock(getpid(), &reserve));
    // Even a zero-filled args struct is rejected.
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessBackup(getpid(), &backup_args));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessRestore(getpid(), &restore_args));
    // Both wrong.
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclrtSnapShotProcessLock(getpid() + 1, &reserve));
    EXPECT_EQ(State(), expected_state);
    EXPECT_EQ(g_recorder.Take(), "");
  };
  check_all(RT_PROCESS_STATE_RUNNING);
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  check_all(RT_PROCESS_STATE_LOCKED);
  ASSERT_ACL_OK(Backup());
  g_recorder.Take();
  check_all(RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, ArgsStructsAre64Bytes) {
  EXPECT_EQ(sizeof(aclrtSnapShotBackupArgs), 64u);
  EXPECT_EQ(sizeof(aclrtSnapShotRestoreArgs), 64u);
  EXPECT_EQ(sizeof(aclrtSnapShotStage), 4u);
}

// --- §2.5: Lock
// ------------------------------------------------------------------

TEST_F(SnapshotApiTest, LockFromRunning) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  EXPECT_ACL_OK(Lock());
  // LOCK_PRE runs while still RUNNING; no other stage runs.
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

TEST_F(SnapshotApiTest, LockFromLockedRunsLockPreThenFails) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_FAILED, Lock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:1");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_FAILED, rtSnapShotProcessLock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:1");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

TEST_F(SnapshotApiTest, LockFromBackedUpRunsLockPreThenFails) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  g_recorder.Take();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_LOCK_FAILED, Lock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:2");
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, LockPreFailureKeepsRunning) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  FailOn(RT_SNAPSHOT_LOCK_PRE, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Lock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  // Not locked: gated calls still run.
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(p));
  // And a later Lock works.
  FailOn(RT_SNAPSHOT_LOCK_PRE, -1);
  EXPECT_ACL_OK(Lock());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

TEST_F(SnapshotApiTest, LockPreFailureWhileLockedStillFailsWithCallbackCode) {
  // LOCK_PRE runs before the state check, so its failure wins over 507906.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  FailOn(RT_SNAPSHOT_LOCK_PRE, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Lock());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

// --- §2.5: Backup
// ----------------------------------------------------------------

TEST_F(SnapshotApiTest, BackupFromRunningFailsWithoutCallbacks) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Backup());
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, rtSnapShotProcessBackup());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
}

TEST_F(SnapshotApiTest, BackupFromLocked) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  EXPECT_ACL_OK(Backup());
  // Both callbacks see LOCKED: the state changes after BACKUP_POST.
  EXPECT_EQ(g_recorder.Take(), "BACKUP_PRE@0:1 BACKUP_POST@0:1");
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, BackupFromBackedUpFailsWithoutCallbacks) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  g_recorder.Take();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Backup());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, BackupWithNoOpenDeviceIsContextNull) {
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  // No device open: LOCK_PRE had nobody to call either.
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, Backup());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(), "");
}

TEST_F(SnapshotApiTest, BackupPreFailureStaysLockedAndBacksUpNothing) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  Buffer(4096, 0x11);
  // A first backup, held through its Restore (an Unlock would release it).
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  const uint64_t first = ascend::snapshot::Coordinator::Get().backup_bytes();
  ASSERT_GT(first, 0u);
  g_recorder.Take();
  FailOn(RT_SNAPSHOT_BACKUP_PRE, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Backup());
  // BACKUP_POST never ran, nothing was saved, the state stays LOCKED and
  // the first backup is kept.
  EXPECT_EQ(g_recorder.Take(), "BACKUP_PRE@0:1");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), first);
  // Restore needs BACKED_UP.
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  // A retry without the failure succeeds.
  FailOn(RT_SNAPSHOT_BACKUP_PRE, -1);
  EXPECT_ACL_OK(Backup());
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), first);
}

TEST_F(SnapshotApiTest, BackupPostFailureStaysLockedWithBackupTaken) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  Buffer(4096, 0x11);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Unlock());
  // The Unlock released that backup: no Restore could use it any more.
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), 0u);
  Buffer(8192, 0x22);
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  FailOn(RT_SNAPSHOT_BACKUP_POST, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Backup());
  EXPECT_EQ(g_recorder.Take(), "BACKUP_PRE@0:1 BACKUP_POST@0:1");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  // The backup data was already taken (reference: "backup data already
  // taken"): it covers both buffers.
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), 4096u + 8192u);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

// --- §2.5: Restore
// ---------------------------------------------------------------

TEST_F(SnapshotApiTest, RestoreFromRunningOrLockedFailsWithoutCallbacks) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                   rtSnapShotProcessRestore());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  // Also LOCKED after a completed Restore (a backup exists but was used).
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  g_recorder.Take();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

TEST_F(SnapshotApiTest, RestoreFromBackedUp) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  g_recorder.Take();
  EXPECT_ACL_OK(Restore());
  EXPECT_EQ(g_recorder.Take(), "RESTORE_PRE@0:2 RESTORE_POST@0:2");
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  // Backup again from the restored LOCKED state ("last one wins").
  EXPECT_ACL_OK(Backup());
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
}

TEST_F(SnapshotApiTest, RestorePreFailureStaysBackedUpWithoutRestoring) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  void* p = Buffer(1 << 16, 0x5A);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_TRUE(AllBytesAre(p, 1 << 16, 0));
  g_recorder.Take();
  FailOn(RT_SNAPSHOT_RESTORE_PRE, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Restore());
  EXPECT_EQ(g_recorder.Take(), "RESTORE_PRE@0:2");
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
  EXPECT_TRUE(AllBytesAre(p, 1 << 16, 0)) << "restore work ran";
  // Retry.
  FailOn(RT_SNAPSHOT_RESTORE_PRE, -1);
  EXPECT_ACL_OK(Restore());
  EXPECT_TRUE(AllBytesAre(p, 1 << 16, 0x5A));
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
}

TEST_F(SnapshotApiTest, RestorePostFailureStaysBackedUpWithDeviceRestored) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  void* p = Buffer(1 << 16, 0x6B);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  g_recorder.Take();
  FailOn(RT_SNAPSHOT_RESTORE_POST, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Restore());
  EXPECT_EQ(g_recorder.Take(), "RESTORE_PRE@0:2 RESTORE_POST@0:2");
  EXPECT_EQ(State(), RT_PROCESS_STATE_BACKED_UP);
  EXPECT_TRUE(AllBytesAre(p, 1 << 16, 0x6B)) << "device state not restored";
  // The backup is kept: Restore can run again.
  FailOn(RT_SNAPSHOT_RESTORE_POST, -1);
  EXPECT_ACL_OK(Restore());
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  EXPECT_TRUE(AllBytesAre(p, 1 << 16, 0x6B));
}

// --- §2.5: Unlock
// ----------------------------------------------------------------

TEST_F(SnapshotApiTest, UnlockFromRunningFailsWithoutCallbacks) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, Unlock());
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, rtSnapShotProcessUnlock());
  EXPECT_EQ(g_recorder.Take(), "");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
}

TEST_F(SnapshotApiTest, UnlockFromLocked) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  EXPECT_ACL_OK(Unlock());
  // UNLOCK_POST sees RUNNING.
  EXPECT_EQ(g_recorder.Take(), "UNLOCK_POST@0:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
}

TEST_F(SnapshotApiTest, UnlockFromBackedUpReleasesTheBackup) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  Buffer(4096, 1);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const uint64_t bytes = ascend::snapshot::Coordinator::Get().backup_bytes();
  ASSERT_GT(bytes, 0u);
  g_recorder.Take();
  EXPECT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(), "UNLOCK_POST@0:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  // No Restore can use it any more (Restore needs BACKED_UP, which only a
  // new Backup reaches): its host memory is released.
  EXPECT_EQ(ascend::snapshot::Coordinator::Get().backup_bytes(), 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
}

TEST_F(SnapshotApiTest, UnlockPostFailureLeavesRunning) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  g_recorder.Take();
  FailOn(RT_SNAPSHOT_UNLOCK_POST, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Unlock());
  EXPECT_EQ(g_recorder.Take(), "UNLOCK_POST@0:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  // Really unlocked: gated calls run.
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, Unlock());
}

TEST_F(SnapshotApiTest, FullCycleRunsEveryStageInOrder) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(),
            "LOCK_PRE@0:0 BACKUP_PRE@0:1 BACKUP_POST@0:1 RESTORE_PRE@0:2 "
            "RESTORE_POST@0:2 UNLOCK_POST@0:0");
}

TEST_F(SnapshotApiTest, UnregisteredCallbacksNoLongerRun) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  Unregister(RT_SNAPSHOT_LOCK_PRE);
  Unregister(RT_SNAPSHOT_BACKUP_POST);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(), "BACKUP_PRE@0:1 UNLOCK_POST@0:0");
}

// --- Registration through the C API (§2.7)
// -----------------------------------------

TEST_F(SnapshotApiTest, RegistrationCodesThroughAclAndRt) {
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(6),
                                    kCallbacks[0], nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(-1),
                                    kCallbacks[0], nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                                 nullptr, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, kCallbacks[0]));
  Register(RT_SNAPSHOT_LOCK_PRE);
  int other_args = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
                   aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                                 kCallbacks[0], &other_args));
  EXPECT_ACL_ERROR(
      ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
      rtSnapShotCallbackRegister(RT_SNAPSHOT_LOCK_PRE, kCallbacks[0], nullptr));
  // The same function on another stage is fine.
  EXPECT_ACL_OK(rtSnapShotCallbackRegister(RT_SNAPSHOT_UNLOCK_POST,
                                           kCallbacks[0], &g_recorder));
  EXPECT_ACL_OK(
      rtSnapShotCallbackUnregister(RT_SNAPSHOT_UNLOCK_POST, kCallbacks[0]));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      rtSnapShotCallbackUnregister(RT_SNAPSHOT_UNLOCK_POST, kCallbacks[0]));
  // The duplicate attempt kept the first args: the callback records into
  // g_recorder (other_args would crash it).
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(Lock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:0");
}

// --- Device fan-out (DESIGN.md §4.7)
// ----------------------------------------------

TEST_F(SnapshotApiTest, CallbacksRunOncePerOpenDeviceInAscendingOrder) {
  // Opened in the order 2, 0: calls still go 0 then 2; device 1 is not open.
  ASSERT_ACL_OK(aclrtSetDevice(2));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(),
            "LOCK_PRE@0:0 LOCK_PRE@2:0 BACKUP_PRE@0:1 BACKUP_PRE@2:1 "
            "BACKUP_POST@0:1 BACKUP_POST@2:1 RESTORE_PRE@0:2 RESTORE_PRE@2:2 "
            "RESTORE_POST@0:2 RESTORE_POST@2:2 UNLOCK_POST@0:0 "
            "UNLOCK_POST@2:0");
}

TEST_F(SnapshotApiTest, CallbackOrderIsRegistrationOrderTimesDevices) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(2));
  // Two different functions on LOCK_PRE: registration order is outer.
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                              kCallbacks[3], &g_recorder));
  ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                              kCallbacks[1], &g_recorder));
  ASSERT_ACL_OK(Lock());
  EXPECT_ACL_OK(
      aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, kCallbacks[3]));
  EXPECT_ACL_OK(
      aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, kCallbacks[1]));
  // The functions name themselves by their template stage.
  EXPECT_EQ(g_recorder.Take(),
            "RESTORE_PRE@0:0 RESTORE_PRE@2:0 BACKUP_PRE@0:0 BACKUP_PRE@2:0");
}

TEST_F(SnapshotApiTest, FailureOnSecondDeviceStopsAfterIt) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(2));
  RegisterAll();
  FailOn(RT_SNAPSHOT_LOCK_PRE, 2);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, Lock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:0 LOCK_PRE@2:0");
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
}

TEST_F(SnapshotApiTest, ResetDeviceIsNoLongerCalled) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(2));
  ASSERT_ACL_OK(aclrtResetDevice(2));
  RegisterAll();
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(), "LOCK_PRE@0:0 UNLOCK_POST@0:0");
}

TEST_F(SnapshotApiTest, NoOpenDeviceCallsNoCallback) {
  RegisterAll();
  for (int stage = 0; stage < 6; ++stage) FailOn(stage, 0);
  // Callbacks that would fail are never called: Lock and Unlock succeed.
  EXPECT_ACL_OK(Lock());
  EXPECT_ACL_OK(Unlock());
  EXPECT_EQ(g_recorder.Take(), "");
}

// --- Re-entrant snapshot calls from stage callbacks (DESIGN.md §4.7)
// -----------

struct ReentrantResults {
  std::mutex mu;
  std::vector<std::string> lines;
};
ReentrantResults g_reentrant;

uint32_t ReentrantCallback(int32_t device, void* args) {
  const int stage = static_cast<int>(reinterpret_cast<intptr_t>(args));
  rtProcessState state = RT_PROCESS_STATE_MAX;
  const rtError_t get = rtSnapShotProcessGetState(&state);
  const aclError lock = aclrtSnapShotProcessLock(getpid(), nullptr);
  const aclError unlock = aclrtSnapShotProcessUnlock(getpid(), nullptr);
  const aclError backup = aclrtSnapShotProcessBackup(getpid(), nullptr);
  const aclError restore = aclrtSnapShotProcessRestore(getpid(), nullptr);
  const rtError_t rt_lock = rtSnapShotProcessLock();
  const rtError_t rt_unlock = rtSnapShotProcessUnlock();
  const rtError_t rt_backup = rtSnapShotProcessBackup();
  const rtError_t rt_restore = rtSnapShotProcessRestore();
  const aclError reg = aclrtSnapShotCallbackRegister(
      ACL_RT_SNAPSHOT_UNLOCK_POST, &RecordingCallback<5>, &g_recorder);
  const aclError unreg = aclrtSnapShotCallbackUnregister(
      static_cast<aclrtSnapShotStage>(stage), &ReentrantCallback);
  const rtError_t rt_reg = rtSnapShotCallbackRegister(
      RT_SNAPSHOT_UNLOCK_POST, &RecordingCallback<5>, &g_recorder);
  const rtError_t rt_unreg = rtSnapShotCallbackUnregister(
      static_cast<rtSnapShotStage>(stage), &ReentrantCallback);
  std::lock_guard<std::mutex> l(g_reentrant.mu);
  g_reentrant.lines.push_back(absl::StrCat(
      StageName(stage), "@", device, " get=", get, "/", state, " lock=", lock,
      "/", rt_lock, " unlock=", unlock, "/", rt_unlock, " backup=", backup, "/",
      rt_backup, " restore=", restore, "/", rt_restore, " reg=", reg, "/",
      rt_reg, " unreg=", unreg, "/", rt_unreg));
  return 0;
}

std::string Expected(const char* stage, int device, int state) {
  return absl::StrCat(stage, "@", device, " get=0/", state,
                      " lock=507906/507906 unlock=507907/507907"
                      " backup=507908/507908 restore=507909/507909"
                      " reg=507913/507913 unreg=507913/507913");
}

TEST_F(SnapshotApiTest, SnapshotCallsFromInsideCallbacksFailWithoutDeadlock) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(2));
  for (int stage = 0; stage < 6; ++stage) {
    ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(
        static_cast<aclrtSnapShotStage>(stage), &ReentrantCallback,
        reinterpret_cast<void*>(static_cast<intptr_t>(stage))));
  }
  aclError lock = -1, backup = -1, restore = -1, unlock = -1;
  RunWithDeadline("snapshot cycle with re-entrant callbacks", [&] {
    lock = Lock();
    backup = Backup();
    restore = Restore();
    unlock = Unlock();
  });
  EXPECT_ACL_OK(lock);
  EXPECT_ACL_OK(backup);
  EXPECT_ACL_OK(restore);
  EXPECT_ACL_OK(unlock);
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
  std::vector<std::string> lines;
  {
    std::lock_guard<std::mutex> l(g_reentrant.mu);
    lines = std::move(g_reentrant.lines);
  }
  const std::vector<std::string> expected = {
      Expected("LOCK_PRE", 0, 0),     Expected("LOCK_PRE", 2, 0),
      Expected("BACKUP_PRE", 0, 1),   Expected("BACKUP_PRE", 2, 1),
      Expected("BACKUP_POST", 0, 1),  Expected("BACKUP_POST", 2, 1),
      Expected("RESTORE_PRE", 0, 2),  Expected("RESTORE_PRE", 2, 2),
      Expected("RESTORE_POST", 0, 2), Expected("RESTORE_POST", 2, 2),
      Expected("UNLOCK_POST", 0, 0),  Expected("UNLOCK_POST", 2, 0)};
  EXPECT_EQ(lines, expected);
  // The refused registrations changed nothing: the re-entrant callbacks are
  // still registered, the recording one is not.
  for (int stage = 0; stage < 6; ++stage) {
    EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(
        static_cast<aclrtSnapShotStage>(stage), &ReentrantCallback));
  }
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_UNLOCK_POST,
                                                   &RecordingCallback<5>));
  EXPECT_EQ(g_recorder.Take(), "");
}

TEST_F(SnapshotApiTest, CallbacksMayCallNonBlockingApis) {
  // Queries from inside a callback (even BACKUP_*/RESTORE_*, while the
  // snapshot holds its locks) return without blocking.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  std::vector<std::string> seen;
  std::mutex seen_mu;
  {
    std::lock_guard<std::mutex> lock(g_recorder.mu);
    g_recorder.action = [&](int stage, int32_t device) {
      int32_t current = -1;
      uint32_t count = 0;
      aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
      const aclError a = aclrtGetDevice(&current);
      const aclError b = aclrtGetDeviceCount(&count);
      const aclError c = aclrtQueryDeviceStatus(device, &status);
      const aclError d = aclrtSynchronizeDevice();
      std::lock_guard<std::mutex> l(seen_mu);
      seen.push_back(absl::StrCat(StageName(stage), ":", a, b, c, d,
                                  " dev=", current, " count=", count > 0));
    };
  }
  RunWithDeadline("cycle with querying callbacks", [&] {
    // Callbacks run on the calling thread: make device 0 its current one.
    EXPECT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(Lock());
    EXPECT_ACL_OK(Backup());
    EXPECT_ACL_OK(Restore());
    EXPECT_ACL_OK(Unlock());
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"LOCK_PRE:0000 dev=0 count=1",
                                            "BACKUP_PRE:0000 dev=0 count=1",
                                            "BACKUP_POST:0000 dev=0 count=1",
                                            "RESTORE_PRE:0000 dev=0 count=1",
                                            "RESTORE_POST:0000 dev=0 count=1",
                                            "UNLOCK_POST:0000 dev=0 count=1"}));
}

// --- Concurrent snapshot calls
// -----------------------------------------------------

TEST_F(SnapshotApiTest, ConcurrentLocksExactlyOneWins) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  constexpr int kThreads = 6;
  std::vector<aclError> results(kThreads, -1);
  RunWithDeadline("concurrent Lock", [&] {
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&results, i] { results[i] = Lock(); });
    }
    for (std::thread& t : threads) t.join();
  });
  int ok = 0, failed = 0;
  for (aclError r : results) {
    if (r == ACL_SUCCESS) ++ok;
    if (r == ACL_ERROR_SNAPSHOT_LOCK_FAILED) ++failed;
  }
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(failed, kThreads - 1);
  EXPECT_EQ(State(), RT_PROCESS_STATE_LOCKED);
  // Likewise for Unlock.
  RunWithDeadline("concurrent Unlock", [&] {
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&results, i] { results[i] = Unlock(); });
    }
    for (std::thread& t : threads) t.join();
  });
  ok = failed = 0;
  for (aclError r : results) {
    if (r == ACL_SUCCESS) ++ok;
    if (r == ACL_ERROR_SNAPSHOT_UNLOCK_FAILED) ++failed;
  }
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(failed, kThreads - 1);
  EXPECT_EQ(State(), RT_PROCESS_STATE_RUNNING);
}

TEST_F(SnapshotApiTest, SnapshotCallsFromAnotherThreadWork) {
  // Lock on one thread, Backup/Restore on another, Unlock on a third.
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RegisterAll();
  aclError lock = -1, backup = -1, restore = -1, unlock = -1;
  RunWithDeadline("cross-thread cycle", [&] {
    std::thread([&] { lock = Lock(); }).join();
    std::thread([&] {
      backup = Backup();
      restore = Restore();
    }).join();
    std::thread([&] { unlock = Unlock(); }).join();
  });
  EXPECT_ACL_OK(lock);
  EXPECT_ACL_OK(backup);
  EXPECT_ACL_OK(restore);
  EXPECT_ACL_OK(unlock);
  EXPECT_EQ(g_recorder.Take(),
            "LOCK_PRE@0:0 BACKUP_PRE@0:1 BACKUP_POST@0:1 RESTORE_PRE@0:2 "
            "RESTORE_POST@0:2 UNLOCK_POST@0:0");
}

}  // namespace
