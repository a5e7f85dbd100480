// sscanf_s, fscanf_s, scanf_s and their va_list forms: conversions, buffer
// sizes of %s, %c and %[, and the return values (securec.h; DESIGN.md
// §5.25).
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cwchar>

#include "gtest/gtest.h"
#include "securec.h"

namespace ascend {
namespace {

class ScanfTest : public ::testing::Test {};

TEST_F(ScanfTest, Integers) {
  int d = 0;
  unsigned u = 0;
  int x = 0;
  int o = 0;
  int i = 0;
  EXPECT_EQ(
      sscanf_s(" -12 34 ff 17 0x1A", "%d %u %x %o %i", &d, &u, &x, &o, &i), 5);
  EXPECT_EQ(d, -12);
  EXPECT_EQ(u, 34u);
  EXPECT_EQ(x, 255);
  EXPECT_EQ(o, 15);
  EXPECT_EQ(i, 26);
  EXPECT_EQ(sscanf_s("010", "%i", &i), 1);
  EXPECT_EQ(i, 8);
}

TEST_F(ScanfTest, LengthModifiers) {
  signed char hh = 0;
  short h = 0;
  long l = 0;
  long long ll = 0;
  size_t z = 0;
  intmax_t j = 0;
  unsigned char uhh = 0;
  EXPECT_EQ(sscanf_s("-5 300 -70000 9000000000 12 -3 250",
                     "%hhd %hd %ld %lld %zu %jd %hhu", &hh, &h, &l, &ll, &z, &j,
                     &uhh),
            7);
  EXPECT_EQ(hh, -5);
  EXPECT_EQ(h, 300);
  EXPECT_EQ(l, -70000);
  EXPECT_EQ(ll, 9000000000LL);
  EXPECT_EQ(z, 12u);
  EXPECT_EQ(j, -3);
  EXPECT_EQ(uhh, 250);
}

TEST_F(ScanfTest, WidthLimitsAField) {
  int a = 0;
  int b = 0;
  EXPECT_EQ(sscanf_s("12345", "%2d%3d", &a, &b), 2);
  EXPECT_EQ(a, 12);
  EXPECT_EQ(b, 345);
}

TEST_F(ScanfTest, Floats) {
  float f = 0;
  double d = 0;
  long double ld = 0;
  EXPECT_EQ(sscanf_s("1.5 -2.25e2 0x1p4", "%f %lf %Lg", &f, &d, &ld), 3);
  EXPECT_FLOAT_EQ(f, 1.5f);
  EXPECT_DOUBLE_EQ(d, -225.0);
  EXPECT_EQ(ld, 16.0L);
  EXPECT_EQ(sscanf_s("inf nan", "%lf %f", &d, &f), 2);
  EXPECT_TRUE(d > 1e308);
  EXPECT_TRUE(f != f);
}

TEST_F(ScanfTest, StringsNeedTheirSize) {
  char word[8];
  char next[4];
  EXPECT_EQ(sscanf_s("hello abc", "%s %s", word, sizeof word, next,
                     static_cast<unsigned>(sizeof next)),
            2);
  EXPECT_STREQ(word, "hello");
  EXPECT_STREQ(next, "abc");
}

TEST_F(ScanfTest, StringTooLongEmptiesTheBufferAndStops) {
  char word[4] = "zzz";
  int n = 5;
  EXPECT_EQ(sscanf_s("abcd 7", "%s %d", word, sizeof word, &n), 0);
  EXPECT_STREQ(word, "");
  EXPECT_EQ(n, 5);
  int first = 0;
  char small[3] = "zz";
  EXPECT_EQ(sscanf_s("9 abc", "%d %s", &first, small, sizeof small), 1);
  EXPECT_EQ(first, 9);
  EXPECT_STREQ(small, "");
}

TEST_F(ScanfTest, SizeZeroTakesNothing) {
  char word[4] = "zzz";
  EXPECT_EQ(sscanf_s("a", "%s", word, static_cast<size_t>(0)), 0);
  EXPECT_STREQ(word, "zzz");  // no room even for the empty string
}

TEST_F(ScanfTest, CharactersNeedTheirCountWithoutTerminator) {
  char two[2] = {'x', 'x'};
  EXPECT_EQ(sscanf_s("ab", "%2c", two, sizeof two), 1);
  EXPECT_EQ(two[0], 'a');
  EXPECT_EQ(two[1], 'b');
  char one = 'x';
  EXPECT_EQ(sscanf_s(" q", "%c", &one, 1), 1);  // %c does not skip spaces
  EXPECT_EQ(one, ' ');
  EXPECT_EQ(sscanf_s("abc", "%3c", two, sizeof two), 0);  // too small
  EXPECT_EQ(two[0], '\0');
  EXPECT_EQ(sscanf_s("a", "%2c", two, sizeof two), -1);  // input ends
}

TEST_F(ScanfTest, ScanSets) {
  char out[8];
  char rest[8];
  EXPECT_EQ(
      sscanf_s("abc123def", "%[a-c]%[^e]", out, sizeof out, rest, sizeof rest),
      2);
  EXPECT_STREQ(out, "abc");
  EXPECT_STREQ(rest, "123d");
  EXPECT_EQ(sscanf_s("]]x", "%[]]", out, sizeof out), 1);
  EXPECT_STREQ(out, "]]");
  EXPECT_EQ(sscanf_s("xyz", "%[a-c]", out, sizeof out), 0);  // no match
  EXPECT_EQ(sscanf_s("abcdef", "%3[a-f]", out, sizeof out), 1);
  EXPECT_STREQ(out, "abc");
}

TEST_F(ScanfTest, WideBuffers) {
  wchar_t wide[4];
  EXPECT_EQ(sscanf_s("abc", "%ls", wide, 4), 1);
  EXPECT_EQ(std::wcscmp(wide, L"abc"), 0);
  EXPECT_EQ(sscanf_s("abcd", "%ls", wide, 4), 0);
  EXPECT_EQ(wide[0], L'\0');
}

TEST_F(ScanfTest, SuppressionCountAndPercent) {
  int a = 0;
  int consumed = 0;
  EXPECT_EQ(sscanf_s("12 word 34%", "%*d %*s %d%n%%", &a, &consumed), 1);
  EXPECT_EQ(a, 34);
  EXPECT_EQ(consumed, 10);
  void* p = nullptr;
  EXPECT_EQ(sscanf_s("0x1234", "%p", &p), 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p), 0x1234u);
}

TEST_F(ScanfTest, ReturnValues) {
  int a = 0;
  int b = 0;
  EXPECT_EQ(sscanf_s("", "%d", &a), -1);  // input ends first: EOF
  EXPECT_EQ(sscanf_s("   ", "%d", &a), -1);
  EXPECT_EQ(sscanf_s("x", "%d", &a), 0);         // matching failure
  EXPECT_EQ(sscanf_s("5", "%d %d", &a, &b), 1);  // ends after one
  EXPECT_EQ(sscanf_s("5,x", "%d,%d", &a, &b), 1);
  EXPECT_EQ(sscanf_s("ab", "ac%d", &a), 0);  // literal mismatch
  EXPECT_EQ(sscanf_s("a", "a%d", &a), -1);   // ends before conversion
  EXPECT_EQ(sscanf_s(nullptr, "%d", &a), -1);
  EXPECT_EQ(sscanf_s("1", nullptr), -1);
}

int CallVsscanf(const char* text, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsscanf_s(text, format, args);
  va_end(args);
  return n;
}

TEST_F(ScanfTest, StreamsAndVaListForms) {
  int a = 0;
  char word[8];
  EXPECT_EQ(CallVsscanf("7 seven", "%d %s", &a, word, sizeof word), 2);
  EXPECT_EQ(a, 7);
  EXPECT_STREQ(word, "seven");

  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  std::fputs("41 abc\n99", file);
  std::rewind(file);
  EXPECT_EQ(fscanf_s(file, "%d %s", &a, word, sizeof word), 2);
  EXPECT_EQ(a, 41);
  EXPECT_STREQ(word, "abc");
  EXPECT_EQ(fscanf_s(file, "%d", &a), 1);
  EXPECT_EQ(a, 99);
  EXPECT_EQ(fscanf_s(file, "%d", &a), -1);
  EXPECT_EQ(fscanf_s(nullptr, "%d", &a), -1);

  std::rewind(file);
  std::FILE* saved = stdin;
  stdin = file;
  EXPECT_EQ(scanf_s("%d", &a), 1);
  EXPECT_EQ(a, 41);
  stdin = saved;
  std::fclose(file);
}

}  // namespace
}  // namespace ascend
