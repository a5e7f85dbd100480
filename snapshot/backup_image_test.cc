#include "snapshot/backup_image.h"

#include <memory>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "snapshot/testing_participants.h"
#include "testing/status_matchers.h"

namespace ascend::snapshot {
namespace {

using testing::CallLog;
using testing::RecordingParticipant;
using Scope = rt::SnapshotParticipant::Scope;

class BackupImageTest : public ::testing::Test {
 protected:
  void Add(const char* name, RecordingParticipant::Behaviour behaviour = {}) {
    ASSERT_OK(registry_.Register(
        std::make_unique<RecordingParticipant>(name, &log_, behaviour)));
  }
  CallLog log_;
  ParticipantRegistry registry_;
};

TEST_F(BackupImageTest, SavesInOrderAndRestoresParticipantByParticipant) {
  Add("device");
  RecordingParticipant::Behaviour process;
  process.scope = Scope::kProcess;
  Add("driver", process);
  Add("memory");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                       BackupImage::Save(registry_, {0, 3}));
  EXPECT_EQ(log_, (CallLog{"save device 0", "save device 3", "save driver -1",
                           "save memory 0", "save memory 3"}));
  log_.clear();
  ASSERT_OK(image->Restore());
  // Every device's state of one participant before the next participant.
  EXPECT_EQ(log_, (CallLog{"restore device 0", "restore device 3",
                           "restore driver -1", "restore memory 0",
                           "restore memory 3"}));
  EXPECT_EQ(image->devices(), (std::vector<int32_t>{0, 3}));
  ASSERT_EQ(image->StatesOf(3).size(), 2u);
  EXPECT_EQ(image->StatesOf(3)[0]->participant, "device");
  EXPECT_EQ(image->StatesOf(3)[1]->participant, "memory");
  EXPECT_EQ(image->StatesOf(rt::SnapshotParticipant::kProcessWide).size(), 1u);
  EXPECT_NE(image->Find(0, "memory"), nullptr);
  EXPECT_EQ(image->Find(1, "memory"), nullptr);
  EXPECT_EQ(image->Find(0, "driver"), nullptr);
}

TEST_F(BackupImageTest, FirstSaveFailureIsReturnedNamed) {
  Add("device");
  RecordingParticipant::Behaviour failing;
  failing.save_result = std::make_shared<absl::Status>(
      rt::Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "no room"));
  Add("memory", failing);
  Add("models");
  absl::StatusOr<std::unique_ptr<BackupImage>> image =
      BackupImage::Save(registry_, {0, 1});
  ASSERT_FALSE(image.ok());
  // The exact code survives the annotation.
  EXPECT_EQ(rt::ErrorCode(image.status()), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_NE(image.status().message().find("\"memory\", device 0"),
            std::string::npos)
      << image.status();
  EXPECT_EQ(log_.back(), "save memory 0");  // nothing after the failure
}

TEST_F(BackupImageTest, FailedRestoreStopsAndCanBeRetried) {
  Add("device");
  RecordingParticipant::Behaviour flaky;
  flaky.restore_fails = std::make_shared<int>(1);
  Add("memory", flaky);
  Add("models");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                       BackupImage::Save(registry_, {0}));
  log_.clear();
  const absl::Status failed = image->Restore();
  EXPECT_EQ(failed.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(failed.message().find("restore of snapshot participant "
                                  "\"memory\", device 0"),
            std::string::npos)
      << failed;
  EXPECT_EQ(log_, (CallLog{"restore device 0", "restore memory 0"}));
  log_.clear();
  ASSERT_OK(image->Restore());
  EXPECT_EQ(log_, (CallLog{"restore device 0", "restore memory 0",
                           "restore models 0"}));
}

TEST_F(BackupImageTest, TotalBytesSumsTheStates) {
  RecordingParticipant::Behaviour big;
  big.bytes = 1000;
  Add("memory", big);
  Add("device");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                       BackupImage::Save(registry_, {0, 1}));
  EXPECT_EQ(image->total_bytes(), 2000u);
}

}  // namespace
}  // namespace ascend::snapshot
