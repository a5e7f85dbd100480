#include "snapshot/backup_image.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

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

namespace ascend::snapshot {
namespace {

// Saves that only succeed when every device's save is under way at once.
class SideBySideParticipant final : public rt::SnapshotParticipant {
 public:
  explicit SideBySideParticipant(int devices) : devices_(devices) {}
  absl::string_view name() const override { return "side_by_side"; }
  bool SavesDevicesConcurrently() const override { return true; }
  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++entered_;
    all_in_.notify_all();
    if (!all_in_.wait_for(lock, std::chrono::seconds(10),
                          [&] { return entered_ == devices_; })) {
      return absl::DeadlineExceededError("saves ran one after another");
    }
    return std::unique_ptr<rt::SavedState>(new State(device_id));
  }
  absl::StatusOr<std::string> Describe(int32_t) const override { return ""; }

  struct State final : rt::SavedState {
    explicit State(int32_t device) : device(device) {}
    absl::Status Restore() const override { return absl::OkStatus(); }
    const int32_t device;
  };

 private:
  const int devices_;
  std::mutex mu_;
  std::condition_variable all_in_;
  int entered_ = 0;
};

// A participant that allows it saves every device at once (device memory:
// DESIGN.md §4.15); the image keeps the device order.
TEST(BackupImageConcurrencyTest, DevicesSaveSideBySideInDeviceOrder) {
  ParticipantRegistry registry;
  ASSERT_OK(registry.Register(std::make_unique<SideBySideParticipant>(3)));
  absl::StatusOr<std::unique_ptr<BackupImage>> image =
      BackupImage::Save(registry, {2, 0, 1});
  ASSERT_OK(image.status());
  ASSERT_EQ((*image)->states().size(), 3u);
  EXPECT_EQ((*image)->states()[0].device_id, 2);
  EXPECT_EQ((*image)->states()[1].device_id, 0);
  EXPECT_EQ((*image)->states()[2].device_id, 1);
  const auto* first = dynamic_cast<const SideBySideParticipant::State*>(
      (*image)->states()[0].state.get());
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->device, 2);
}

}  // namespace
}  // namespace ascend::snapshot
