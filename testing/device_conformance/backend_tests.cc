// Conformance: backend identity, opening and closing devices, process
// resource backup.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST_P(BackendConformanceTest, ReportsNameSocAndDevices) {
  EXPECT_FALSE(backend().name().empty());
  EXPECT_FALSE(backend().SocName().empty());
  EXPECT_GE(backend().DeviceCount(), 1);
  EXPECT_EQ(device().id(), 0);
}

TEST_P(BackendConformanceTest, OpenRejectsIdsOutOfRange) {
  EXPECT_EQ(backend().Open(-1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(backend().Open(backend().DeviceCount()).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(backend().Open(std::numeric_limits<int32_t>::max()).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST_P(BackendConformanceTest, OpenTwiceFailsUntilTheDeviceIsDestroyed) {
  EXPECT_EQ(backend().Open(0).status().code(),
            absl::StatusCode::kFailedPrecondition);
  device_.reset();
  ASSERT_OK_AND_ASSIGN(device_, backend().Open(0));
  EXPECT_EQ(device_->id(), 0);
  EXPECT_EQ(backend().Open(0).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_P(BackendConformanceTest, DevicesOpenTogetherWithTheirIds) {
  const int32_t count = std::min(backend().DeviceCount(), 4);
  std::vector<std::unique_ptr<Device>> devices;
  for (int32_t id = 1; id < count; ++id) {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> opened, backend().Open(id));
    EXPECT_EQ(opened->id(), id);
    devices.push_back(std::move(opened));
  }
}

TEST_P(BackendConformanceTest, DestroyingADeviceReleasesItsMemory) {
  const MemoryInfo before = device().GetMemoryInfo();
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kMiB, 512));
  const std::vector<unsigned char> data = Pattern(kMiB, 1);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), data.size()));
  device_.reset();
  ASSERT_OK_AND_ASSIGN(device_, backend().Open(0));
  EXPECT_TRUE(device().Allocations().empty());
  EXPECT_FALSE(device().FindAllocation(addr).has_value());
  EXPECT_EQ(device().GetMemoryInfo().free_bytes, before.free_bytes);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr again, device().Allocate(kMiB, 512));
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), again, kMiB));
  EXPECT_EQ(std::count(read.begin(), read.end(), 0), kMiB);
}

TEST_P(BackendConformanceTest, ProcessResourceBackupLeavesMemoryIntact) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr,
                       device().Allocate(64 * 1024, 512));
  const std::vector<unsigned char> data = Pattern(64 * 1024, 2);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), data.size()));
  const absl::Status backup = backend().BackupProcessResources();
  ASCEND_SKIP_IF_UNIMPLEMENTED(backup);
  ASSERT_OK(backup);
  ASSERT_EQ(device().Allocations().size(), 1u);
  EXPECT_EQ(device().Allocations()[0].addr, addr);
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), addr, data.size()));
  EXPECT_EQ(read, data);
}

TEST_P(BackendConformanceTest, CanAccessPeerRejectsInvalidDevices) {
  const int32_t count = backend().DeviceCount();
  EXPECT_FALSE(backend().CanAccessPeer(-1, 0));
  EXPECT_FALSE(backend().CanAccessPeer(0, -1));
  EXPECT_FALSE(backend().CanAccessPeer(0, count));
  EXPECT_FALSE(backend().CanAccessPeer(count, 0));
}

}  // namespace
}  // namespace ascend::device::conformance
