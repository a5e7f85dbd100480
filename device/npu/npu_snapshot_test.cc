// The npu backend's snapshot primitives over the stand-in driver, in the
// order the runtime's snapshot coordinator uses them: BackupProcessResources
// (halProcessResBackup), Reopen of every device (host-user close, open),
// RestoreProcessResources (halProcessResRestore), then FindAllocation /
// AllocateAt. The BUILD file gives the stand-in 2 devices.
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "device/npu/internal/hal_abi.h"
#include "device/npu/internal/hal_library.h"
#include "device/npu/npu_backend.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fake_driver/fake_hal_client.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu {
namespace {

using ::ascend::testing::FakeHalClient;
using ::testing::HasSubstr;

constexpr uint64_t kMiB = 1ULL << 20;

std::vector<uint8_t> Pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 7);
  }
  return bytes;
}

std::vector<uint8_t> Read(Device& device, DeviceAddr addr, size_t size) {
  std::vector<uint8_t> out(size);
  EXPECT_OK(device.CopyFromDevice(out.data(), addr, size));
  return out;
}

class NpuSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(
        FakeHalClient hal,
        FakeHalClient::Attach(internal::HalLibrary::DefaultPath()));
    hal_ = std::make_unique<FakeHalClient>(hal);
    ASSERT_OK_AND_ASSIGN(backend_, CreateNpuBackend());
    ASSERT_OK_AND_ASSIGN(d0_, backend_->Open(0));
    ASSERT_OK_AND_ASSIGN(d1_, backend_->Open(1));
  }

  void TearDown() override {
    for (const char* name :
         {"halDeviceOpen", "halDeviceClose", "halProcessResBackup",
          "halProcessResRestore", "drvMemsetD8"}) {
      hal_->ClearError(name);
    }
  }

  std::unique_ptr<FakeHalClient> hal_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Device> d0_;
  std::unique_ptr<Device> d1_;
};

TEST_F(NpuSnapshotTest, BackupReopenRestoreBringsBackSameAddressesAndBytes) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0_->Allocate(5000, 32));
  ASSERT_OK_AND_ASSIGN(DeviceAddr b, d0_->Allocate(3 * kMiB, 32));
  ASSERT_OK_AND_ASSIGN(DeviceAddr c, d1_->Allocate(777, 32));
  const std::vector<uint8_t> a_bytes = Pattern(5000, 1);
  const std::vector<uint8_t> b_bytes = Pattern(3 * kMiB, 2);
  const std::vector<uint8_t> c_bytes = Pattern(777, 3);
  ASSERT_OK(d0_->CopyToDevice(a, a_bytes.data(), a_bytes.size()));
  ASSERT_OK(d0_->CopyToDevice(b, b_bytes.data(), b_bytes.size()));
  ASSERT_OK(d1_->CopyToDevice(c, c_bytes.data(), c_bytes.size()));

  const uint64_t backups = hal_->CallCount("halProcessResBackup");
  ASSERT_OK(backend_->BackupProcessResources());
  EXPECT_EQ(hal_->CallCount("halProcessResBackup"), backups + 1);
  // Later writes are not in the backup.
  ASSERT_OK(d0_->Fill(a, 0xEE, 5000));

  ASSERT_OK(d0_->Reopen());
  EXPECT_EQ(hal_->LastCloseType(), DEV_CLOSE_HOST_USER);
  ASSERT_OK(d1_->Reopen());
  EXPECT_TRUE(d0_->Allocations().empty());
  EXPECT_FALSE(d1_->FindAllocation(c).has_value());
  ASSERT_OK(backend_->RestoreProcessResources());

  // The driver re-created every allocation at its address with its bytes.
  const std::vector<Allocation> live = d0_->Allocations();
  ASSERT_EQ(live.size(), 2u);
  ASSERT_TRUE(d0_->FindAllocation(a).has_value());
  EXPECT_EQ(d0_->FindAllocation(a)->size, 5000u);
  EXPECT_EQ(d0_->FindAllocation(b + kMiB)->addr, b);
  EXPECT_EQ(d1_->FindAllocation(c)->size, 777u);
  EXPECT_EQ(Read(*d0_, a, 5000), a_bytes);
  EXPECT_EQ(Read(*d0_, b, 3 * kMiB), b_bytes);
  EXPECT_EQ(Read(*d1_, c, 777), c_bytes);

  // AllocateAt takes a dropped allocation back once, zero-filled.
  ASSERT_OK(d1_->AllocateAt(c, 777));
  EXPECT_EQ(Read(*d1_, c, 777), std::vector<uint8_t>(777, 0));
  EXPECT_EQ(d1_->AllocateAt(c, 777).code(), absl::StatusCode::kAlreadyExists);
  // The restored allocations are ordinary ones.
  ASSERT_OK(d0_->Free(a));
  ASSERT_OK(d0_->Free(b));
}

