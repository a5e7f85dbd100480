// Regression tests of the snapshot under pressure (DESIGN.md §4.8, §4.9),
// through the public C API: a lost device is abnormal at once and never
// backed up, a failed Restore leaves healthy devices intact, and objects made
// after a Backup keep distinct ids and valid memory after the Restore.
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"
#include "snapshot/coordinator.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

using ascend::testing::Backup;
using ascend::testing::Lock;
using ascend::testing::Pattern;
using ascend::testing::ProcessState;
using ascend::testing::Restore;
using ascend::testing::Unlock;

uint64_t BackupBytes() {
  return ascend::snapshot::Coordinator::Get().backup_bytes();
}

aclrtDeviceStatus Status(int32_t device) {
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
  EXPECT_ACL_OK(aclrtQueryDeviceStatus(device, &status));
  return status;
}

class PressureTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (ProcessState() != RT_PROCESS_STATE_RUNNING) {
      EXPECT_ACL_OK(Unlock());
    }
    for (auto& [stage, fn] : registered_) {
      EXPECT_ACL_OK(aclrtSnapShotCallbackUnregister(stage, fn));
    }
    for (int id = 0; id < 8; ++id) (void)aclrtResetDeviceForce(id);
  }
  void Register(aclrtSnapShotStage stage, aclrtSnapShotCallBack fn,
                void* args) {
    ASSERT_ACL_OK(aclrtSnapShotCallbackRegister(stage, fn, args));
    registered_.emplace_back(stage, fn);
  }
  void* Buffer(int32_t device, size_t size, uint32_t seed,
               std::vector<uint8_t>* bytes) {
    EXPECT_ACL_OK(aclrtSetDevice(device));
    void* p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
    *bytes = Pattern(size, seed);
    EXPECT_ACL_OK(
        aclrtMemcpy(p, size, bytes->data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    return p;
  }
  std::vector<std::pair<aclrtSnapShotStage, aclrtSnapShotCallBack>> registered_;
};

// Defect 3: a memory loss makes the device abnormal as soon as the
// injecting call returns, also while the health monitor is parked, and a
// Backup of it fails and keeps the previous backup.
TEST_F(PressureTest, LostDeviceIsAbnormalAtOnceAndIsNeverBackedUp) {
  std::vector<uint8_t> bytes;
  void* p = Buffer(0, 1 << 20, 1, &bytes);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(Restore());  // LOCKED, the good backup held
  const uint64_t good = BackupBytes();
  ASSERT_GT(good, 0u);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  EXPECT_EQ(Status(0), ACL_RT_DEVICE_STATUS_ABNORMAL);
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Backup());
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_LOCKED);
  EXPECT_EQ(BackupBytes(), good);
  // The good backup still brings the data back (white-box: only a Backup
  // reaches BACKED_UP).
  ASSERT_TRUE(ascend::rt::GlobalState::Get().CompareAndSetState(
      ascend::rt::ProcessState::kLocked, ascend::rt::ProcessState::kBackedUp));
  ASSERT_ACL_OK(Restore());
  EXPECT_EQ(Status(0), ACL_RT_DEVICE_STATUS_NORMAL);
  EXPECT_EQ(std::memcmp(p, bytes.data(), bytes.size()), 0);
  ASSERT_ACL_OK(Unlock());
  ASSERT_ACL_OK(aclrtFree(p));
}

