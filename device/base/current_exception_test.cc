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

// The classification, its strings copied inside the handler (what() lives
// only as long as the exception is handled).
struct Seen {
  ExceptionKind kind;
  std::string description;
  std::string what;
};

template <typename E>
Seen Classify(const E& exception) {
  try {
    throw exception;
  } catch (...) {
    const CurrentException e = ClassifyCurrentException();
    return {e.kind, e.description, e.what};
  }
}

TEST(CurrentExceptionTest, OutOfHostMemory) {
  EXPECT_EQ(Classify(std::bad_alloc()).kind, ExceptionKind::kOutOfHostMemory);
  const Seen e = Classify(std::length_error("vector too long"));
  EXPECT_EQ(e.kind, ExceptionKind::kOutOfHostMemory);
  EXPECT_EQ(e.description, "out of host memory");
  EXPECT_EQ(e.what, "vector too long");
}

TEST(CurrentExceptionTest, ResourceExhaustionIsTheFourErrnoValues) {
  for (int code : {EAGAIN, ENOMEM, EMFILE, ENFILE}) {
    const Seen e =
        Classify(std::system_error(code, std::generic_category(), "thread"));
    EXPECT_EQ(e.kind, ExceptionKind::kResourceExhausted) << code;
    EXPECT_EQ(e.description, "system resource exhausted");
  }
  EXPECT_EQ(Classify(std::system_error(EIO, std::generic_category())).kind,
            ExceptionKind::kSystemError);
}

TEST(CurrentExceptionTest, OtherExceptionsAndNonExceptions) {
  const Seen e = Classify(std::runtime_error("broken"));
  EXPECT_EQ(e.kind, ExceptionKind::kInternal);
  EXPECT_EQ(e.what, "broken");
  const Seen n = Classify(42);
  EXPECT_EQ(n.kind, ExceptionKind::kUnknown);
  EXPECT_EQ(n.what, "");
}

}  // namespace
}  // namespace ascend
