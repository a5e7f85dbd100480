// Conformance: copies in every direction, range validation, fill, checksum.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

TEST_P(CopyConformanceTest, HostToDeviceToHostRoundTrips) {
  const uint64_t size = kMiB + 123;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
  const std::vector<unsigned char> data = Pattern(size, 10);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), size));
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), addr, size));
  EXPECT_EQ(read, data);
}

TEST_P(CopyConformanceTest, CopiesStartAnywhereInsideAnAllocation) {
  const uint64_t size = 64 * kKiB;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
  std::vector<unsigned char> expected = Pattern(size, 11);
  ASSERT_OK(device().CopyToDevice(addr, expected.data(), size));
  const std::vector<unsigned char> patch = Pattern(100, 12);
  ASSERT_OK(device().CopyToDevice(addr + 1001, patch.data(), patch.size()));
  std::copy(patch.begin(), patch.end(), expected.begin() + 1001);
  // The last bytes, exactly up to the end.
  ASSERT_OK(device().CopyToDevice(addr + size - 7, patch.data(), 7));
  std::copy(patch.begin(), patch.begin() + 7, expected.end() - 7);
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), addr, size));
  EXPECT_EQ(read, expected);
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> tail,
                       ReadBack(device(), addr + 1001, 100));
  EXPECT_EQ(tail, patch);
}

TEST_P(CopyConformanceTest, CopyWithinDeviceBetweenAndInsideAllocations) {
  const uint64_t size = 256 * kKiB;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device().Allocate(size, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device().Allocate(size, 32));
  const std::vector<unsigned char> data = Pattern(size, 13);
  ASSERT_OK(device().CopyToDevice(a, data.data(), size));
  ASSERT_OK(device().CopyWithinDevice(b, a, size));
  ASSERT_OK_AND_ASSIGN(std::vector<unsigned char> read,
                       ReadBack(device(), b, size));
  EXPECT_EQ(read, data);
  // First half of b onto its second half (no overlap).
  ASSERT_OK(device().CopyWithinDevice(b + size / 2, b, size / 2));
  ASSERT_OK_AND_ASSIGN(read, ReadBack(device(), b + size / 2, size / 2));
  EXPECT_TRUE(std::equal(read.begin(), read.end(), data.begin()));
}

TEST_P(CopyConformanceTest, RejectsRangesOutsideOneLiveAllocation) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device().Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device().Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr freed, device().Allocate(4096, 32));
  ASSERT_OK(device().Free(freed));
  std::vector<unsigned char> host = Pattern(8192, 14);
  const auto invalid = absl::StatusCode::kInvalidArgument;
  // Running past the end (into whatever follows, maybe another allocation).
  EXPECT_EQ(device().CopyToDevice(a + 4000, host.data(), 200).code(), invalid);
  EXPECT_EQ(device().CopyToDevice(a, host.data(), 4097).code(), invalid);
  EXPECT_EQ(device().CopyFromDevice(host.data(), a + 4000, 200).code(),
            invalid);
  EXPECT_EQ(device().CopyWithinDevice(b, a + 4000, 200).code(), invalid);
  EXPECT_EQ(device().CopyWithinDevice(a + 4000, b, 200).code(), invalid);
  EXPECT_EQ(device().Fill(a + 4000, 1, 200).code(), invalid);
  // Addresses that are not allocated at all.
  EXPECT_EQ(device().CopyToDevice(freed, host.data(), 16).code(), invalid);
  EXPECT_EQ(device().CopyFromDevice(host.data(), freed, 16).code(), invalid);
  EXPECT_EQ(device().CopyWithinDevice(a, freed, 16).code(), invalid);
  EXPECT_EQ(device().Fill(freed, 1, 16).code(), invalid);
  EXPECT_EQ(device().CopyToDevice(0, host.data(), 16).code(), invalid);
  // Nothing was written by the rejected calls.
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), a, 4096));
  EXPECT_EQ(std::count(read.begin(), read.end(), 0), 4096);
}

TEST_P(CopyConformanceTest, FillSetsExactlyTheRange) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(8192, 32));
  ASSERT_OK(device().Fill(addr + 100, 0xAB, 1000));
  ASSERT_OK_AND_ASSIGN(std::vector<unsigned char> read,
                       ReadBack(device(), addr, 8192));
  for (size_t i = 0; i < read.size(); ++i) {
    ASSERT_EQ(read[i], (i >= 100 && i < 1100) ? 0xAB : 0) << "byte " << i;
  }
  ASSERT_OK(device().Fill(addr, 0x00, 8192));
  ASSERT_OK_AND_ASSIGN(read, ReadBack(device(), addr, 8192));
  EXPECT_EQ(std::count(read.begin(), read.end(), 0), 8192);
}

TEST_P(CopyConformanceTest, ChecksumFollowsContent) {
  const uint64_t size = 64 * kKiB + 5;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device().Allocate(size, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device().Allocate(size, 32));
  const std::vector<unsigned char> data = Pattern(size, 15);
  ASSERT_OK(device().CopyToDevice(a, data.data(), size));
  ASSERT_OK(device().CopyToDevice(b, data.data(), size));
  const absl::StatusOr<uint64_t> sum_a = device().Checksum(a, size);
  ASCEND_SKIP_IF_UNIMPLEMENTED(sum_a.status());
  ASSERT_OK(sum_a);
  ASSERT_OK_AND_ASSIGN(const uint64_t sum_b, device().Checksum(b, size));
  EXPECT_EQ(*sum_a, sum_b);
  // Any one changed byte changes it.
  const unsigned char changed = data[777] ^ 0x01;
  ASSERT_OK(device().CopyToDevice(b + 777, &changed, 1));
  ASSERT_OK_AND_ASSIGN(const uint64_t sum_changed, device().Checksum(b, size));
  EXPECT_NE(sum_changed, *sum_a);
  // Sub-ranges of equal content agree; ranges must lie in the allocation.
  ASSERT_OK_AND_ASSIGN(const uint64_t head_a, device().Checksum(a, 700));
  ASSERT_OK_AND_ASSIGN(const uint64_t head_b, device().Checksum(b, 700));
  EXPECT_EQ(head_a, head_b);
  EXPECT_EQ(device().Checksum(a + 1, size).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ascend::device::conformance
