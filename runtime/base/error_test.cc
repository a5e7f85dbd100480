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
  const char* message = RecentErrorMessage();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("device 99"), std::string::npos);
  // Handed out once; the text stays valid until the next one is handed out.
  EXPECT_EQ(RecentErrorMessage(), nullptr);
  EXPECT_NE(std::string(message).find("device 99"), std::string::npos);
  EXPECT_EQ(ReportError("aclrtBar", Error(107000, "second")), 107000);
  const char* second = RecentErrorMessage();
  ASSERT_NE(second, nullptr);
  EXPECT_NE(std::string(second).find("aclrtBar"), std::string::npos);
  EXPECT_EQ(RecentErrorMessage(), nullptr);
  EXPECT_EQ(ReportError("aclrtFoo", Error(107001, "device 99")), 107001);
  EXPECT_EQ(TakeLastError(), 107001);
  EXPECT_EQ(TakeLastError(), 0);
  EXPECT_EQ(ReportError("aclrtFoo", absl::OkStatus()), 0);
  EXPECT_EQ(PeekLastError(), 0);
}

}  // namespace
}  // namespace ascend::rt
