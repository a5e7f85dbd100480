// Conformance: fault injection, for backends that simulate faults (others
// answer kUnimplemented and these tests skip).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr uint64_t kSize = 64 * 1024;

TEST_P(FaultConformanceTest, MemoryLossZeroesContentsAndReportsAnEvent) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kSize, 32));
  const std::vector<unsigned char> data = Pattern(kSize, 40);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kSize));
  const absl::Status injected = backend().InjectFault(0, Fault::kMemoryLoss);
  ASCEND_SKIP_IF_UNIMPLEMENTED(injected);
  ASSERT_OK(injected);
  // The allocation is still live, its contents are gone.
  ASSERT_EQ(device().Allocations().size(), 1u);
  EXPECT_EQ(device().Allocations()[0].addr, addr);
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), addr, kSize));
  EXPECT_EQ(read, std::vector<unsigned char>(kSize, 0));
  const std::optional<HealthEvent> event =
      backend().WaitHealthEvent(absl::Seconds(10));
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(event->device_id, 0);
  EXPECT_TRUE(event->device_abnormal);
  EXPECT_FALSE(event->description.empty());
  // The memory stays usable.
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kSize));
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> again,
                       ReadBack(device(), addr, kSize));
  EXPECT_EQ(again, data);
}

TEST_P(FaultConformanceTest, NextCopyFailsExactlyOnce) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kSize, 32));
  const std::vector<unsigned char> data = Pattern(kSize, 41);
  const absl::Status injected = backend().InjectFault(0, Fault::kNextCopyFails);
  ASCEND_SKIP_IF_UNIMPLEMENTED(injected);
  ASSERT_OK(injected);
  EXPECT_EQ(device().CopyToDevice(addr, data.data(), kSize).code(),
            absl::StatusCode::kDataLoss);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kSize));
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), addr, kSize));
  EXPECT_EQ(read, data);
}

TEST_P(FaultConformanceTest, NextCopyCorruptsExactlyOneByteOnce) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kSize, 32));
  const std::vector<unsigned char> data = Pattern(kSize, 42);
  const absl::Status injected =
      backend().InjectFault(0, Fault::kNextCopyCorrupts);
  ASCEND_SKIP_IF_UNIMPLEMENTED(injected);
  ASSERT_OK(injected);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kSize));
  ASSERT_OK_AND_ASSIGN(std::vector<unsigned char> read,
                       ReadBack(device(), addr, kSize));
  int differing = 0;
  for (size_t i = 0; i < kSize; ++i) differing += read[i] != data[i];
  EXPECT_EQ(differing, 1);
  // One-shot: the next copies are clean.
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kSize));
  ASSERT_OK_AND_ASSIGN(read, ReadBack(device(), addr, kSize));
  EXPECT_EQ(read, data);
}

TEST_P(FaultConformanceTest, FaultsStayOnTheirDevice) {
  if (backend().DeviceCount() < 2) GTEST_SKIP() << "needs two devices";
  const absl::Status injected = backend().InjectFault(1, Fault::kNextCopyFails);
  ASCEND_SKIP_IF_UNIMPLEMENTED(injected);
  ASSERT_OK(injected);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kSize, 32));
  const std::vector<unsigned char> data = Pattern(kSize, 43);
  EXPECT_OK(device().CopyToDevice(addr, data.data(), kSize));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> other, backend().Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr other_addr, other->Allocate(kSize, 32));
  EXPECT_EQ(other->CopyToDevice(other_addr, data.data(), kSize).code(),
            absl::StatusCode::kDataLoss);
}

TEST_P(FaultConformanceTest, FaultsRejectDevicesOutOfRange) {
  const absl::Status probe = backend().InjectFault(-1, Fault::kNextCopyFails);
  ASCEND_SKIP_IF_UNIMPLEMENTED(probe);
  EXPECT_EQ(probe.code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(
      backend().InjectFault(backend().DeviceCount(), Fault::kMemoryLoss).code(),
      absl::StatusCode::kOutOfRange);
  // Nothing was queued by the rejected injection.
  EXPECT_FALSE(backend().WaitHealthEvent(absl::ZeroDuration()).has_value());
}

}  // namespace
}  // namespace ascend::device::conformance
