// The runtime-free helpers of the extended copies (runtime/memcpy_ext.h):
// pitched extents, a batch's attribute ranges, the 32-bit pattern and the
// descriptor layouts.
#include "runtime/memory/memcpy_ext.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(PitchedSpanTest, CoversEveryRowButTheLastPitch) {
  EXPECT_EQ(PitchedSpan(64, 24, 1), 24u);
  EXPECT_EQ(PitchedSpan(64, 24, 5), 4u * 64 + 24);
  EXPECT_EQ(PitchedSpan(24, 24, 3), 72u);
  EXPECT_EQ(PitchedSpan(UINT64_MAX / 2, 2, 3), std::nullopt);
  EXPECT_EQ(PitchedSpan(UINT64_MAX / 2 + 1, 1, 3), std::nullopt);
  EXPECT_EQ(PitchedSpan(UINT64_MAX, 2, 2), std::nullopt);
  EXPECT_EQ(PitchedSpan(UINT64_MAX - 1, 1, 2), UINT64_MAX);
}

TEST(BatchAttrRangesTest, AcceptsIncreasingRangesFromZero) {
  const size_t one[] = {0};
  const size_t two[] = {0, 6};
  const size_t each[] = {0, 1, 2};
  EXPECT_OK(CheckBatchAttrRanges(one, 1, 1));
  EXPECT_OK(CheckBatchAttrRanges(two, 2, 10));
  EXPECT_OK(CheckBatchAttrRanges(each, 3, 3));
}

TEST(BatchAttrRangesTest, RejectsEveryViolationWith107000) {
  const size_t from_one[] = {1, 2};
  const size_t equal[] = {0, 0};
  const size_t down[] = {0, 5, 3};
  const size_t past[] = {0, 10};
  const size_t two[] = {0, 1};
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(two, 0, 3)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(two, 2, 1)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(from_one, 2, 3)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(equal, 2, 3)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(down, 3, 9)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(CheckBatchAttrRanges(past, 2, 10)),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST(BatchAttrCursorTest, AppliesEachEntryToItsRange) {
  const size_t indexes[] = {0, 6, 8};
  BatchAttrCursor cursor(indexes, 3);
  std::vector<size_t> got;
  for (size_t i = 0; i < 11; ++i) got.push_back(cursor.For(i));
  EXPECT_EQ(got, (std::vector<size_t>{0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2}));
  const size_t single[] = {0};
  BatchAttrCursor one(single, 1);
  EXPECT_EQ(one.For(0), 0u);
  EXPECT_EQ(one.For(1000), 0u);
}

TEST(FillPattern32Test, WritesTheValueAtAnyAlignment) {
  std::vector<unsigned char> buffer(4 * 5 + 2, 0xEE);
  FillPattern32(buffer.data() + 1, 0xA1B2C3D4u, 5);
  EXPECT_EQ(buffer.front(), 0xEE);
  EXPECT_EQ(buffer.back(), 0xEE);
  for (size_t i = 0; i < 5; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, buffer.data() + 1 + 4 * i, 4);
    EXPECT_EQ(v, 0xA1B2C3D4u);
  }
  FillPattern32(buffer.data(), 1, 0);  // nothing
  EXPECT_EQ(buffer.front(), 0xEE);
}

TEST(DescriptorTest, LayoutsFillTheDocumentedSizes) {
  EXPECT_EQ(sizeof(MemcpyDescriptor), kMemcpyDescSize);
  EXPECT_EQ(sizeof(CmoDescriptor), kCmoDescSize);
  EXPECT_EQ(kMemcpyDescSize, 32u);
  EXPECT_EQ(kCmoDescSize, 32u);
  // A zeroed descriptor is never taken for a written one.
  EXPECT_NE(MemcpyDescriptor::kMagic, 0u);
  EXPECT_NE(CmoDescriptor::kMagic, 0u);
  EXPECT_NE(MemcpyDescriptor::kMagic, CmoDescriptor::kMagic);
}

}  // namespace
}  // namespace ascend::rt
