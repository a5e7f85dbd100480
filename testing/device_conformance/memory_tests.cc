// Conformance: allocation, zero fill, alignment, lookup, accounting and
// exhaustion.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

bool AllZero(const std::vector<unsigned char>& data) {
  return std::all_of(data.begin(), data.end(),
                     [](unsigned char b) { return b == 0; });
}

TEST_P(MemoryConformanceTest, FreshAllocationsAreZeroFilled) {
  for (const uint64_t size : {uint64_t{1}, uint64_t{100}, 4 * kKiB, kMiB + 7}) {
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
    ASSERT_OK_AND_ASSIGN(std::vector<unsigned char> read,
                         ReadBack(device(), addr, size));
    EXPECT_TRUE(AllZero(read)) << "size " << size;
    // Dirty it, free it, and allocate the same size again: still zeros.
    const std::vector<unsigned char> data = Pattern(size, 3);
    ASSERT_OK(device().CopyToDevice(addr, data.data(), size));
    ASSERT_OK(device().Free(addr));
    ASSERT_OK_AND_ASSIGN(const DeviceAddr again, device().Allocate(size, 32));
    ASSERT_OK_AND_ASSIGN(read, ReadBack(device(), again, size));
    EXPECT_TRUE(AllZero(read)) << "size " << size << " reallocated";
    ASSERT_OK(device().Free(again));
  }
}

TEST_P(MemoryConformanceTest, AllocateHonoursAlignment) {
  std::vector<DeviceAddr> addrs;
  for (uint64_t alignment = 1; alignment <= 2 * kMiB; alignment <<= 1) {
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr,
                         device().Allocate(100, alignment));
    EXPECT_EQ(addr % alignment, 0u) << "alignment " << alignment;
    addrs.push_back(addr);
  }
  for (const DeviceAddr addr : addrs) EXPECT_OK(device().Free(addr));
}

TEST_P(MemoryConformanceTest, AllocateRejectsInvalidArguments) {
  EXPECT_EQ(device().Allocate(0, 32).status().code(),
            absl::StatusCode::kInvalidArgument);
  for (const uint64_t alignment : {0, 3, 48, 1000}) {
    EXPECT_EQ(device().Allocate(64, alignment).status().code(),
              absl::StatusCode::kInvalidArgument)
        << "alignment " << alignment;
  }
  EXPECT_TRUE(device().Allocations().empty());
}

TEST_P(MemoryConformanceTest, AllocationsAreDisjointListedAndFound) {
  std::vector<Allocation> made;
  for (int i = 0; i < 16; ++i) {
    const uint64_t size = 1 + (static_cast<uint64_t>(i) * 7919) % (64 * kKiB);
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
    made.push_back({addr, size});
  }
  std::sort(
      made.begin(), made.end(),
      [](const Allocation& a, const Allocation& b) { return a.addr < b.addr; });
  for (size_t i = 1; i < made.size(); ++i) {
    EXPECT_LE(made[i - 1].addr + made[i - 1].size, made[i].addr);
  }
  const std::vector<Allocation> listed = device().Allocations();
  ASSERT_EQ(listed.size(), made.size());
  for (size_t i = 0; i < made.size(); ++i) {
    EXPECT_EQ(listed[i].addr, made[i].addr);
    EXPECT_EQ(listed[i].size, made[i].size);
    for (const DeviceAddr probe :
         {made[i].addr, made[i].addr + made[i].size / 2,
          made[i].addr + made[i].size - 1}) {
      const std::optional<Allocation> found = device().FindAllocation(probe);
      ASSERT_TRUE(found.has_value());
      EXPECT_EQ(found->addr, made[i].addr);
      EXPECT_EQ(found->size, made[i].size);
    }
    const std::optional<Allocation> past =
        device().FindAllocation(made[i].addr + made[i].size);
    EXPECT_TRUE(!past.has_value() || past->addr != made[i].addr);
  }
  for (const Allocation& allocation : made) {
    ASSERT_OK(device().Free(allocation.addr));
  }
  EXPECT_TRUE(device().Allocations().empty());
}

TEST_P(MemoryConformanceTest, FreeNeedsTheBaseOfALiveAllocation) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(4096, 32));
  EXPECT_EQ(device().Free(addr + 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device().Free(0).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device().Free(addr));
  EXPECT_EQ(device().Free(addr).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(device().FindAllocation(addr).has_value());
}

TEST_P(MemoryConformanceTest, MemoryInfoAccountsForAllocations) {
  const MemoryInfo before = device().GetMemoryInfo();
  EXPECT_GT(before.total_bytes, 0u);
  EXPECT_LE(before.free_bytes, before.total_bytes);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kMiB, 32));
  const MemoryInfo during = device().GetMemoryInfo();
  EXPECT_EQ(during.total_bytes, before.total_bytes);
  EXPECT_LE(during.free_bytes + kMiB, before.free_bytes);
  ASSERT_OK(device().Free(addr));
  EXPECT_EQ(device().GetMemoryInfo().free_bytes, before.free_bytes);
}

