#include "runtime/base/error.h"

#include <cstdint>
#include <string>

#include "acl/acl_base.h"
#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

TEST(ErrorTest, ExactCodeSurvivesAsPayload) {
  absl::Status s = Error(ACL_ERROR_SNAPSHOT_LOCK_FAILED, "busy");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(ErrorCode(s), 507906);
  EXPECT_EQ(ErrorCode(Error(ACL_ERROR_INVALID_PARAM, "x")), 100000);
  // A callback's own failure code is passed through verbatim, sign included.
  EXPECT_EQ(ErrorCode(Error(-7, "x")), -7);
  EXPECT_EQ(ErrorCode(Error(INT32_MIN, "x")), INT32_MIN);
  EXPECT_EQ(ErrorCode(Error(INT32_MAX, "x")), INT32_MAX);
}

TEST(ErrorTest, CanonicalCodesMapToRuntimeCodes) {
  EXPECT_EQ(ErrorCode(absl::OkStatus()), 0);
  EXPECT_EQ(ErrorCode(absl::InvalidArgumentError("x")), 107000);
  EXPECT_EQ(ErrorCode(absl::OutOfRangeError("x")), 107001);
  EXPECT_EQ(ErrorCode(absl::ResourceExhaustedError("x")), 207001);
  EXPECT_EQ(ErrorCode(absl::UnimplementedError("x")), 207000);
  EXPECT_EQ(ErrorCode(absl::InternalError("x")), 507000);
}

TEST(ErrorTest, ReportRecordsThreadLastErrorAndMessage) {
  EXPECT_EQ(TakeLastError(), 0);
  EXPECT_EQ(ReportError("aclrtFoo", Error(107001, "device 99")), 107001);
  EXPECT_EQ(PeekLastError(), 107001);
  EXPECT_EQ(PeekLastError(), 107001);
  ASSERT_NE(RecentErrorMessage(), nullptr);
  EXPECT_NE(std::string(RecentErrorMessage()).find("device 99"),
            std::string::npos);
  EXPECT_EQ(TakeLastError(), 107001);
  EXPECT_EQ(TakeLastError(), 0);
  EXPECT_EQ(ReportError("aclrtFoo", absl::OkStatus()), 0);
  EXPECT_EQ(PeekLastError(), 0);
}

}  // namespace
}  // namespace ascend::rt
