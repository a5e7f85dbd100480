// Conformance: copies between two devices of one backend.
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr uint64_t kSize = 256 * 1024;

TEST_P(PeerConformanceTest, CopyPeerMovesBytesBothWays) {
  if (backend().DeviceCount() < 2) {
    GTEST_SKIP() << "needs two devices, backend has "
                 << backend().DeviceCount();
  }
  if (!backend().CanAccessPeer(0, 1) || !backend().CanAccessPeer(1, 0)) {
    GTEST_SKIP() << "backend reports no peer access between devices 0 and 1";
  }
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> other, backend().Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device().Allocate(kSize, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, other->Allocate(kSize, 32));
  const std::vector<unsigned char> data = Pattern(kSize, 30);
  ASSERT_OK(device().CopyToDevice(a, data.data(), kSize));

  ASSERT_OK(backend().CopyPeer(*other, b, device(), a, kSize));
  ASSERT_OK_AND_ASSIGN(std::vector<unsigned char> read,
                       ReadBack(*other, b, kSize));
  EXPECT_EQ(read, data);

  // Back, at offsets, onto zeros.
  ASSERT_OK(device().Fill(a, 0, kSize));
  ASSERT_OK(backend().CopyPeer(device(), a + 100, *other, b + 200, 1000));
  ASSERT_OK_AND_ASSIGN(read, ReadBack(device(), a, kSize));
  for (size_t i = 0; i < kSize; ++i) {
    ASSERT_EQ(read[i], (i >= 100 && i < 1100) ? data[i + 100] : 0)
        << "byte " << i;
  }
}

TEST_P(PeerConformanceTest, CopyPeerRejectsRangesOutsideAllocations) {
  if (backend().DeviceCount() < 2 || !backend().CanAccessPeer(0, 1)) {
    GTEST_SKIP() << "needs two devices with peer access";
  }
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> other, backend().Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device().Allocate(kSize, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, other->Allocate(kSize, 32));
  const auto invalid = absl::StatusCode::kInvalidArgument;
  EXPECT_EQ(backend().CopyPeer(*other, b + kSize - 10, device(), a, 100).code(),
            invalid);
  EXPECT_EQ(backend().CopyPeer(*other, b, device(), a + kSize - 10, 100).code(),
            invalid);
  // Addresses of one device are not valid on the other.
  EXPECT_EQ(backend().CopyPeer(*other, a, device(), b, 100).code(), invalid);
}

}  // namespace
}  // namespace ascend::device::conformance
