// libc_sec.so's functions (securec.h): each bound and each code.
#include "securec.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace ascend {
namespace {

class SecurecTest : public ::testing::Test {};

TEST_F(SecurecTest, MemsetFillsUpToTheDestinationSize) {
  char buf[8];
  EXPECT_EQ(memset_s(buf, sizeof buf, 'a', 4), EOK);
  EXPECT_EQ(std::string(buf, 4), "aaaa");
  EXPECT_EQ(memset_s(buf, sizeof buf, 'b', 9), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(buf, 8), "bbbbbbbb");
  EXPECT_EQ(memset_s(nullptr, 8, 0, 1), EINVAL);
  EXPECT_EQ(memset_s(buf, 0, 0, 0), ERANGE);
  EXPECT_EQ(memset_s(buf, SECUREC_MEM_MAX_LEN + 1, 0, 1), ERANGE);
}

TEST_F(SecurecTest, MemcpyRefusesOverrunsNullSourcesAndOverlap) {
  char dst[4] = {1, 2, 3, 4};
  const char src[6] = "abcde";
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 4), EOK);
  EXPECT_EQ(std::string(dst, 4), "abcd");
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst, 4), std::string(4, '\0'));
  EXPECT_EQ(memcpy_s(dst, sizeof dst, nullptr, 1), EINVAL_AND_RESET);
  char over[8] = "abcdefg";
  EXPECT_EQ(memcpy_s(over + 1, 7, over, 4), EOVERLAP_AND_RESET);
  char move[8] = "abcdefg";
  EXPECT_EQ(memmove_s(move + 1, 7, move, 4), EOK);
  EXPECT_EQ(std::string(move, 7), "aabcdfg");
}

TEST_F(SecurecTest, StringCopiesAndAppendsKeepATerminator) {
  char buf[6];
  EXPECT_EQ(strcpy_s(buf, sizeof buf, "abc"), EOK);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(strcat_s(buf, sizeof buf, "de"), EOK);
  EXPECT_STREQ(buf, "abcde");
  EXPECT_EQ(strcat_s(buf, sizeof buf, "f"), ERANGE_AND_RESET);
  EXPECT_STREQ(buf, "");
  EXPECT_EQ(strcpy_s(buf, sizeof buf, "abcdef"), ERANGE_AND_RESET);
  EXPECT_EQ(strncpy_s(buf, sizeof buf, "abcdef", 3), EOK);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(strncat_s(buf, sizeof buf, "xyz", 2), EOK);
  EXPECT_STREQ(buf, "abcxy");
  EXPECT_EQ(strcpy_s(buf, sizeof buf, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(strcpy_s(nullptr, 4, "a"), EINVAL);
}

TEST_F(SecurecTest, FormattingFailsRatherThanOverruns) {
  char buf[8];
  EXPECT_EQ(sprintf_s(buf, sizeof buf, "%d-%d", 12, 34), 5);
  EXPECT_STREQ(buf, "12-34");
  EXPECT_EQ(sprintf_s(buf, sizeof buf, "%s", "too long text"), -1);
  EXPECT_STREQ(buf, "");
  EXPECT_EQ(snprintf_s(buf, sizeof buf, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(snprintf_s(buf, sizeof buf, 7, "%s", "abc"), 3);
  EXPECT_EQ(snprintf_s(buf, sizeof buf, 100, "%s", "abcdefghij"), -1);
  EXPECT_STREQ(buf, "abcdefg");
}

}  // namespace
}  // namespace ascend
