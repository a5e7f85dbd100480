// The no-throw boundary (DESIGN.md §2.7): an exception thrown inside an entry
// point becomes its documented code, one log line and the thread's last
// error, never an abort. The faults are injected deterministically by this
// binary's replacement of the global operator new: the test arms the calling
// thread, and the next allocation it makes throws the chosen exception.
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "gtest/gtest.h"

namespace {

enum class Fault { kNone, kBadAlloc, kLengthError, kSystemError, kOther };

thread_local Fault armed = Fault::kNone;

void ThrowArmed() {
  const Fault fault = armed;
  armed = Fault::kNone;  // once: the handler's own allocations succeed
  switch (fault) {
    case Fault::kNone:
      return;
    case Fault::kBadAlloc:
      throw std::bad_alloc();
    case Fault::kLengthError:
      throw std::length_error("vector::_M_range_insert");
    case Fault::kSystemError:
      // What std::thread throws when no thread can be created.
      throw std::system_error(
          std::make_error_code(std::errc::resource_unavailable_try_again),
          "thread");
    case Fault::kOther:
      throw std::runtime_error("injected");
  }
}

}  // namespace

void* operator new(std::size_t size) {
  ThrowArmed();
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

// The recorded message: one line naming `api` and `code`; a second read
// finds nothing more.
void ExpectOneLine(const char* api, int code) {
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  const std::string text = message;
  EXPECT_NE(text.find(api), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(code)), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), code);
}

// aclrtLaunchKernelWithHostArgs copies the argument bytes before anything
// else allocates: the copy's allocation throws.
aclError LaunchWithArgs(Fault fault) {
  static char args[64] = {};
  // A first call builds the process's statics; it fails (no such function).
  (void)aclrtLaunchKernelWithHostArgs(reinterpret_cast<void*>(1), 1, nullptr,
                                      nullptr, args, sizeof args, nullptr, 0);
  while (aclGetRecentErrMsg() != nullptr) {
  }
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  armed = fault;
  const aclError ret =
      aclrtLaunchKernelWithHostArgs(reinterpret_cast<void*>(1), 1, nullptr,
                                    nullptr, args, sizeof args, nullptr, 0);
  armed = Fault::kNone;
  return ret;
}

TEST(CEntryTest, BadAllocIsMemoryAllocation) {
  EXPECT_EQ(LaunchWithArgs(Fault::kBadAlloc), ACL_ERROR_RT_MEMORY_ALLOCATION);
  ExpectOneLine("aclrtLaunchKernelWithHostArgs",
                ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST(CEntryTest, LengthErrorIsMemoryAllocation) {
  EXPECT_EQ(LaunchWithArgs(Fault::kLengthError),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  ExpectOneLine("aclrtLaunchKernelWithHostArgs",
                ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST(CEntryTest, ThreadResourceExhaustionIsResourceAllocFail) {
  EXPECT_EQ(LaunchWithArgs(Fault::kSystemError),
            ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
  ExpectOneLine("aclrtLaunchKernelWithHostArgs",
                ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
}

TEST(CEntryTest, OtherExceptionIsInternalError) {
  EXPECT_EQ(LaunchWithArgs(Fault::kOther), ACL_ERROR_RT_INTERNAL_ERROR);
  ExpectOneLine("aclrtLaunchKernelWithHostArgs", ACL_ERROR_RT_INTERNAL_ERROR);
}

// A function returning a handle answers NULL and records the code.
TEST(CEntryTest, HandleFunctionAnswersNull) {
  aclrtAllocatorDesc warm = aclrtAllocatorCreateDesc();
  ASSERT_NE(warm, nullptr);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(warm), ACL_SUCCESS);
  while (aclGetRecentErrMsg() != nullptr) {
  }
  armed = Fault::kBadAlloc;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  armed = Fault::kNone;
  EXPECT_EQ(desc, nullptr);
  ExpectOneLine("aclrtAllocatorCreateDesc", ACL_ERROR_RT_MEMORY_ALLOCATION);
  // Nothing was left half made: the next call works.
  desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
}

// An entry point still works normally after a fault.
TEST(CEntryTest, LaterCallsUnaffected) {
  ASSERT_EQ(LaunchWithArgs(Fault::kSystemError),
            ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
  EXPECT_NE(LaunchWithArgs(Fault::kNone), ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
}

}  // namespace
