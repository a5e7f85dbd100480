// The npu backend over a driver that sees no device: the BUILD file gives the
// stand-in 0 devices; enumeration failures are injected.
#include <memory>

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

TEST(NpuZeroDevicesTest, NoDeviceToOpen) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend, CreateNpuBackend());
  EXPECT_EQ(backend->DeviceCount(), 0);
  EXPECT_EQ(backend->SocName(), "");
  EXPECT_EQ(backend->Open(0).status().code(), absl::StatusCode::kOutOfRange);
  // The driver itself is there: backup of nothing works.
  EXPECT_OK(backend->BackupProcessResources());
}

TEST(NpuZeroDevicesTest, EnumerationErrorsAreReportedByOpen) {
  ASSERT_OK_AND_ASSIGN(
      FakeHalClient hal,
      FakeHalClient::Attach(internal::HalLibrary::DefaultPath()));
  hal.InjectError("drvGetDevNum", DRV_ERROR_NO_DEVICE);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend, CreateNpuBackend());
  EXPECT_EQ(backend->DeviceCount(), 0);
  absl::StatusOr<std::unique_ptr<Device>> device = backend->Open(0);
  EXPECT_EQ(device.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(device.status().message(), HasSubstr("drvGetDevNum"));
  EXPECT_THAT(device.status().message(), HasSubstr("207004"));
}

}  // namespace
}  // namespace ascend::device::npu
