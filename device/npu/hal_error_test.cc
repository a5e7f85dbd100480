#include "device/npu/internal/hal_error.h"

#include <map>

#include "absl/status/status.h"
#include "device/npu/internal/hal_abi.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ascend::device::npu::internal {
namespace {

using absl::StatusCode;
using ::testing::HasSubstr;

TEST(HalErrorTest, TableIsTheSection3TableInOrder) {
  // driver code -> CANN's ACL code (§3 of ascend_hal_subset.md).
  const std::map<int32_t, int32_t> expected = {
      {0, 0},           {1, 207004},  {2, 107001},  {3, 107000},  {4, 107017},
      {5, 107018},      {6, 207001},  {10, 207015}, {14, 207005}, {16, 507012},
      {17, 507899},     {25, 507901}, {27, 507051}, {33, 507010}, {37, 207012},
      {40, 207005},     {43, 507000}, {46, 207006}, {47, 207007}, {48, 207008},
      {49, 207009},     {50, 207010}, {58, 107000}, {74, 507052}, {75, 207013},
      {76, 207014},     {82, 507037}, {83, 107000}, {84, 207011}, {89, 207020},
      {0xFFFE, 207000},
  };
  std::map<int32_t, int32_t> actual;
  int32_t previous = -1;
  for (const DriverErrorMapping& row : DriverErrorTable()) {
    EXPECT_GT(row.driver_code, previous) << "table must be sorted";
    previous = row.driver_code;
    actual[row.driver_code] = row.cann_acl_code;
  }
  EXPECT_EQ(actual, expected);
}

// The canonical codes whose runtime mapping is CANN's ACL code for the driver
// code (checked against the runtime's real mapping by
// //testing/fake_driver:npu_acl_code_test).
TEST(HalErrorTest, CanonicalCodesThatCarryTheExactAclCode) {
  const std::map<int32_t, StatusCode> exact = {
      {DRV_ERROR_NO_DEVICE, StatusCode::kUnavailable},
      {DRV_ERROR_INVALID_DEVICE, StatusCode::kOutOfRange},
      {DRV_ERROR_INVALID_VALUE, StatusCode::kInvalidArgument},
      {DRV_ERROR_OUT_OF_MEMORY, StatusCode::kResourceExhausted},
      {DRV_ERROR_DEV_PROCESS_HANG, StatusCode::kInternal},
      {DRV_ERROR_MEMORY_OPT_FAIL, StatusCode::kInvalidArgument},
      {DRV_ERROR_CDQ_NOT_EXIST, StatusCode::kInvalidArgument},
      {DRV_ERROR_NOT_SUPPORT, StatusCode::kUnimplemented},
  };
  for (const auto& [driver_code, canonical] : exact) {
    EXPECT_EQ(MapDriverError(driver_code).canonical, canonical) << driver_code;
  }
}

TEST(HalErrorTest, NearestCanonicalCodes) {
  EXPECT_EQ(MapDriverError(DRV_ERROR_REPEATED_INIT).canonical,
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(MapDriverError(DRV_ERROR_INVALID_HANDLE).canonical,
            StatusCode::kInvalidArgument);
  EXPECT_EQ(MapDriverError(DRV_ERROR_NO_RESOURCES).canonical,
            StatusCode::kResourceExhausted);
  EXPECT_EQ(MapDriverError(DRV_ERROR_MALLOC_FAIL).canonical,
            StatusCode::kResourceExhausted);
  EXPECT_EQ(MapDriverError(DRV_ERROR_WAIT_TIMEOUT).canonical,
            StatusCode::kDeadlineExceeded);
  EXPECT_EQ(MapDriverError(DRV_ERROR_OPER_NOT_PERMITTED).canonical,
            StatusCode::kPermissionDenied);
  EXPECT_EQ(MapDriverError(DRV_ERROR_COPY_USER_FAIL).canonical,
            StatusCode::kDataLoss);
}

TEST(HalErrorTest, UnlistedCodesAreDriverInternalErrors) {
  for (int32_t code : {7, 8, 9, 11, 12, 13, 79, 99, 12345}) {
    const DriverErrorMapping row = MapDriverError(code);
    EXPECT_EQ(row.driver_code, code);
    EXPECT_EQ(row.canonical, StatusCode::kInternal) << code;
    EXPECT_EQ(row.cann_acl_code, 507899) << code;
  }
}

TEST(HalErrorTest, Names) {
  EXPECT_EQ(DriverErrorName(DRV_ERROR_NONE), "DRV_ERROR_NONE");
  EXPECT_EQ(DriverErrorName(DRV_ERROR_OUT_OF_MEMORY),
            "DRV_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(DriverErrorName(DRV_ERROR_THREAD_NOT_RUNNIG),
            "DRV_ERROR_THREAD_NOT_RUNNIG");
  EXPECT_EQ(DriverErrorName(DEV_ERROR_BIST_HW_ERR), "DEV_ERROR_BIST_HW_ERR");
  EXPECT_EQ(DriverErrorName(DRV_ERROR_NOT_SUPPORT), "DRV_ERROR_NOT_SUPPORT");
  EXPECT_EQ(DriverErrorName(100), "unknown driver error");
}

TEST(HalErrorTest, StatusCarriesCallNameDriverCodeAndAclCode) {
  EXPECT_TRUE(DriverStatus("halMemAlloc", DRV_ERROR_NONE).ok());
  const absl::Status status =
      DriverStatus("halMemAlloc", DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("halMemAlloc"));
  EXPECT_THAT(status.message(), HasSubstr("DRV_ERROR_OUT_OF_MEMORY"));
  EXPECT_THAT(status.message(), HasSubstr("driver error 6"));
  EXPECT_THAT(status.message(), HasSubstr("207001"));

  const absl::Status unsupported =
      DriverStatus("halProcessResBackup", DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(unsupported.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(unsupported.message(), HasSubstr("driver error 65534"));
}

}  // namespace
}  // namespace ascend::device::npu::internal
