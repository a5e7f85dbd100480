#include "device/sim/internal/range_allocator.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim::internal {
namespace {

constexpr uint64_t kBase = uint64_t{1} << 32;
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

TEST(RangeAllocatorTest, RoundsSizesToGranularityAndKeepsRequestedSize) {
  RangeAllocator ranges(kBase, kMiB);
  ASSERT_OK_AND_ASSIGN(const uint64_t a, ranges.Allocate(1, 1));
  ASSERT_OK_AND_ASSIGN(const uint64_t b, ranges.Allocate(513, 1));
  EXPECT_EQ(a, kBase);
  EXPECT_EQ(b, kBase + 512);  // best fit keeps packing from the bottom
  EXPECT_EQ(ranges.Find(a)->size, 1u);
  EXPECT_EQ(ranges.Find(a)->extent, 512u);
  EXPECT_EQ(ranges.Find(b)->extent, 1024u);
  EXPECT_EQ(ranges.free_bytes(), kMiB - 1536);
  EXPECT_EQ(ranges.allocated_bytes(), 1536u);
}

TEST(RangeAllocatorTest, FindUsesRequestedSizeNotPadding) {
  RangeAllocator ranges(kBase, kMiB);
  ASSERT_OK_AND_ASSIGN(const uint64_t a, ranges.Allocate(100, 32));
  EXPECT_TRUE(ranges.Find(a + 99).has_value());
  EXPECT_FALSE(ranges.Find(a + 100).has_value());
  EXPECT_FALSE(ranges.Find(a - 1).has_value());
  EXPECT_FALSE(ranges.Find(0).has_value());
}

TEST(RangeAllocatorTest, RejectsBadArguments) {
  RangeAllocator ranges(kBase, kMiB);
  EXPECT_EQ(ranges.Allocate(0, 512).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.Allocate(64, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.Allocate(64, 96).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.Allocate(kMiB + 1, 512).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ranges.Allocate(~uint64_t{0}, 512).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ranges.Allocate(64, uint64_t{1} << 63).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ranges.Free(kBase).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.free_bytes(), kMiB);
}

TEST(RangeAllocatorTest, HonoursLargeAlignments) {
  RangeAllocator ranges(kBase + 512, 64 * kMiB);
  for (uint64_t alignment = 1; alignment <= 16 * kMiB; alignment *= 4) {
    ASSERT_OK_AND_ASSIGN(const uint64_t addr, ranges.Allocate(1000, alignment));
    EXPECT_EQ(addr % alignment, 0u) << "alignment " << alignment;
    EXPECT_EQ(addr % RangeAllocator::kGranularity, 0u);
  }
}

TEST(RangeAllocatorTest, FreeCoalescesWithBothNeighbours) {
  RangeAllocator ranges(kBase, 4 * kKiB);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 8; ++i) {
    ASSERT_OK_AND_ASSIGN(const uint64_t addr, ranges.Allocate(512, 512));
    blocks.push_back(addr);
  }
  EXPECT_EQ(ranges.free_bytes(), 0u);
  EXPECT_EQ(ranges.Allocate(512, 512).status().code(),
            absl::StatusCode::kResourceExhausted);
  // Free 1, 3, then 2: the middle one merges all three into one segment.
  ASSERT_OK(ranges.Free(blocks[1]));
  ASSERT_OK(ranges.Free(blocks[3]));
  EXPECT_EQ(ranges.free_segment_count(), 2u);
  ASSERT_OK(ranges.Free(blocks[2]));
  EXPECT_EQ(ranges.free_segment_count(), 1u);
  ASSERT_OK_AND_ASSIGN(const uint64_t big, ranges.Allocate(1536, 512));
  EXPECT_EQ(big, blocks[1]);
  for (uint64_t addr :
       {blocks[0], blocks[4], blocks[5], blocks[6], blocks[7], big}) {
    ASSERT_OK(ranges.Free(addr));
  }
  EXPECT_EQ(ranges.free_segment_count(), 1u);
  EXPECT_EQ(ranges.segment_count(), 1u);
  EXPECT_EQ(ranges.free_bytes(), 4 * kKiB);
}

TEST(RangeAllocatorTest, FragmentationBlocksLargeRequestsUntilNeighboursFree) {
  RangeAllocator ranges(kBase, 8 * kKiB);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 8; ++i) {
    ASSERT_OK_AND_ASSIGN(const uint64_t addr, ranges.Allocate(kKiB, 512));
    blocks.push_back(addr);
  }
  for (int i = 0; i < 8; i += 2) ASSERT_OK(ranges.Free(blocks[i]));
  EXPECT_EQ(ranges.free_bytes(), 4 * kKiB);
  // Half the device is free, but in 1 KiB holes.
  EXPECT_EQ(ranges.Allocate(2 * kKiB, 512).status().code(),
            absl::StatusCode::kResourceExhausted);
  ASSERT_OK(ranges.Free(blocks[3]));
  ASSERT_OK_AND_ASSIGN(const uint64_t addr, ranges.Allocate(3 * kKiB, 512));
  EXPECT_EQ(addr, blocks[2]);
}

