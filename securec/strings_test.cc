// strcpy_s, strncpy_s, strcat_s, strncat_s, strtok_s, gets_s and the wide
// forms: argument checks, truncation rules and destination resets
// (securec.h; DESIGN.md §5.25).
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <string>

#include "gtest/gtest.h"
#include "securec.h"

namespace ascend {
namespace {

class StringsTest : public ::testing::Test {
 protected:
  void SetUp() override { std::memcpy(dest_, "xxxxxxxxx", 10); }
  char dest_[10];
};

TEST_F(StringsTest, StrcpyCopiesWithTerminator) {
  EXPECT_EQ(strcpy_s(dest_, sizeof dest_, "hello"), EOK);
  EXPECT_STREQ(dest_, "hello");
  EXPECT_EQ(strcpy_s(dest_, 6, "hello"), EOK);  // exactly fits
  EXPECT_EQ(strcpy_s(dest_, sizeof dest_, ""), EOK);
  EXPECT_STREQ(dest_, "");
  EXPECT_EQ(strcpy_s(dest_, sizeof dest_, dest_), EOK);  // dest == src
}

TEST_F(StringsTest, StrcpyChecks) {
  EXPECT_EQ(strcpy_s(dest_, 0, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(dest_, SECUREC_STRING_MAX_LEN + 1, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(nullptr, 4, "a"), EINVAL);
  EXPECT_EQ(dest_[0], 'x');
  EXPECT_EQ(strcpy_s(dest_, 4, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
  SetUp();
  EXPECT_EQ(strcpy_s(dest_, 5, "hello"), ERANGE_AND_RESET);  // no room for \0
  EXPECT_EQ(dest_[0], '\0');
  EXPECT_EQ(dest_[1], 'x');  // only the first character is reset
}

TEST_F(StringsTest, StrcpyRefusesOverlap) {
  std::memcpy(dest_, "abcdefgh", 9);
  EXPECT_EQ(strcpy_s(dest_, sizeof dest_, dest_ + 2), EOVERLAP_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
  std::memcpy(dest_, "abc", 4);
  EXPECT_EQ(strcpy_s(dest_ + 1, 9, dest_), EOVERLAP_AND_RESET);
}

TEST_F(StringsTest, StrncpyCopiesAtMostCount) {
  EXPECT_EQ(strncpy_s(dest_, sizeof dest_, "hello world", 4), EOK);
  EXPECT_STREQ(dest_, "hell");
  EXPECT_EQ(strncpy_s(dest_, sizeof dest_, "hi", 9), EOK);
  EXPECT_STREQ(dest_, "hi");
  EXPECT_EQ(strncpy_s(dest_, sizeof dest_, "abc", 0), EOK);
  EXPECT_STREQ(dest_, "");
  // count >= destMax: the string itself must fit with its terminator.
  EXPECT_EQ(strncpy_s(dest_, 6, "hello", 6), EOK);
  EXPECT_STREQ(dest_, "hello");
  EXPECT_EQ(strncpy_s(dest_, 5, "hello", 5), ERANGE_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
  EXPECT_EQ(strncpy_s(dest_, 5, "hello", 100), ERANGE_AND_RESET);
  // count < destMax: cut at count, whatever the source's length.
  EXPECT_EQ(strncpy_s(dest_, 5, "hello", 4), EOK);
  EXPECT_STREQ(dest_, "hell");
}

TEST_F(StringsTest, StrncpyChecks) {
  EXPECT_EQ(strncpy_s(dest_, 0, "a", 1), ERANGE);
  EXPECT_EQ(strncpy_s(nullptr, 4, "a", 1), EINVAL);
  EXPECT_EQ(strncpy_s(dest_, 4, nullptr, 1), EINVAL_AND_RESET);
  SetUp();
  EXPECT_EQ(strncpy_s(dest_, 4, "a", SECUREC_STRING_MAX_LEN + 1),
            ERANGE_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
  std::memcpy(dest_, "abcdef", 7);
  EXPECT_EQ(strncpy_s(dest_ + 1, 9, dest_, 3), EOVERLAP_AND_RESET);
  std::memcpy(dest_, "abcdef", 7);
  EXPECT_EQ(strncpy_s(dest_, sizeof dest_, dest_, 3), EOK);  // same string
  EXPECT_STREQ(dest_, "abc");
}

TEST_F(StringsTest, StrcatAppends) {
  std::memcpy(dest_, "ab", 3);
  EXPECT_EQ(strcat_s(dest_, sizeof dest_, "cde"), EOK);
  EXPECT_STREQ(dest_, "abcde");
  EXPECT_EQ(strcat_s(dest_, sizeof dest_, "fgh"), EOK);  // 8 + \0 fits in 10
  EXPECT_STREQ(dest_, "abcdefgh");
  EXPECT_EQ(strcat_s(dest_, sizeof dest_, "ij"), ERANGE_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(StringsTest, StrcatChecks) {
  EXPECT_EQ(strcat_s(dest_, 0, "a"), ERANGE);
  EXPECT_EQ(strcat_s(nullptr, 4, "a"), EINVAL);
  EXPECT_EQ(strcat_s(dest_, 4, nullptr), EINVAL_AND_RESET);
  SetUp();  // "xxxxxxxxx" is not terminated within 9 characters
  EXPECT_EQ(strcat_s(dest_, 9, "a"), EINVAL_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
  std::memcpy(dest_, "ab", 3);
  EXPECT_EQ(strcat_s(dest_, sizeof dest_, dest_), ERANGE_AND_RESET);
  std::memcpy(dest_, "ab\0cd", 6);
  EXPECT_EQ(strcat_s(dest_, sizeof dest_, dest_ + 1), EOVERLAP_AND_RESET);
}

TEST_F(StringsTest, StrncatAppendsAtMostCount) {
  std::memcpy(dest_, "ab", 3);
  EXPECT_EQ(strncat_s(dest_, sizeof dest_, "cdefghijkl", 3), EOK);
  EXPECT_STREQ(dest_, "abcde");
  EXPECT_EQ(strncat_s(dest_, sizeof dest_, "xyz", 0), EOK);
  EXPECT_STREQ(dest_, "abcde");
  EXPECT_EQ(strncat_s(dest_, sizeof dest_, "fghi", 10), EOK);
  EXPECT_STREQ(dest_, "abcdefghi");
  EXPECT_EQ(strncat_s(dest_, sizeof dest_, "j", 1), ERANGE_AND_RESET);
  EXPECT_EQ(dest_[0], '\0');
}

TEST_F(StringsTest, StrncatChecks) {
  EXPECT_EQ(strncat_s(dest_, 0, "a", 1), ERANGE);
  EXPECT_EQ(strncat_s(nullptr, 4, "a", 1), EINVAL);
  EXPECT_EQ(strncat_s(dest_, 4, nullptr, 1), EINVAL_AND_RESET);
  std::memcpy(dest_, "ab", 3);
  EXPECT_EQ(strncat_s(dest_, 4, "a", SECUREC_STRING_MAX_LEN + 1),
            ERANGE_AND_RESET);
  SetUp();
  EXPECT_EQ(strncat_s(dest_, 9, "a", 1), EINVAL_AND_RESET);
  std::memcpy(dest_, "ab\0cd", 6);
  EXPECT_EQ(strncat_s(dest_, sizeof dest_, dest_ + 1, 1), EOVERLAP_AND_RESET);
}

TEST_F(StringsTest, StrtokSplitsAndKeepsItsPlace) {
  char text[] = ",,a,bb;;c,";
  char* context = nullptr;
  char* token = strtok_s(text, ",;", &context);
  ASSERT_NE(token, nullptr);
  EXPECT_STREQ(token, "a");
  token = strtok_s(nullptr, ",;", &context);
  ASSERT_NE(token, nullptr);
  EXPECT_STREQ(token, "bb");
  token = strtok_s(nullptr, ",;", &context);
  ASSERT_NE(token, nullptr);
  EXPECT_STREQ(token, "c");
  EXPECT_EQ(strtok_s(nullptr, ",;", &context), nullptr);
  EXPECT_EQ(strtok_s(nullptr, ",;", &context), nullptr);
}

TEST_F(StringsTest, StrtokRefusesNullArguments) {
  char text[] = "a b";
  char* context = nullptr;
  EXPECT_EQ(strtok_s(text, nullptr, &context), nullptr);
  EXPECT_EQ(strtok_s(text, " ", nullptr), nullptr);
  EXPECT_EQ(strtok_s(nullptr, " ", &context), nullptr);  // *context NULL
  EXPECT_STREQ(text, "a b");
  char only[] = "   ";
  EXPECT_EQ(strtok_s(only, " ", &context), nullptr);
}

TEST_F(StringsTest, GetsReadsOneLineOfStdin) {
  std::FILE* input = std::tmpfile();
  ASSERT_NE(input, nullptr);
  std::fputs("first line\nsecond\n", input);
  std::rewind(input);
  std::FILE* saved = stdin;
  stdin = input;
  char line[32];
  EXPECT_EQ(gets_s(line, sizeof line), line);
  EXPECT_STREQ(line, "first line");
  char small[4];
  EXPECT_EQ(gets_s(small, sizeof small), small);  // cut at destMax - 1
  EXPECT_STREQ(small, "sec");
  EXPECT_EQ(gets_s(line, sizeof line), line);
  EXPECT_STREQ(line, "ond");
  EXPECT_EQ(gets_s(line, sizeof line), nullptr);  // end of input
  EXPECT_STREQ(line, "");
  EXPECT_EQ(gets_s(nullptr, 4), nullptr);
  EXPECT_EQ(gets_s(line, 0), nullptr);
  stdin = saved;
  std::fclose(input);
}

TEST_F(StringsTest, WideStringsFollowTheSameRules) {
  wchar_t wide[6];
  EXPECT_EQ(wcscpy_s(wide, 6, L"hello"), EOK);
  EXPECT_EQ(std::wcscmp(wide, L"hello"), 0);
  EXPECT_EQ(wcscpy_s(wide, 5, L"hello"), ERANGE_AND_RESET);
  EXPECT_EQ(wide[0], L'\0');
  EXPECT_EQ(wcscpy_s(wide, 0, L"a"), ERANGE);
  EXPECT_EQ(wcscpy_s(wide, SECUREC_WCHAR_STRING_MAX_LEN + 1, L"a"), ERANGE);
  EXPECT_EQ(wcsncpy_s(wide, 6, L"abcdef", 3), EOK);
  EXPECT_EQ(std::wcscmp(wide, L"abc"), 0);
  EXPECT_EQ(wcscat_s(wide, 6, L"de"), EOK);
  EXPECT_EQ(std::wcscmp(wide, L"abcde"), 0);
  EXPECT_EQ(wcscat_s(wide, 6, L"f"), ERANGE_AND_RESET);
  EXPECT_EQ(wcsncat_s(wide, 6, L"xyz", 2), EOK);
  EXPECT_EQ(std::wcscmp(wide, L"xy"), 0);
  EXPECT_EQ(wcsncat_s(wide, 6, nullptr, 2), EINVAL_AND_RESET);
  wchar_t text[] = L"a b";
  wchar_t* context = nullptr;
  wchar_t* token = wcstok_s(text, L" ", &context);
  ASSERT_NE(token, nullptr);
  EXPECT_EQ(std::wcscmp(token, L"a"), 0);
  token = wcstok_s(nullptr, L" ", &context);
  ASSERT_NE(token, nullptr);
  EXPECT_EQ(std::wcscmp(token, L"b"), 0);
  EXPECT_EQ(wcstok_s(nullptr, L" ", &context), nullptr);
}

}  // namespace
}  // namespace ascend