TEST_F(NpuSnapshotTest, AllocateAtRestoresThroughTheDriverWhenNeeded) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0_->Allocate(64 * 1024, 32));
  ASSERT_OK(backend_->BackupProcessResources());
  ASSERT_OK(d0_->Reopen());
  ASSERT_OK(d1_->Reopen());
  const uint64_t restores = hal_->CallCount("halProcessResRestore");
  // Overlapping the dropped range with another extent is not a take-back.
  EXPECT_EQ(d0_->AllocateAt(a, 4096).code(), absl::StatusCode::kUnimplemented);
  ASSERT_OK(d0_->AllocateAt(a, 64 * 1024));
  EXPECT_EQ(hal_->CallCount("halProcessResRestore"), restores + 1);
  EXPECT_EQ(Read(*d0_, a, 64 * 1024), std::vector<uint8_t>(64 * 1024, 0));
  EXPECT_EQ(d0_->AllocateAt(a, 64 * 1024).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(d0_->AllocateAt(a + 4096, 16).code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(NpuSnapshotTest, AllocateAtCannotPlaceWhatTheDriverDidNotSave) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr saved, d0_->Allocate(4096, 32));
  ASSERT_OK(backend_->BackupProcessResources());
  ASSERT_OK_AND_ASSIGN(DeviceAddr later, d0_->Allocate(4096, 32));
  ASSERT_OK(d0_->Reopen());
  // Allocated after the backup: dropped, but the driver cannot re-create it.
  absl::Status status = d0_->AllocateAt(later, 4096);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("not in the last driver backup"));
  // Never allocated at all.
  EXPECT_EQ(d0_->AllocateAt(later + 64 * kMiB, 4096).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_OK(d0_->AllocateAt(saved, 4096));
}

TEST_F(NpuSnapshotTest, FailedRestoreChangesNothingAndCanBeRetried) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0_->Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(DeviceAddr b, d1_->Allocate(4096, 32));
  const std::vector<uint8_t> bytes = Pattern(4096, 5);
  ASSERT_OK(d1_->CopyToDevice(b, bytes.data(), bytes.size()));
  ASSERT_OK(backend_->BackupProcessResources());
  ASSERT_OK(d0_->Reopen());
  // Device 1 was not re-opened: its allocation still holds the address.
  absl::Status status = backend_->RestoreProcessResources();
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(status.message(), HasSubstr("halProcessResRestore"));
  EXPECT_THAT(status.message(), HasSubstr("DRV_ERROR_BUSY"));
  EXPECT_TRUE(d0_->Allocations().empty());
  EXPECT_EQ(Read(*d1_, b, 4096), bytes);

  // An error injected into the driver call is mapped and changes nothing.
  ASSERT_OK(d1_->Reopen());
  hal_->InjectError("halProcessResRestore", DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(backend_->RestoreProcessResources().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(d0_->Allocations().empty());

  ASSERT_OK(backend_->RestoreProcessResources());
  EXPECT_TRUE(d0_->FindAllocation(a).has_value());
  EXPECT_EQ(Read(*d1_, b, 4096), bytes);
}

TEST_F(NpuSnapshotTest, BackupErrorsAreMappedAndLeaveDevicesAlone) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0_->Allocate(4096, 32));
  hal_->InjectError("halProcessResBackup", DRV_ERROR_NOT_SUPPORT);
  absl::Status status = backend_->BackupProcessResources();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("DRV_ERROR_NOT_SUPPORT"));
  EXPECT_EQ(d0_->Allocations().size(), 1u);
  EXPECT_TRUE(d0_->FindAllocation(a).has_value());
}

TEST_F(NpuSnapshotTest, ReopenFailures) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0_->Allocate(4096, 32));
  // The close fails: nothing changed.
  hal_->InjectError("halDeviceClose", DRV_ERROR_INNER_ERR);
  EXPECT_EQ(d0_->Reopen().code(), absl::StatusCode::kInternal);
  EXPECT_TRUE(d0_->FindAllocation(a).has_value());

  // The open fails: the device is closed until a Reopen succeeds.
  hal_->InjectError("halDeviceOpen", DRV_ERROR_NO_DEVICE);
  absl::Status status = d0_->Reopen();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(status.message(), HasSubstr("halDeviceOpen"));
  EXPECT_EQ(d0_->Allocate(64, 32).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(d0_->AllocateId(ResourceKind::kStream).status().code(),
            absl::StatusCode::kFailedPrecondition);
  uint8_t host[16];
  EXPECT_EQ(d0_->CopyFromDevice(host, a, 16).code(),
            absl::StatusCode::kFailedPrecondition);
  const uint64_t closes = hal_->CallCount("halDeviceClose");
  ASSERT_OK(d0_->Reopen());
  EXPECT_EQ(hal_->CallCount("halDeviceClose"), closes)
      << "a closed device is only opened";
  ASSERT_OK(d0_->Allocate(64, 32));
}

TEST_F(NpuSnapshotTest, DestroyedDeviceIsClosedNormallyAndDropsNothingElse) {
  ASSERT_OK_AND_ASSIGN(DeviceAddr b, d1_->Allocate(4096, 32));
  d0_.reset();
  EXPECT_EQ(hal_->LastCloseType(), DEV_CLOSE_HOST_DEVICE);
  EXPECT_TRUE(d1_->FindAllocation(b).has_value());
  ASSERT_OK_AND_ASSIGN(d0_, backend_->Open(0));
  EXPECT_TRUE(d0_->Allocations().empty());
}

}  // namespace
}  // namespace ascend::device::npu
