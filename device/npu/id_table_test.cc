#include "device/npu/internal/id_table.h"

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu::internal {
namespace {

TEST(IdTableTest, AllocatesLowestFreeId) {
  IdTable table(8);
  ASSERT_OK_AND_ASSIGN(uint32_t a, table.Allocate());
  ASSERT_OK_AND_ASSIGN(uint32_t b, table.Allocate());
  ASSERT_OK_AND_ASSIGN(uint32_t c, table.Allocate());
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  EXPECT_EQ(c, 2u);
  table.Release(1);
  ASSERT_OK_AND_ASSIGN(uint32_t again, table.Allocate());
  EXPECT_EQ(again, 1u);
}

TEST(IdTableTest, ClaimTakesExactIdAndAllocateSkipsIt) {
  IdTable table(8);
  EXPECT_OK(table.Claim(0));
  EXPECT_OK(table.Claim(2));
  EXPECT_EQ(table.Claim(2).code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(table.Claim(8).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(uint32_t a, table.Allocate());
  ASSERT_OK_AND_ASSIGN(uint32_t b, table.Allocate());
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 3u);
}

TEST(IdTableTest, ExhaustionAndClear) {
  IdTable table(3);
  for (int i = 0; i < 3; ++i) ASSERT_OK(table.Allocate());
  EXPECT_EQ(table.Allocate().status().code(),
            absl::StatusCode::kResourceExhausted);
  table.Release(7);  // unknown ids are ignored
  table.Release(2);
  table.Release(2);  // twice is harmless
  ASSERT_OK_AND_ASSIGN(uint32_t id, table.Allocate());
  EXPECT_EQ(id, 2u);
  table.Clear();
  EXPECT_OK(table.Claim(2));
  ASSERT_OK_AND_ASSIGN(uint32_t first, table.Allocate());
  EXPECT_EQ(first, 0u);
}

}  // namespace
}  // namespace ascend::device::npu::internal
