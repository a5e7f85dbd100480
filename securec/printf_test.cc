// sprintf_s, snprintf_s, snprintf_truncated_s, their va_list forms and
// swprintf_s: results, truncation rules and resets (securec.h; DESIGN.md
// §5.25).
#include <cstdarg>
#include <cstring>
#include <cwchar>

#include "gtest/gtest.h"
#include "securec.h"

namespace ascend {
namespace {

class PrintfTest : public ::testing::Test {
 protected:
  void SetUp() override { std::memcpy(dest_, "xxxxxxxxx", 10); }
  char dest_[10];
};

// A format chosen at run time, so the compiler's format checks stay out of
// the refusal cases.
const char* Runtime(const char* format) { return format; }

TEST_F(PrintfTest, SprintfFormats) {
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%d-%s", 42, "ab"), 5);
  EXPECT_STREQ(dest_, "42-ab");
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%9s", "z"), 9);  // exactly fits
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%.2f", 1.005), 4);
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%s", ""), 0);
  EXPECT_STREQ(dest_, "");
}

TEST_F(PrintfTest, SprintfTooLongResetsAndFails) {
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%s", "0123456789"), -1);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(PrintfTest, SprintfChecks) {
  EXPECT_EQ(sprintf_s(nullptr, 4, "a"), -1);
  EXPECT_EQ(sprintf_s(dest_, 0, "a"), -1);
  EXPECT_EQ(dest_[0], 'x');  // no usable destination: untouched
  EXPECT_EQ(sprintf_s(dest_, SECUREC_STRING_MAX_LEN + 1, "a"), -1);
  EXPECT_EQ(dest_[0], 'x');
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, Runtime(nullptr), 1), -1);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(PrintfTest, CountConversionIsRefused) {
  int written = 7;
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, Runtime("ab%n"), &written), -1);
  EXPECT_EQ(written, 7);
  EXPECT_EQ(dest_[0], '\0');
  SetUp();
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 4, Runtime("%-3hhn"), &written),
            -1);
  EXPECT_EQ(written, 7);
  // "%%n" prints a percent sign and an n.
  EXPECT_EQ(sprintf_s(dest_, sizeof dest_, "%%n"), 2);
  EXPECT_STREQ(dest_, "%n");
}

TEST_F(PrintfTest, SnprintfCutsAtCountBelowDestMax) {
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(dest_, "abc");  // the cut string stays
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 6, "%s", "abcdef"), 6);
  EXPECT_STREQ(dest_, "abcdef");
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 0, "%s", "abc"), -1);
  EXPECT_STREQ(dest_, "");
}

TEST_F(PrintfTest, SnprintfCountAtLeastDestMaxNeedsTheWholeOutput) {
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 10, "%s", "abcdefghi"), 9);
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 10, "%s", "abcdefghij"), -1);
  EXPECT_EQ(dest_[0], '\0');
  SetUp();
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 100, "%s", "0123456789ab"), -1);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(PrintfTest, SnprintfChecks) {
  EXPECT_EQ(snprintf_s(nullptr, 4, 3, "a"), -1);
  EXPECT_EQ(snprintf_s(dest_, 0, 3, "a"), -1);
  EXPECT_EQ(dest_[0], 'x');
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, SECUREC_STRING_MAX_LEN, "a"), -1);
  EXPECT_EQ(dest_[0], '\0');
  SetUp();
  EXPECT_EQ(snprintf_s(dest_, sizeof dest_, 3, Runtime(nullptr), 1), -1);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(PrintfTest, TruncatedFormsReturnTheCutLength) {
  EXPECT_EQ(snprintf_truncated_s(dest_, sizeof dest_, "%s", "0123456789ab"), 9);
  EXPECT_STREQ(dest_, "012345678");
  EXPECT_EQ(snprintf_truncated_s(dest_, sizeof dest_, "%d", 12), 2);
  EXPECT_STREQ(dest_, "12");
  EXPECT_EQ(snprintf_truncated_s(dest_, 0, "%d", 12), -1);
  EXPECT_EQ(snprintf_truncated_s(nullptr, 4, "%d", 12), -1);
}

int CallVsnprintf(char* dest, size_t max, size_t count, const char* format,
                  ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(dest, max, count, format, args);
  va_end(args);
  return n;
}

int CallVsprintf(char* dest, size_t max, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(dest, max, format, args);
  va_end(args);
  return n;
}

int CallVtruncated(char* dest, size_t max, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_truncated_s(dest, max, format, args);
  va_end(args);
  return n;
}

TEST_F(PrintfTest, VaListFormsMatch) {
  EXPECT_EQ(CallVsprintf(dest_, sizeof dest_, "%x", 255u), 2);
  EXPECT_STREQ(dest_, "ff");
  EXPECT_EQ(CallVsnprintf(dest_, sizeof dest_, 2, "%s", "abc"), -1);
  EXPECT_STREQ(dest_, "ab");
  EXPECT_EQ(CallVtruncated(dest_, 3, "%s", "abc"), 2);
  EXPECT_STREQ(dest_, "ab");
}

TEST_F(PrintfTest, WideSprintf) {
  wchar_t wide[6];
  EXPECT_EQ(swprintf_s(wide, 6, L"%d%ls", 12, L"ab"), 4);
  EXPECT_EQ(std::wcscmp(wide, L"12ab"), 0);
  EXPECT_EQ(swprintf_s(wide, 6, L"%ls", L"abcdef"), -1);
  EXPECT_EQ(wide[0], L'\0');
  EXPECT_EQ(swprintf_s(wide, 0, L"a"), -1);
  EXPECT_EQ(swprintf_s(nullptr, 6, L"a"), -1);
}

}  // namespace
}  // namespace ascend
