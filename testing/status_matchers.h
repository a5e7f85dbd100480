// Status-aware test helpers (abseil 20220623 ships none):
//
//   EXPECT_OK(device->Free(addr));
//   ASSERT_OK_AND_ASSIGN(auto addr, device->Allocate(64, 32));
//   EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(bad));
#ifndef ASCENDCL_TESTING_STATUS_MATCHERS_H_
#define ASCENDCL_TESTING_STATUS_MATCHERS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace ascend::testing {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

}  // namespace ascend::testing

#define EXPECT_OK(expr) \
  EXPECT_EQ(::ascend::testing::GetStatus(expr), ::absl::OkStatus())
#define ASSERT_OK(expr) \
  ASSERT_EQ(::ascend::testing::GetStatus(expr), ::absl::OkStatus())

#define ASCEND_TESTING_CONCAT_INNER_(a, b) a##b
#define ASCEND_TESTING_CONCAT_(a, b) ASCEND_TESTING_CONCAT_INNER_(a, b)
#define ASSERT_OK_AND_ASSIGN(lhs, expr)                      \
  auto ASCEND_TESTING_CONCAT_(statusor_, __LINE__) = (expr); \
  ASSERT_OK(ASCEND_TESTING_CONCAT_(statusor_, __LINE__));    \
  lhs = std::move(ASCEND_TESTING_CONCAT_(statusor_, __LINE__)).value()

// Pins the exact ACL/RT numeric code returned by a C entry point.
#define EXPECT_ACL_ERROR(code, expr) EXPECT_EQ(static_cast<int>(code), (expr))
#define ASSERT_ACL_ERROR(code, expr) ASSERT_EQ(static_cast<int>(code), (expr))
#define EXPECT_ACL_OK(expr) EXPECT_EQ(0, (expr))
#define ASSERT_ACL_OK(expr) ASSERT_EQ(0, (expr))

#endif  // ASCENDCL_TESTING_STATUS_MATCHERS_H_
