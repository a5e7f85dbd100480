#include "device/sim/internal/id_allocator.h"

#include <cstdint>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim::internal {
namespace {

TEST(IdAllocatorTest, HandsOutTheLowestFreeId) {
  IdAllocator ids(100);
  for (uint32_t expected = 0; expected < 5; ++expected) {
    ASSERT_OK_AND_ASSIGN(const uint32_t id, ids.Allocate());
    EXPECT_EQ(id, expected);
  }
  ids.Release(3);
  ids.Release(1);
  ASSERT_OK_AND_ASSIGN(const uint32_t first, ids.Allocate());
  EXPECT_EQ(first, 1u);
  ASSERT_OK_AND_ASSIGN(const uint32_t second, ids.Allocate());
  EXPECT_EQ(second, 3u);
  ASSERT_OK_AND_ASSIGN(const uint32_t third, ids.Allocate());
  EXPECT_EQ(third, 5u);
  EXPECT_EQ(ids.used(), 6u);
}

TEST(IdAllocatorTest, ClaimTakesExactlyTheIdAndAllocateSkipsIt) {
  IdAllocator ids(100);
  ASSERT_OK(ids.Claim(0));
  ASSERT_OK(ids.Claim(2));
  ASSERT_OK(ids.Claim(99));
  EXPECT_EQ(ids.Claim(2).code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ids.Claim(100).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(const uint32_t a, ids.Allocate());
  ASSERT_OK_AND_ASSIGN(const uint32_t b, ids.Allocate());
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 3u);
  EXPECT_TRUE(ids.IsTaken(99));
  EXPECT_FALSE(ids.IsTaken(98));
}

TEST(IdAllocatorTest, ReleaseMergesAndIgnoresFreeIds) {
  IdAllocator ids(8);
  for (int i = 0; i < 8; ++i) ASSERT_OK(ids.Allocate());
  EXPECT_EQ(ids.Allocate().status().code(),
            absl::StatusCode::kResourceExhausted);
  ids.Release(4);
  ids.Release(6);
  ids.Release(5);  // joins [4] and [6]
  ids.Release(5);  // already free: no effect
  ids.Release(1000);
  EXPECT_EQ(ids.used(), 5u);
  ASSERT_OK(ids.Claim(5));
  ASSERT_OK(ids.Claim(4));
  ASSERT_OK(ids.Claim(6));
  EXPECT_EQ(ids.Allocate().status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(IdAllocatorTest, ResetFreesEverything) {
  IdAllocator ids(4);
  ASSERT_OK(ids.Claim(3));
  ASSERT_OK(ids.Allocate());
  ids.Reset();
  EXPECT_EQ(ids.used(), 0u);
  ASSERT_OK(ids.Claim(3));
  ASSERT_OK_AND_ASSIGN(const uint32_t id, ids.Allocate());
  EXPECT_EQ(id, 0u);
}

TEST(IdAllocatorTest, ZeroLimitHasNoIds) {
  IdAllocator ids(0);
  EXPECT_EQ(ids.Allocate().status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ids.Claim(0).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ascend::device::sim::internal
