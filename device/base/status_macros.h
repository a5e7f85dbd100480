// Status helpers shared by every layer (abseil 20220623 has none):
//
//   ASCEND_RETURN_IF_ERROR(DoThing());
//   ASCEND_ASSIGN_OR_RETURN(auto value, ComputeValue());
#ifndef ASCENDCL_DEVICE_BASE_STATUS_MACROS_H_
#define ASCENDCL_DEVICE_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define ASCEND_RETURN_IF_ERROR(expr)                \
  do {                                              \
    ::absl::Status ascend_status_ = (expr);         \
    if (ABSL_PREDICT_FALSE(!ascend_status_.ok())) { \
      return ascend_status_;                        \
    }                                               \
  } while (false)

#define ASCEND_STATUS_CONCAT_INNER_(a, b) a##b
#define ASCEND_STATUS_CONCAT_(a, b) ASCEND_STATUS_CONCAT_INNER_(a, b)

#define ASCEND_ASSIGN_OR_RETURN(lhs, expr) \
  ASCEND_ASSIGN_OR_RETURN_IMPL_(           \
      ASCEND_STATUS_CONCAT_(ascend_statusor_, __LINE__), lhs, expr)

#define ASCEND_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (ABSL_PREDICT_FALSE(!statusor.ok())) {                \
    return std::move(statusor).status();                   \
  }                                                        \
  lhs = std::move(statusor).value()

#endif  // ASCENDCL_DEVICE_BASE_STATUS_MACROS_H_
