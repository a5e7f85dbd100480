// Driver errors end to end: stand-in driver -> npu backend (canonical status)
// -> the runtime's one status-to-ACL mapping (runtime/base/error.h). Pins the
// ACL codes an application sees where the canonical codes can carry CANN's
// exact code (§3 of ascend_hal_subset.md).
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "device/device.h"
#include "device/npu/internal/hal_abi.h"
#include "device/npu/internal/hal_error.h"
#include "device/npu/npu_backend.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/fake_driver/fake_hal_client.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu {
namespace {

using ::ascend::testing::FakeHalClient;
using internal::DriverErrorMapping;
using internal::DriverErrorTable;
using internal::DriverStatus;

std::string EnvPath(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

TEST(NpuAclCodeTest, DriverCodesWithAnExactCanonicalCodeReachTheirAclCode) {
  const std::set<int32_t> exact = {
      DRV_ERROR_NO_DEVICE,        DRV_ERROR_INVALID_DEVICE,
      DRV_ERROR_INVALID_VALUE,    DRV_ERROR_OUT_OF_MEMORY,
      DRV_ERROR_DEV_PROCESS_HANG, DRV_ERROR_MEMORY_OPT_FAIL,
      DRV_ERROR_CDQ_NOT_EXIST,    DRV_ERROR_NOT_SUPPORT,
  };
  for (const DriverErrorMapping& row : DriverErrorTable()) {
    const int32_t acl = rt::ErrorCode(DriverStatus("call", row.driver_code));
    if (row.driver_code == DRV_ERROR_NONE || exact.count(row.driver_code)) {
      EXPECT_EQ(acl, row.cann_acl_code) << "driver code " << row.driver_code;
    } else {
      // The rest land in the same class (1xxxxx/2xxxxx/5xxxxx) or on the
      // runtime's internal error.
      EXPECT_NE(acl, 0) << "driver code " << row.driver_code;
    }
  }
}

class NpuAclCodeBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(FakeHalClient hal,
                         FakeHalClient::Attach(EnvPath("FAKE_HAL")));
    hal_ = std::make_unique<FakeHalClient>(hal);
    NpuBackendOptions options;
    options.library_path = EnvPath("FAKE_HAL");
    ASSERT_OK_AND_ASSIGN(backend_, CreateNpuBackend(options));
  }

  std::unique_ptr<FakeHalClient> hal_;
  std::unique_ptr<Backend> backend_;
};

TEST_F(NpuAclCodeBackendTest, InjectedDriverErrors) {
  hal_->InjectError("halDeviceOpen", DRV_ERROR_INVALID_DEVICE);
  EXPECT_EQ(rt::ErrorCode(backend_->Open(0).status()), 107001);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));

  hal_->InjectError("halMemAlloc", DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(rt::ErrorCode(device->Allocate(4096, 32).status()), 207001);

  ASSERT_OK_AND_ASSIGN(DeviceAddr addr, device->Allocate(4096, 32));
  char host[16] = {};
  hal_->InjectError("drvMemcpy", DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(rt::ErrorCode(device->CopyToDevice(addr, host, 16)), 207000);
  hal_->InjectError("drvMemcpy", DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(rt::ErrorCode(device->CopyToDevice(addr, host, 16)), 107000);

  hal_->InjectError("halProcessResBackup", DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(rt::ErrorCode(backend_->BackupProcessResources()), 207000);
}

TEST(NpuAclCodeVariantTest, MissingSnapshotSymbolsGive207000) {
  NpuBackendOptions options;
  options.library_path = EnvPath("FAKE_HAL_NO_SNAPSHOT");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend,
                       CreateNpuBackend(options));
  EXPECT_EQ(rt::ErrorCode(backend->BackupProcessResources()), 207000);
  EXPECT_EQ(rt::ErrorCode(backend->RestoreProcessResources()), 207000);
}

TEST(NpuAclCodeVariantTest, MissingDriverGives207004) {
  NpuBackendOptions options;
  options.library_path = "/nonexistent/libascend_hal.so";
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend,
                       CreateNpuBackend(options));
  EXPECT_EQ(rt::ErrorCode(backend->Open(0).status()), 207004);
}

}  // namespace
}  // namespace ascend::device::npu