TEST_F(PressureTest, LostDeviceIsAbnormalAtOnceWhileRunning) {
  for (int i = 0; i < 50; ++i) {
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_EQ(Status(1), ACL_RT_DEVICE_STATUS_NORMAL);
    ASSERT_ACL_OK(aclsimInjectFault(1, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    ASSERT_EQ(Status(1), ACL_RT_DEVICE_STATUS_ABNORMAL) << "round " << i;
    ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  }
}

uint32_t ResetDeviceOne(int32_t device, void*) {
  return device == 1 ? static_cast<uint32_t>(aclrtResetDeviceForce(1)) : 0;
}

// Defect 4: a device reset after the Backup makes the Restore fail, and the
// failure touches no device: the healthy one keeps its allocation and data.
TEST_F(PressureTest, FailedRestoreLeavesHealthyDevicesIntact) {
  std::vector<uint8_t> bytes0;
  std::vector<uint8_t> bytes1;
  void* p0 = Buffer(0, 3 << 20, 2, &bytes0);
  (void)Buffer(1, 4096, 3, &bytes1);
  Register(ACL_RT_SNAPSHOT_BACKUP_POST, &ResetDeviceOne, nullptr);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, Restore());
  EXPECT_EQ(ProcessState(), RT_PROCESS_STATE_BACKED_UP);
  // Its backup cannot be used any more, so it is released.
  EXPECT_EQ(BackupBytes(), 0u);
  EXPECT_EQ(std::memcmp(p0, bytes0.data(), bytes0.size()), 0);
  ASSERT_ACL_OK(Unlock());
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<uint8_t> back(bytes0.size());
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), p0, back.size(),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, bytes0);
  ASSERT_ACL_OK(aclrtFree(p0));
}

struct MadeAfterBackup {
  aclrtStream stream = nullptr;
  aclrtNotify notify = nullptr;
  aclrtEvent destroyed = nullptr;  // made before the Backup, destroyed after
  void* memory = nullptr;
  aclError rc = ACL_SUCCESS;
};

uint32_t MakeObjects(int32_t device, void* args) {
  auto* made = static_cast<MadeAfterBackup*>(args);
  if (device != 0) return 0;
  aclError rc = aclrtCreateStream(&made->stream);
  if (rc == ACL_SUCCESS) rc = aclrtCreateNotify(&made->notify, 0);
  if (rc == ACL_SUCCESS) rc = aclrtDestroyEvent(made->destroyed);
  if (rc == ACL_SUCCESS) {
    rc = aclrtMalloc(&made->memory, 8192, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  if (rc == ACL_SUCCESS) rc = aclrtMemset(made->memory, 8192, 0x7F, 8192);
  made->rc = rc;
  return 0;
}

// Defect 5: objects made between Backup and Restore keep their handles and
// ids; new objects never share an id with a live one; memory allocated
// there stays valid and reads as zero (its contents were never saved);
// what was destroyed there stays destroyed.
TEST_F(PressureTest, ObjectsMadeAfterTheBackupKeepDistinctIds) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream before = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&before));
  MadeAfterBackup made;
  ASSERT_ACL_OK(aclrtCreateEvent(&made.destroyed));
  Register(ACL_RT_SNAPSHOT_BACKUP_POST, &MakeObjects, &made);
  ASSERT_ACL_OK(Lock());
  ASSERT_ACL_OK(Backup());
  ASSERT_ACL_OK(made.rc);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(Restore());
  ASSERT_ACL_OK(Unlock());

  std::set<int32_t> stream_ids;
  for (aclrtStream s : {before, static_cast<aclrtStream>(made.stream)}) {
    int32_t id = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(s, &id));
    EXPECT_TRUE(stream_ids.insert(id).second) << "stream id " << id;
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  }
  std::vector<aclrtStream> fresh(3);
  for (aclrtStream& s : fresh) {
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    int32_t id = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(s, &id));
    EXPECT_TRUE(stream_ids.insert(id).second)
        << "stream id " << id << " given twice";
  }
  uint32_t kept_notify = 0;
  ASSERT_ACL_OK(aclrtGetNotifyId(made.notify, &kept_notify));
  for (int i = 0; i < 3; ++i) {
    aclrtNotify n = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&n, 0));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclrtGetNotifyId(n, &id));
    EXPECT_NE(id, kept_notify) << "notify id given twice";
    ASSERT_ACL_OK(aclrtDestroyNotify(n));
  }
  std::vector<uint8_t> back(8192, 0xEE);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), made.memory, back.size(),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, std::vector<uint8_t>(8192, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDestroyEvent(made.destroyed));
  for (aclrtStream s : fresh) ASSERT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_ACL_OK(aclrtDestroyStream(made.stream));
  ASSERT_ACL_OK(aclrtDestroyStream(before));
  ASSERT_ACL_OK(aclrtDestroyNotify(made.notify));
  ASSERT_ACL_OK(aclrtFree(made.memory));
}

}  // namespace
