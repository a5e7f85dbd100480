// Conformance: several threads using one device at once (smoke test; run it
// under ThreadSanitizer too).
#include <cstdint>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr int kThreads = 4;
constexpr int kIterations = 40;

TEST_P(ConcurrencyConformanceTest, ThreadsAllocateCopyAndFreeInParallel) {
  const MemoryInfo before = device().GetMemoryInfo();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t] {
      Device& dev = device();
      for (int i = 0; i < kIterations; ++i) {
        const uint64_t size = 4096 * (1 + (i * 7 + t) % 16) + t;
        absl::StatusOr<DeviceAddr> a = dev.Allocate(size, 32);
        absl::StatusOr<DeviceAddr> b = dev.Allocate(size, 32);
        ASSERT_OK(a);
        ASSERT_OK(b);
        const std::vector<unsigned char> data =
            Pattern(size, static_cast<uint32_t>(t * 1000 + i));
        ASSERT_OK(dev.CopyToDevice(*a, data.data(), size));
        ASSERT_OK(dev.CopyWithinDevice(*b, *a, size));
        ASSERT_OK(dev.Fill(*a, 0, size / 2));
        std::vector<unsigned char> read(size);
        ASSERT_OK(dev.CopyFromDevice(read.data(), *b, size));
        EXPECT_EQ(read, data) << "thread " << t << " iteration " << i;
        ASSERT_OK(dev.CopyFromDevice(read.data(), *a, size));
        for (uint64_t j = 0; j < size; ++j) {
          ASSERT_EQ(read[j], j < size / 2 ? 0 : data[j]);
        }
        absl::StatusOr<uint32_t> id = dev.AllocateId(ResourceKind::kEvent);
        ASSERT_OK(id);
        dev.ReleaseId(ResourceKind::kEvent, *id);
        ASSERT_OK(dev.Free(*a));
        ASSERT_OK(dev.Free(*b));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(device().Allocations().empty());
  EXPECT_EQ(device().GetMemoryInfo().free_bytes, before.free_bytes);
}

TEST_P(ConcurrencyConformanceTest, ThreadsCopyIntoDisjointPartsOfOneBuffer) {
  constexpr uint64_t kPart = 64 * 1024;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr,
                       device().Allocate(kPart * kThreads, 32));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, addr] {
      for (int i = 0; i < kIterations; ++i) {
        const std::vector<unsigned char> data =
            Pattern(kPart, static_cast<uint32_t>(t * 1000 + i));
        ASSERT_OK(device().CopyToDevice(addr + t * kPart, data.data(), kPart));
        std::vector<unsigned char> read(kPart);
        ASSERT_OK(
            device().CopyFromDevice(read.data(), addr + t * kPart, kPart));
        ASSERT_EQ(read, data) << "thread " << t << " iteration " << i;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

}  // namespace
}  // namespace ascend::device::conformance