TEST(RangeAllocatorTest, BestFitPicksTheSmallestHole) {
  RangeAllocator ranges(kBase, 64 * kKiB);
  ASSERT_OK_AND_ASSIGN(const uint64_t a, ranges.Allocate(8 * kKiB, 512));
  ASSERT_OK_AND_ASSIGN(const uint64_t b, ranges.Allocate(kKiB, 512));
  ASSERT_OK_AND_ASSIGN(const uint64_t c, ranges.Allocate(2 * kKiB, 512));
  ASSERT_OK_AND_ASSIGN(const uint64_t d, ranges.Allocate(kKiB, 512));
  ASSERT_OK(ranges.Free(a));  // an 8 KiB hole
  ASSERT_OK(ranges.Free(c));  // a 2 KiB hole
  ASSERT_OK_AND_ASSIGN(const uint64_t e, ranges.Allocate(2 * kKiB, 512));
  EXPECT_EQ(e, c);
  ASSERT_OK_AND_ASSIGN(const uint64_t f, ranges.Allocate(kKiB, 512));
  EXPECT_EQ(f, a);
  (void)b;
  (void)d;
}

TEST(RangeAllocatorTest, AllocateAtPlacesExactlyAndRejectsOverlap) {
  RangeAllocator ranges(kBase, kMiB);
  ASSERT_OK(ranges.AllocateAt(kBase + 64 * kKiB, 4 * kKiB));
  EXPECT_EQ(ranges.Find(kBase + 64 * kKiB)->size, 4 * kKiB);
  EXPECT_EQ(ranges.AllocateAt(kBase + 64 * kKiB, 512).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ranges.AllocateAt(kBase + 60 * kKiB, 8 * kKiB).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ranges.AllocateAt(kBase + 67 * kKiB, 512).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ranges.AllocateAt(kBase + 1, 512).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.AllocateAt(kBase - 512, 512).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.AllocateAt(kBase + kMiB - 512, 1024).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.AllocateAt(kBase + kMiB, 512).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ranges.AllocateAt(kBase, 0).code(),
            absl::StatusCode::kInvalidArgument);
  // Right next to the existing block is fine, on both sides.
  ASSERT_OK(ranges.AllocateAt(kBase + 60 * kKiB, 4 * kKiB));
  ASSERT_OK(ranges.AllocateAt(kBase + 68 * kKiB, 100));
  ASSERT_OK(ranges.AllocateAt(kBase + kMiB - 512, 512));
  EXPECT_EQ(ranges.free_bytes(), kMiB - 9 * kKiB);
}

TEST(RangeAllocatorTest, ReservedRangesAreOnlyReachableThroughAllocateAt) {
  RangeAllocator ranges(kBase, 16 * kKiB);
  ASSERT_OK_AND_ASSIGN(const uint64_t a, ranges.Allocate(4 * kKiB, 512));
  ASSERT_OK_AND_ASSIGN(const uint64_t b, ranges.Allocate(2 * kKiB, 512));
  ranges.ReserveAll();
  EXPECT_TRUE(ranges.Blocks().empty());
  EXPECT_FALSE(ranges.Find(a).has_value());
  EXPECT_EQ(ranges.reserved_bytes(), 6 * kKiB);
  EXPECT_EQ(ranges.free_bytes(), 10 * kKiB);
  // Everything Allocate can give lies outside the reserved ranges.
  ASSERT_OK_AND_ASSIGN(const uint64_t c, ranges.Allocate(10 * kKiB, 512));
  EXPECT_GE(c, b + 2 * kKiB);
  EXPECT_EQ(ranges.Allocate(512, 512).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ranges.Free(a).status().code(), absl::StatusCode::kInvalidArgument);
  // Put back one of the two; the other stays reserved.
  ASSERT_OK(ranges.AllocateAt(b, 2 * kKiB));
  EXPECT_EQ(ranges.reserved_bytes(), 4 * kKiB);
  ASSERT_OK(ranges.Free(b));
  // A freed former reservation is free memory again; `a` stays reserved.
  ASSERT_OK_AND_ASSIGN(const uint64_t d, ranges.Allocate(2 * kKiB, 512));
  EXPECT_EQ(d, b);
  EXPECT_EQ(ranges.reserved_bytes(), 4 * kKiB);
  ASSERT_OK(ranges.AllocateAt(a, 4 * kKiB));
  EXPECT_EQ(ranges.reserved_bytes(), 0u);
  ranges.Reset();
  EXPECT_EQ(ranges.free_bytes(), 16 * kKiB);
  EXPECT_EQ(ranges.segment_count(), 1u);
}

TEST(RangeAllocatorTest, AllocateAtSpansFreeAndReservedAndKeepsTheRest) {
  RangeAllocator ranges(kBase, 16 * kKiB);
  ASSERT_OK(ranges.AllocateAt(kBase + 4 * kKiB, 4 * kKiB));
  ranges.ReserveAll();
  // [2 KiB, 6 KiB) takes half free, half reserved space.
  ASSERT_OK(ranges.AllocateAt(kBase + 2 * kKiB, 4 * kKiB));
  EXPECT_EQ(ranges.reserved_bytes(), 2 * kKiB);
  EXPECT_EQ(ranges.free_bytes(), 10 * kKiB);
  // The reserved remainder [6 KiB, 8 KiB) is still reachable exactly.
  EXPECT_EQ(ranges.AllocateAt(kBase + 5 * kKiB, 2 * kKiB).code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_OK(ranges.AllocateAt(kBase + 6 * kKiB, 2 * kKiB));
  EXPECT_EQ(ranges.reserved_bytes(), 0u);
  // A second ReserveAll merges adjacent reservations.
  ranges.ReserveAll();
  EXPECT_EQ(ranges.reserved_bytes(), 6 * kKiB);
  EXPECT_EQ(ranges.segment_count(), 3u);  // free, reserved, free
}

}  // namespace
}  // namespace ascend::device::sim::internal
