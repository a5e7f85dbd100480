// The coordinator over private instances (a runtime over a small simulated
// backend, its own GlobalState and callback registry) and participants
// that record what is asked of them: the state machine, what Backup and
// Restore hand to the participants, and what their failures leave.
#include "snapshot/coordinator.h"

#include <memory>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "runtime/snapshot_support/snapshot_support.h"
#include "snapshot/testing_participants.h"
#include "testing/status_matchers.h"

namespace ascend::snapshot {
namespace {

using rt::ProcessState;
using testing::CallLog;
using testing::RecordingParticipant;

class CoordinatorTest : public ::testing::Test {
 protected:
  CoordinatorTest() {
    save_result_ = std::make_shared<absl::Status>();
    restore_fails_ = std::make_shared<int>(0);
    auto registry = std::make_unique<ParticipantRegistry>();
    RecordingParticipant::Behaviour device;
    EXPECT_OK(registry->Register(
        std::make_unique<RecordingParticipant>("device", &log_, device)));
    RecordingParticipant::Behaviour memory;
    memory.save_result = save_result_;
    memory.restore_fails = restore_fails_;
    memory.bytes = 4096;
    EXPECT_OK(registry->Register(
        std::make_unique<RecordingParticipant>("memory", &log_, memory)));
    coordinator_ = std::make_unique<Coordinator>(
        *runtime_, runtime_.state(), callbacks_, std::move(registry),
        Coordinator::Options{});
  }

  ProcessState State() { return coordinator_->GetState(); }

  rt::PrivateRuntime runtime_;
  CallbackRegistry callbacks_;
  CallLog log_;
  std::shared_ptr<absl::Status> save_result_;
  std::shared_ptr<int> restore_fails_;
  std::unique_ptr<Coordinator> coordinator_;
};

TEST_F(CoordinatorTest, FullCycleHandsEveryOpenDeviceToTheParticipants) {
  ASSERT_OK(runtime_->SetDevice(1));
  ASSERT_OK(runtime_->SetDevice(0));
  ASSERT_OK(coordinator_->Lock());
  EXPECT_EQ(State(), ProcessState::kLocked);
  ASSERT_OK(coordinator_->Backup());
  EXPECT_EQ(State(), ProcessState::kBackedUp);
  EXPECT_EQ(log_, (CallLog{"save device 0", "save device 1", "save memory 0",
                           "save memory 1"}));
  EXPECT_EQ(coordinator_->backup_bytes(), 2 * 4096u);
  log_.clear();
  ASSERT_OK(coordinator_->Restore());
  EXPECT_EQ(State(), ProcessState::kLocked);
  EXPECT_EQ(log_, (CallLog{"restore device 0", "restore device 1",
                           "restore memory 0", "restore memory 1"}));
  ASSERT_OK(coordinator_->Unlock());
  EXPECT_EQ(State(), ProcessState::kRunning);
  // The process's own state machine was never involved.
  EXPECT_EQ(rt::GlobalState::Get().state(), ProcessState::kRunning);
}

TEST_F(CoordinatorTest, BackupWithoutAnOpenDeviceIs107002) {
  ASSERT_OK(coordinator_->Lock());
  EXPECT_EQ(rt::ErrorCode(coordinator_->Backup()), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(State(), ProcessState::kLocked);
  EXPECT_TRUE(log_.empty());
  ASSERT_OK(coordinator_->Unlock());
}

TEST_F(CoordinatorTest, FailedBackupStaysLockedAndKeepsThePreviousBackup) {
  ASSERT_OK(runtime_->SetDevice(0));
  ASSERT_OK(coordinator_->Lock());
  ASSERT_OK(coordinator_->Backup());
  ASSERT_OK(coordinator_->Restore());  // back to LOCKED, backup kept
  *save_result_ = absl::ResourceExhaustedError("out of host memory");
  EXPECT_EQ(rt::ErrorCode(coordinator_->Backup()),
            ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(State(), ProcessState::kLocked);
  EXPECT_EQ(coordinator_->backup_bytes(), 4096u);
  ASSERT_OK(coordinator_->Unlock());
}

TEST_F(CoordinatorTest, FailedRestoreStaysBackedUpAndCanBeRetried) {
  ASSERT_OK(runtime_->SetDevice(0));
  ASSERT_OK(coordinator_->Lock());
  ASSERT_OK(coordinator_->Backup());
  *restore_fails_ = 2;
  for (int attempt = 0; attempt < 2; ++attempt) {
    EXPECT_EQ(rt::ErrorCode(coordinator_->Restore()),
              ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
    EXPECT_EQ(State(), ProcessState::kBackedUp);
  }
  log_.clear();
  ASSERT_OK(coordinator_->Restore());
  EXPECT_EQ(log_, (CallLog{"restore device 0", "restore memory 0"}));
  EXPECT_EQ(State(), ProcessState::kLocked);
  ASSERT_OK(coordinator_->Unlock());
}

TEST_F(CoordinatorTest, BuiltinParticipantsBackUpAndRestoreRealMemory) {
  // The default constructor registers the built-in participants.
  Coordinator coordinator(*runtime_, runtime_.state(), callbacks_,
                          Coordinator::Options{});
  ASSERT_OK(runtime_->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(
      void* ptr, runtime_.memory().Malloc(8192, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> bytes(8192);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  ASSERT_OK(runtime_.memory().Memcpy(ptr, bytes.size(), bytes.data(),
                                     bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_OK(coordinator.Lock());
  ASSERT_OK(coordinator.Backup());
  EXPECT_EQ(coordinator.backup_bytes(), 8192u);
  ASSERT_OK(ascend::rt::SnapshotSupport::Of(*runtime_)->InjectFault(
      0, device::Fault::kMemoryLoss));
  ASSERT_OK(coordinator.Restore());
  ASSERT_OK(coordinator.Unlock());
  std::vector<uint8_t> back(bytes.size());
  ASSERT_OK(runtime_.memory().Memcpy(back.data(), back.size(), ptr, back.size(),
                                     ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, bytes);
}

}  // namespace
}  // namespace ascend::snapshot
