// Conformance: the snapshot primitives Reopen and AllocateAt, used the way
// the runtime's snapshot restore uses them: driver-level backup, Reopen,
// driver-level restore, then AllocateAt. A backend whose driver keeps
// addresses only through its own backup image (npu) can pass that way; the
// simulator's backup and restore do nothing.
#include <algorithm>
#include <cstdint>
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

// Backup, Reopen, Restore; the driver-level steps may be unimplemented.
void SnapshotReopen(Backend& backend, Device& device) {
  const absl::Status backup = backend.BackupProcessResources();
  if (backup.code() != absl::StatusCode::kUnimplemented) {
    ASSERT_OK(backup);
  }
  ASSERT_OK(device.Reopen());
  const absl::Status restore = backend.RestoreProcessResources();
  if (restore.code() != absl::StatusCode::kUnimplemented) {
    ASSERT_OK(restore);
  }
}

bool Overlaps(const Allocation& a, const Allocation& b) {
  return a.addr < b.addr + b.size && b.addr < a.addr + a.size;
}

TEST_P(ReopenConformanceTest, ReopenDropsAllocationsAndTheirContents) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(kMiB, 32));
  const std::vector<unsigned char> data = Pattern(kMiB, 21);
  ASSERT_OK(device().CopyToDevice(addr, data.data(), kMiB));
  ASSERT_OK(device().Reopen());
  EXPECT_TRUE(device().Allocations().empty());
  EXPECT_FALSE(device().FindAllocation(addr).has_value());
  std::vector<unsigned char> host(16);
  EXPECT_EQ(device().CopyFromDevice(host.data(), addr, 16).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device().Free(addr).code(), absl::StatusCode::kInvalidArgument);
  // The device works as usual afterwards.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr fresh, device().Allocate(4096, 32));
  ASSERT_OK(device().CopyToDevice(fresh, data.data(), 4096));
  ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                       ReadBack(device(), fresh, 4096));
  EXPECT_TRUE(std::equal(read.begin(), read.end(), data.begin()));
}

TEST_P(ReopenConformanceTest, AllocateAtPutsAllocationsBackAtTheirAddresses) {
  std::vector<Allocation> dropped;
  for (const uint64_t size : {64 * kKiB + 3, kMiB}) {
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
    const std::vector<unsigned char> data = Pattern(size, 22);
    ASSERT_OK(device().CopyToDevice(addr, data.data(), size));
    dropped.push_back({addr, size});
  }
  ASSERT_NO_FATAL_FAILURE(SnapshotReopen(backend(), device()));

  const absl::Status first =
      device().AllocateAt(dropped[0].addr, dropped[0].size);
  ASCEND_SKIP_IF_UNIMPLEMENTED(first);
  ASSERT_OK(first);
  ASSERT_OK(device().AllocateAt(dropped[1].addr, dropped[1].size));
  const std::vector<Allocation> listed = device().Allocations();
  ASSERT_EQ(listed.size(), 2u);
  std::sort(
      dropped.begin(), dropped.end(),
      [](const Allocation& a, const Allocation& b) { return a.addr < b.addr; });
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(listed[i].addr, dropped[i].addr);
    EXPECT_EQ(listed[i].size, dropped[i].size);
    // Re-established allocations read as zero, or, where a driver-level
    // restore re-created them (npu), as they were at the backup.
    ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> read,
                         ReadBack(device(), dropped[i].addr, dropped[i].size));
    const bool zero = std::all_of(read.begin(), read.end(),
                                  [](unsigned char b) { return b == 0; });
    EXPECT_TRUE(zero || read == Pattern(dropped[i].size, 22))
        << "allocation " << i << " holds neither zeros nor its old contents";
    // And usable.
    const std::vector<unsigned char> data = Pattern(dropped[i].size, 23);
    ASSERT_OK(device().CopyToDevice(dropped[i].addr, data.data(), data.size()));
    ASSERT_OK_AND_ASSIGN(const std::vector<unsigned char> again,
                         ReadBack(device(), dropped[i].addr, data.size()));
    EXPECT_EQ(again, data);
  }
  for (const Allocation& allocation : dropped) {
    EXPECT_OK(device().Free(allocation.addr));
  }
}

TEST_P(ReopenConformanceTest, DroppedAddressesAreNotHandedOutAgain) {
  std::vector<Allocation> dropped;
  for (const uint64_t size : {kMiB, 256 * kKiB}) {
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
    dropped.push_back({addr, size});
  }
  ASSERT_NO_FATAL_FAILURE(SnapshotReopen(backend(), device()));
  // Allocations of the same and other sizes avoid the dropped ranges.
  std::vector<DeviceAddr> fresh;
  for (const uint64_t size : {kMiB, 256 * kKiB, 4 * kKiB, 512 * kKiB, kMiB}) {
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(size, 32));
    for (const Allocation& old : dropped) {
      EXPECT_FALSE(Overlaps({addr, size}, old))
          << "fresh allocation at 0x" << std::hex << addr
          << " reuses a range dropped by Reopen";
    }
    fresh.push_back(addr);
  }
  const absl::Status put_back =
      device().AllocateAt(dropped[0].addr, dropped[0].size);
  ASCEND_SKIP_IF_UNIMPLEMENTED(put_back);
  EXPECT_OK(put_back);
  EXPECT_OK(device().AllocateAt(dropped[1].addr, dropped[1].size));
}

TEST_P(ReopenConformanceTest, AllocateAtRejectsRangesInUse) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device().Allocate(64 * kKiB, 32));
  const absl::Status taken = device().AllocateAt(addr, 4096);
  ASCEND_SKIP_IF_UNIMPLEMENTED(taken);
  EXPECT_EQ(taken.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(device().AllocateAt(addr + 32 * kKiB, 4096).code(),
            absl::StatusCode::kAlreadyExists);
  // A Reopen, a put-back, then the same range again.
  ASSERT_NO_FATAL_FAILURE(SnapshotReopen(backend(), device()));
  ASSERT_OK(device().AllocateAt(addr, 64 * kKiB));
  EXPECT_EQ(device().AllocateAt(addr, 64 * kKiB).code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_EQ(device().Allocations().size(), 1u);
}

}  // namespace
}  // namespace ascend::device::conformance
