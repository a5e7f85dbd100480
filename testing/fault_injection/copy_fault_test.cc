// Copy failures and silent corruption injected at every step of Backup and
// Restore, on each of three open devices, through the public API (DESIGN.md
// §4.8, §4.9 and §7.3):
//  * a failed Backup returns 507908, stays LOCKED, leaves device memory
//    untouched and keeps the previous backup usable; a retry succeeds;
//  * a fault that lands after Backup's copies (BACKUP_POST) is caught by
//    Restore's verification of what lands on the device;
//  * a fault while Restore copies is no damage of the image (which Restore
//    verifies before any device is touched): the piece is copied again and
//    the Restore brings every byte back.
// "Previous backup usable" needs a BACKED_UP state after a failed Backup,
// which the public state machine cannot reach; those checks move the state
// directly (GlobalState::CompareAndSetState) and then use the public Restore.
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace ascend::testing {
namespace {

using rt::GlobalState;

constexpr int32_t kDevices = 3;

enum class Moment {
  kBeforeBackup,   // injected while LOCKED, before Backup is called
  kInBackupPre,    // injected by a BACKUP_PRE callback
  kInBackupPost,   // injected by a BACKUP_POST callback (after the copies)
  kBeforeRestore,  // injected while BACKED_UP, before Restore is called
  kInRestorePre,   // injected by a RESTORE_PRE callback
};

const char* MomentName(Moment m) {
  switch (m) {
    case Moment::kBeforeBackup:
      return "BeforeBackup";
    case Moment::kInBackupPre:
      return "InBackupPre";
    case Moment::kInBackupPost:
      return "InBackupPost";
    case Moment::kBeforeRestore:
      return "BeforeRestore";
    case Moment::kInRestorePre:
      return "InRestorePre";
  }
  return "?";
}

struct CopyFaultCase {
  Moment when;
  aclsimFault fault;
  int32_t device;
};

std::string CaseName(const ::testing::TestParamInfo<CopyFaultCase>& info) {
  return std::string(MomentName(info.param.when)) +
         (info.param.fault == ACLSIM_FAULT_NEXT_COPY_FAILS ? "_CopyFails"
                                                           : "_CopyCorrupts") +
         "_Device" + std::to_string(info.param.device);
}

// A stage callback that injects `fault` when called for `device`.
struct Injector {
  int32_t device = 0;
  aclsimFault fault = ACLSIM_FAULT_NEXT_COPY_FAILS;
  int injected = 0;
  aclError result = -1;
};
uint32_t InjectOnDevice(int32_t device, void* args) {
  auto* injector = static_cast<Injector*>(args);
  if (device == injector->device) {
    injector->result = aclsimInjectFault(device, injector->fault);
    ++injector->injected;
  }
  return 0;
}

void LoseAllDeviceMemory() {
  for (int32_t d = 0; d < kDevices; ++d) {
    ASSERT_ACL_OK(aclsimInjectFault(d, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  }
}

uint64_t BackupBytes() { return snapshot::Coordinator::Get().backup_bytes(); }

class CopyFaultTest : public ::testing::TestWithParam<CopyFaultCase> {
 protected:
  void SetUp() override {
    ASSERT_EQ(ProcessState(), RT_PROCESS_STATE_RUNNING);
    // Per device: one allocation spanning several backup chunks, one small.
    uint32_t seed = 1000;
    for (int32_t d = 0; d < kDevices; ++d) {
      buffers_.Add(d, (1 << 20) + 7, seed++);
      buffers_.Add(d, 4099, seed++);
    }
  }
  void TearDown() override {
    if (registered_) {
      EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(stage_, &InjectOnDevice));
    }
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
  }

  // Makes the fault happen at `when` (for the callback moments: registers
  // the injector for that stage).
  void Arm(Moment when, const CopyFaultCase& c) {
    injector_.device = c.device;
    injector_.fault = c.fault;
    switch (when) {
      case Moment::kBeforeBackup:
      case Moment::kBeforeRestore:
        ASSERT_ACL_OK(aclsimInjectFault(c.device, c.fault));
        return;
      case Moment::kInBackupPre:
        stage_ = ACL_RT_SNAPSHOT_BACKUP_PRE;
        break;
      case Moment::kInBackupPost:
        stage_ = ACL_RT_SNAPSHOT_BACKUP_POST;
        break;
      case Moment::kInRestorePre:
        stage_ = ACL_RT_SNAPSHOT_RESTORE_PRE;
        break;
    }
    ASSERT_ACL_OK(
        aclrtSnapShotCallbackRegister(stage_, &InjectOnDevice, &injector_));
    registered_ = true;
  }
  void Disarm() {
    if (!registered_) return;
    ASSERT_ACL_OK(aclrtSnapShotCallbackUnregister(stage_, &InjectOnDevice));
    registered_ = false;
    EXPECT_EQ(injector_.injected, 1) << "the callback did not inject";
    EXPECT_ACL_OK(injector_.result);
  }

  DeviceBuffers buffers_;
  Injector injector_;
  aclrtSnapShotStage stage_ = ACL_RT_SNAPSHOT_LOCK_PRE;
  bool registered_ = false;
};

TEST_P(CopyFaultTest, NothingIsLostAndARetrySucceeds) {
  const CopyFaultCase c = GetParam();
  switch (c.when) {
    case Moment::kBeforeBackup:
    case Moment::kInBackupPre: {
      // A good backup of the first contents, still held after a Restore
      // (an Unlock would release it: no Restore could use it any more).
      ASSERT_ACL_OK(Lock());
      ASSERT_ACL_OK(Backup());
      ASSERT_ACL_OK(Restore());
      const uint64_t first_bytes = BackupBytes();
      ASSERT_EQ(first_bytes, buffers_.total_bytes());
      const auto first = buffers_.Expected();
      buffers_.RewriteDirect(2000);

      Arm(c.when, c);
      EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Backup());
      EXPECT_EQ(StateName(ProcessState()), "LOCKED");
      buffers_.ExpectHeldDirect("device memory after the failed Backup");
      EXPECT_EQ(BackupBytes(), first_bytes);
      Disarm();

      // The previous backup is intact and restorable.
      ASSERT_TRUE(GlobalState::Get().CompareAndSetState(
          rt::ProcessState::kLocked, rt::ProcessState::kBackedUp));
      LoseAllDeviceMemory();
      buffers_.ExpectAllZeroDirect("after the memory loss");
      const auto second = buffers_.Expected();
      buffers_.SetExpected(first);
      ASSERT_ACL_OK(Restore());
      EXPECT_EQ(StateName(ProcessState()), "LOCKED");
      buffers_.ExpectHeldDirect("previous backup restored");
      ASSERT_ACL_OK(Unlock());
      buffers_.ExpectHeldViaApi("previous backup, after Unlock");

      // The retry (the fault is spent) backs up the new contents.
      buffers_.Rewrite(3000);
      ASSERT_ACL_OK(Lock());
      ASSERT_ACL_OK(Backup());
      EXPECT_EQ(StateName(ProcessState()), "BACKED_UP");
      LoseAllDeviceMemory();
      ASSERT_ACL_OK(Restore());
      buffers_.ExpectHeldDirect("retried backup restored");
      ASSERT_ACL_OK(Unlock());
      buffers_.ExpectHeldViaApi("retried backup, after Unlock");
      break;
    }
    case Moment::kInBackupPost: {
      // The copies are done when BACKUP_POST runs: Backup succeeds and the
      // pending fault hits Restore's copy to that device, which its
      // verification notices; the image is good, so the piece is copied
      // again and the Restore succeeds.
      ASSERT_ACL_OK(Lock());
      Arm(c.when, c);
      ASSERT_ACL_OK(Backup());
      EXPECT_EQ(StateName(ProcessState()), "BACKED_UP");
      Disarm();
      const uint64_t bytes = BackupBytes();
      LoseAllDeviceMemory();
      ASSERT_ACL_OK(Restore());
      EXPECT_EQ(StateName(ProcessState()), "LOCKED");
      EXPECT_EQ(BackupBytes(), bytes);
      buffers_.ExpectHeldDirect("after the Restore");
      ASSERT_ACL_OK(Unlock());
      buffers_.ExpectHeldViaApi("after Unlock");
      break;
    }
    case Moment::kBeforeRestore:
    case Moment::kInRestorePre: {
      // A fault of the transfer is no damage of the image (verified before
      // any device is touched): the piece is copied again.
      ASSERT_ACL_OK(Lock());
      ASSERT_ACL_OK(Backup());
      const uint64_t bytes = BackupBytes();
      ASSERT_EQ(bytes, buffers_.total_bytes());
      LoseAllDeviceMemory();
      Arm(c.when, c);
      ASSERT_ACL_OK(Restore());
      EXPECT_EQ(StateName(ProcessState()), "LOCKED");
      EXPECT_EQ(BackupBytes(), bytes);
      Disarm();
      buffers_.ExpectHeldDirect("after the Restore");
      ASSERT_ACL_OK(Unlock());
      buffers_.ExpectHeldViaApi("after Unlock");
      break;
    }
  }
}

std::vector<CopyFaultCase> AllCases() {
  std::vector<CopyFaultCase> cases;
  for (Moment when :
       {Moment::kBeforeBackup, Moment::kInBackupPre, Moment::kInBackupPost,
        Moment::kBeforeRestore, Moment::kInRestorePre}) {
    for (aclsimFault fault :
         {ACLSIM_FAULT_NEXT_COPY_FAILS, ACLSIM_FAULT_NEXT_COPY_CORRUPTS}) {
      for (int32_t device = 0; device < kDevices; ++device) {
        cases.push_back(CopyFaultCase{when, fault, device});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryStep, CopyFaultTest,
                         ::testing::ValuesIn(AllCases()), CaseName);

// --- Several pending faults at once
// ---------------------------------------------

class MultiFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ProcessState(), RT_PROCESS_STATE_RUNNING);
    uint32_t seed = 5000;
    for (int32_t d = 0; d < kDevices; ++d) {
      buffers_.Add(d, (600 << 10) + 3, seed++);
      buffers_.Add(d, 512, seed++);
    }
  }
  void TearDown() override {
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
  }
  DeviceBuffers buffers_;
};

// One fault per device: every failed attempt reports 507908, stays LOCKED
// and leaves memory untouched; each spends at least one fault, so a retry
// succeeds within kDevices + 1 attempts.
TEST_F(MultiFaultTest, BackupRetriedUntilEveryFaultIsSpent) {
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_NEXT_COPY_CORRUPTS));
  ASSERT_ACL_OK(aclsimInjectFault(2, ACLSIM_FAULT_NEXT_COPY_FAILS));
  int failures = 0;
  aclError rc = -1;
  for (int attempt = 0; attempt <= kDevices; ++attempt) {
    rc = Backup();
    if (rc == ACL_SUCCESS) break;
    ++failures;
    EXPECT_EQ(rc, ACL_ERROR_SNAPSHOT_BACKUP_FAILED) << "attempt " << attempt;
    EXPECT_EQ(StateName(ProcessState()), "LOCKED");
    buffers_.ExpectHeldDirect("after failed Backup " + std::to_string(attempt));
  }
  ASSERT_ACL_OK(rc);
  EXPECT_GE(failures, 1);
  EXPECT_LE(failures, kDevices);
  EXPECT_EQ(StateName(ProcessState()), "BACKED_UP");
  LoseAllDeviceMemory();
  ASSERT_ACL_OK(Restore());
  buffers_.ExpectHeldDirect("after Restore");
  ASSERT_ACL_OK(Unlock());
  buffers_.ExpectHeldViaApi("after Unlock");
}

