#include "device/base/current_exception.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "gtest/gtest.h"

namespace ascend {
namespace {

template <typename E>
CurrentException Classify(const E& exception) {
  try {
    throw exception;
  } catch (...) {
    return ClassifyCurrentException();
  }
}

TEST(CurrentExceptionTest, OutOfHostMemory) {
  EXPECT_EQ(Classify(std::bad_alloc()).kind, ExceptionKind::kOutOfHostMemory);
  const CurrentException e = Classify(std::length_error("vector too long"));
  EXPECT_EQ(e.kind, ExceptionKind::kOutOfHostMemory);
  EXPECT_STREQ(e.description, "out of host memory");
  EXPECT_STREQ(e.what, "vector too long");
}

TEST(CurrentExceptionTest, ResourceExhaustionIsTheFourErrnoValues) {
  for (int code : {EAGAIN, ENOMEM, EMFILE, ENFILE}) {
    const CurrentException e =
        Classify(std::system_error(code, std::generic_category(), "thread"));
    EXPECT_EQ(e.kind, ExceptionKind::kResourceExhausted) << code;
    EXPECT_STREQ(e.description, "system resource exhausted");
  }
  EXPECT_EQ(Classify(std::system_error(EIO, std::generic_category())).kind,
            ExceptionKind::kSystemError);
}

TEST(CurrentExceptionTest, OtherExceptionsAndNonExceptions) {
  const CurrentException e = Classify(std::runtime_error("broken"));
  EXPECT_EQ(e.kind, ExceptionKind::kInternal);
  EXPECT_STREQ(e.what, "broken");
  const CurrentException n = Classify(42);
  EXPECT_EQ(n.kind, ExceptionKind::kUnknown);
  EXPECT_STREQ(n.what, "");
}

}  // namespace
}  // namespace ascend