TEST_P(MemoryConformanceTest, ExhaustionReportsResourceExhausted) {
  const MemoryInfo info = device().GetMemoryInfo();
  if (info.total_bytes > 4 * options().device_memory_bytes) {
    GTEST_SKIP() << "backend ignored the requested capacity of "
                 << options().device_memory_bytes << " bytes (has "
                 << info.total_bytes << "); not exhausting it";
  }
  EXPECT_EQ(device().Allocate(info.total_bytes + 1, 32).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(device()
                .Allocate(std::numeric_limits<uint64_t>::max() / 2, 32)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  const uint64_t chunk = kMiB;
  std::vector<DeviceAddr> chunks;
  absl::Status last;
  while (chunks.size() <= info.total_bytes / chunk) {
    absl::StatusOr<DeviceAddr> addr = device().Allocate(chunk, 32);
    if (!addr.ok()) {
      last = addr.status();
      break;
    }
    chunks.push_back(*addr);
  }
  EXPECT_EQ(last.code(), absl::StatusCode::kResourceExhausted) << last;
  EXPECT_GE(chunks.size(), info.free_bytes / chunk / 2);
  EXPECT_LE(chunks.size(), info.total_bytes / chunk);
  EXPECT_LT(device().GetMemoryInfo().free_bytes, chunk);
  // Freeing one makes room for one more.
  ASSERT_FALSE(chunks.empty());
  ASSERT_OK(device().Free(chunks.back()));
  ASSERT_OK_AND_ASSIGN(chunks.back(), device().Allocate(chunk, 32));
  for (const DeviceAddr addr : chunks) ASSERT_OK(device().Free(addr));
  EXPECT_EQ(device().GetMemoryInfo().free_bytes, info.free_bytes);
}

TEST_P(MemoryConformanceTest, HostPointerIsNullOrAliasesDeviceMemory) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(4096, 32));
  const std::vector<unsigned char> data = Pattern(4096, 4);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), data.size()));
  auto* host = static_cast<unsigned char*>(device().HostPointer(addr));
  if (host != nullptr) {
    EXPECT_EQ(std::memcmp(host, data.data(), data.size()), 0);
    EXPECT_EQ(device().HostPointer(addr + 100), host + 100);
    std::memset(host + 10, 0xEE, 20);
    ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                         ReadBack(device(), addr, data.size()));
    EXPECT_EQ(read[9], data[9]);
    EXPECT_EQ(read[10], 0xEE);
    EXPECT_EQ(read[29], 0xEE);
    EXPECT_EQ(read[30], data[30]);
  }
  ASSERT_OK(device().Free(addr));
  EXPECT_EQ(device().HostPointer(addr), nullptr);
}

TEST_P(MemoryConformanceTest, DeviceOwningAddressNeverClaimsHostMemory) {
  int on_stack = 0;
  const auto on_heap = std::make_unique<char[]>(4096);
  EXPECT_EQ(backend().DeviceOwningAddress(0), std::nullopt);
  EXPECT_EQ(
      backend().DeviceOwningAddress(reinterpret_cast<DeviceAddr>(&on_stack)),
      std::nullopt);
  EXPECT_EQ(backend().DeviceOwningAddress(
                reinterpret_cast<DeviceAddr>(on_heap.get())),
            std::nullopt);
  EXPECT_EQ(backend().DeviceOwningAddress(~DeviceAddr{0}), std::nullopt);
}

TEST_P(MemoryConformanceTest, DeviceOwningAddressOutlivesFreeAndClose) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(4096, 32));
  const std::optional<int32_t> owner = backend().DeviceOwningAddress(addr);
  if (!owner.has_value()) {
    ASSERT_OK(device().Free(addr));
    GTEST_SKIP() << "the backend cannot tell device addresses (nullopt for a "
                    "live allocation)";
  }
  EXPECT_EQ(*owner, device().id());
  EXPECT_EQ(backend().DeviceOwningAddress(addr + 4095), device().id());
  ASSERT_OK(device().Free(addr));
  EXPECT_EQ(backend().DeviceOwningAddress(addr), device().id())
      << "a freed address still lies in its device's address space";

  if (backend().DeviceCount() < 2) return;
  DeviceAddr on_other = 0;
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> other, backend().Open(1));
    ASSERT_OK_AND_ASSIGN(on_other, other->Allocate(4096, 32));
    EXPECT_EQ(backend().DeviceOwningAddress(on_other), 1);
  }  // closed, with its allocation
  EXPECT_EQ(backend().DeviceOwningAddress(on_other), 1)
      << "an address of a closed device still names it";
  EXPECT_EQ(backend().DeviceOwningAddress(addr), device().id());
}

}  // namespace
}  // namespace ascend::device::conformance