// One fault per device while Restore copies: each is copied again, and the
// first Restore brings every byte back on every device.
TEST_F(MultiFaultTest, RestoreCopiesAgainThroughAFaultOnEveryDevice) {
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  const uint64_t bytes = BackupBytes();
  LoseAllDeviceMemory();
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_CORRUPTS));
  ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_NEXT_COPY_FAILS));
  ASSERT_ACL_OK(aclsimInjectFault(2, ACLSIM_FAULT_NEXT_COPY_CORRUPTS));
  ASSERT_ACL_OK(Restore());
  EXPECT_EQ(BackupBytes(), bytes);
  EXPECT_EQ(StateName(ProcessState()), "LOCKED");
  buffers_.ExpectHeldDirect("after Restore");
  ASSERT_ACL_OK(Unlock());
  buffers_.ExpectHeldViaApi("after Unlock");
}

// A fault on a device that does not exist is refused and changes nothing.
TEST_F(MultiFaultTest, FaultOnMissingDeviceIsRefused) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectFault(static_cast<int32_t>(count),
                                     ACLSIM_FAULT_NEXT_COPY_FAILS));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectFault(-1, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectFault(0, static_cast<aclsimFault>(3)));
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());
  buffers_.ExpectHeldViaApi("after a clean cycle");
}

}  // namespace
}  // namespace ascend::testing
