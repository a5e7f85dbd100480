// The npu backend over stand-in libraries that lack symbols, as an older or
// different driver might: optional ones (§4 of ascend_hal_subset.md) turn the
// operations that need them into kUnimplemented (CANN: 207000); a required one
// makes the driver unusable. Each library file is its own driver instance.
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "device/device.h"
#include "device/npu/npu_backend.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fake_driver/fake_hal_client.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu {
namespace {

using ::ascend::testing::FakeHalClient;
using ::testing::HasSubstr;

std::string EnvPath(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

std::unique_ptr<Backend> Make(const std::string& path) {
  NpuBackendOptions options;
  options.library_path = path;
  absl::StatusOr<std::unique_ptr<Backend>> backend = CreateNpuBackend(options);
  EXPECT_OK(backend);
  return backend.ok() ? *std::move(backend) : nullptr;
}

TEST(NpuVariantsTest, WithoutSnapshotCalls) {
  std::unique_ptr<Backend> backend = Make(EnvPath("STAND_IN_NO_SNAPSHOT"));
  ASSERT_NE(backend, nullptr);
  ASSERT_EQ(backend->DeviceCount(), 2);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(DeviceAddr addr, device->Allocate(4096, 32));

  absl::Status backup = backend->BackupProcessResources();
  EXPECT_EQ(backup.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(backup.message(), HasSubstr("halProcessResBackup"));
  absl::Status restore = backend->RestoreProcessResources();
  EXPECT_EQ(restore.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(restore.message(), HasSubstr("halProcessResRestore"));
  EXPECT_TRUE(device->FindAllocation(addr).has_value());

  // Reopen works; nothing can put the allocation back.
  ASSERT_OK(device->Reopen());
  EXPECT_EQ(device->AllocateAt(addr, 4096).code(),
            absl::StatusCode::kUnimplemented);
}

TEST(NpuVariantsTest, WithoutDeviceClose) {
  const std::string path = EnvPath("STAND_IN_NO_CLOSE");
  std::unique_ptr<Backend> backend = Make(path);
  ASSERT_NE(backend, nullptr);
  ASSERT_OK_AND_ASSIGN(FakeHalClient hal, FakeHalClient::Attach(path));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend->Open(1));
  const MemoryInfo empty = device->GetMemoryInfo();
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, device->Allocate(4096, 32));
  ASSERT_OK(device->Allocate(3 << 20, 32));

  // Reopen needs halDeviceClose: kUnimplemented before anything is touched.
  const absl::Status reopen = device->Reopen();
  EXPECT_EQ(reopen.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(reopen.message(), HasSubstr("halDeviceClose"));
  EXPECT_TRUE(device->FindAllocation(a).has_value());

  // Destroying the device frees its allocations one by one; the device stays
  // open in the driver and the next Open reuses it.
  const uint64_t frees = hal.CallCount("halMemFree");
  const uint64_t opens = hal.CallCount("halDeviceOpen");
  device.reset();
  EXPECT_EQ(hal.CallCount("halMemFree"), frees + 2);
  ASSERT_OK_AND_ASSIGN(device, backend->Open(1));
  EXPECT_EQ(hal.CallCount("halDeviceOpen"), opens);
  EXPECT_TRUE(device->Allocations().empty());
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, empty.free_bytes);
  EXPECT_EQ(backend->Open(1).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(NpuVariantsTest, WithoutARequiredSymbol) {
  const std::string path = EnvPath("STAND_IN_NO_MEMSET");
  std::unique_ptr<Backend> backend = Make(path);
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->DeviceCount(), 0);
  absl::StatusOr<std::unique_ptr<Device>> device = backend->Open(0);
  EXPECT_EQ(device.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(device.status().message(), HasSubstr("drvMemsetD8"));
  EXPECT_THAT(device.status().message(), HasSubstr(path));
}

}  // namespace
}  // namespace ascend::device::npu
