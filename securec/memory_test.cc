// memset_s, memcpy_s, memmove_s and the wide forms: each argument check and
// its code, and what the destination holds afterwards (securec.h; DESIGN.md
// §5.25).
#include <cstring>
#include <cwchar>

#include "gtest/gtest.h"
#include "securec.h"

namespace ascend {
namespace {

class MemoryTest : public ::testing::Test {
 protected:
  void SetUp() override { std::memset(dest_, 'x', sizeof dest_); }
  bool All(char c, size_t n) const {
    for (size_t i = 0; i < n; ++i) {
      if (dest_[i] != c) return false;
    }
    return true;
  }
  char dest_[16];
  const char src_[17] = "0123456789abcdef";
};

TEST_F(MemoryTest, CodesHaveTheLibraryValues) {
  EXPECT_EQ(EOK, 0);
  EXPECT_EQ(EINVAL, 22);
  EXPECT_EQ(ERANGE, 34);
  EXPECT_EQ(EINVAL_AND_RESET, 150);
  EXPECT_EQ(ERANGE_AND_RESET, 162);
  EXPECT_EQ(EOVERLAP_AND_RESET, 182);
  EXPECT_EQ(SECUREC_MEM_MAX_LEN, 0x7fffffffUL);
  EXPECT_EQ(SECUREC_STRING_MAX_LEN, 0x7fffffffUL);
  unsigned short number = 0;
  EXPECT_NE(GetHwSecureCVersion(&number), nullptr);
  EXPECT_NE(number, 0);
  EXPECT_NE(GetHwSecureCVersion(nullptr), nullptr);
}

TEST_F(MemoryTest, MemsetFillsCountBytes) {
  EXPECT_EQ(memset_s(dest_, sizeof dest_, 'a', 4), EOK);
  EXPECT_TRUE(All('a', 4));
  EXPECT_EQ(dest_[4], 'x');
  EXPECT_EQ(memset_s(dest_, sizeof dest_, 0x141, 1), EOK);  // (unsigned char)
  EXPECT_EQ(dest_[0], 'A');
  EXPECT_EQ(memset_s(dest_, sizeof dest_, 'b', 0), EOK);
  EXPECT_EQ(dest_[0], 'A');
}

TEST_F(MemoryTest, MemsetRefusesBadSizesUntouched) {
  EXPECT_EQ(memset_s(dest_, 0, 'a', 1), ERANGE);
  EXPECT_EQ(memset_s(dest_, SECUREC_MEM_MAX_LEN + 1, 'a', 1), ERANGE);
  EXPECT_EQ(memset_s(nullptr, sizeof dest_, 'a', 1), EINVAL);
  EXPECT_TRUE(All('x', sizeof dest_));
}

TEST_F(MemoryTest, MemsetCountPastDestMaxFillsDestMax) {
  EXPECT_EQ(memset_s(dest_, 8, 'z', 9), ERANGE_AND_RESET);
  EXPECT_TRUE(All('z', 8));
  EXPECT_EQ(dest_[8], 'x');
}

TEST_F(MemoryTest, MemcpyCopies) {
  EXPECT_EQ(memcpy_s(dest_, sizeof dest_, src_, 16), EOK);
  EXPECT_EQ(std::memcmp(dest_, src_, 16), 0);
  EXPECT_EQ(memcpy_s(dest_, sizeof dest_, "QQ", 0), EOK);  // count 0
  EXPECT_EQ(dest_[0], '0');
  EXPECT_EQ(memcpy_s(dest_, sizeof dest_, dest_, 8), EOK);  // dest == src
  EXPECT_EQ(dest_[0], '0');
}

TEST_F(MemoryTest, MemcpyChecksInOrder) {
  EXPECT_EQ(memcpy_s(dest_, 0, src_, 1), ERANGE);
  EXPECT_EQ(memcpy_s(nullptr, 0, nullptr, 1), ERANGE);  // size first
  EXPECT_EQ(memcpy_s(dest_, SECUREC_MEM_MAX_LEN + 1, src_, 1), ERANGE);
  EXPECT_EQ(memcpy_s(nullptr, sizeof dest_, src_, 1), EINVAL);
  EXPECT_TRUE(All('x', sizeof dest_));
  EXPECT_EQ(memcpy_s(dest_, sizeof dest_, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_TRUE(All('\0', sizeof dest_));
  SetUp();
  EXPECT_EQ(memcpy_s(dest_, 8, src_, 9), ERANGE_AND_RESET);
  EXPECT_TRUE(All('\0', 8));
  EXPECT_EQ(dest_[8], 'x');  // only destMax bytes are reset
}

TEST_F(MemoryTest, MemcpyRefusesOverlap) {
  EXPECT_EQ(memcpy_s(dest_ + 1, 15, dest_, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(dest_[0], 'x');  // the 15 bytes of the destination are zeroed
  for (int i = 1; i < 16; ++i) EXPECT_EQ(dest_[i], '\0') << i;
  SetUp();
  EXPECT_EQ(memcpy_s(dest_, 16, dest_ + 3, 4), EOVERLAP_AND_RESET);
  EXPECT_TRUE(All('\0', 16));
  SetUp();
  // Adjacent ranges do not overlap.
  EXPECT_EQ(memcpy_s(dest_, 4, dest_ + 4, 4), EOK);
}

TEST_F(MemoryTest, MemmoveAllowsOverlap) {
  std::memcpy(dest_, src_, 16);
  EXPECT_EQ(memmove_s(dest_ + 1, 15, dest_, 8), EOK);
  EXPECT_EQ(std::memcmp(dest_, "001234567", 9), 0);
  EXPECT_EQ(memmove_s(dest_, 16, dest_ + 2, 4), EOK);
  EXPECT_EQ(std::memcmp(dest_, "1234", 4), 0);
}

TEST_F(MemoryTest, MemmoveChecks) {
  EXPECT_EQ(memmove_s(dest_, 0, src_, 1), ERANGE);
  EXPECT_EQ(memmove_s(nullptr, 4, src_, 1), EINVAL);
  EXPECT_EQ(memmove_s(dest_, 4, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_TRUE(All('\0', 4));
  SetUp();
  EXPECT_EQ(memmove_s(dest_, 4, src_, 5), ERANGE_AND_RESET);
  EXPECT_TRUE(All('\0', 4));
  EXPECT_EQ(memmove_s(dest_, 4, src_, 0), EOK);
}

TEST_F(MemoryTest, WideMemoryCountsCharacters) {
  wchar_t wide[4] = {L'a', L'b', L'c', L'd'};
  const wchar_t from[4] = {L'w', L'x', L'y', L'z'};
  EXPECT_EQ(wmemcpy_s(wide, 4, from, 4), EOK);
  EXPECT_EQ(std::wmemcmp(wide, from, 4), 0);
  EXPECT_EQ(wmemcpy_s(wide, 4, from, 5), ERANGE_AND_RESET);
  EXPECT_EQ(wide[3], L'\0');
  EXPECT_EQ(wmemcpy_s(wide, 4, nullptr, 5), EINVAL_AND_RESET);
  EXPECT_EQ(wmemcpy_s(wide, 0, from, 1), ERANGE);
  EXPECT_EQ(wmemcpy_s(wide, SECUREC_WCHAR_MEM_MAX_LEN + 1, from, 1), ERANGE);
  EXPECT_EQ(wmemcpy_s(nullptr, 4, from, 5), EINVAL);
  EXPECT_EQ(wmemcpy_s(wide + 1, 3, wide, 2), EOVERLAP_AND_RESET);
  const wchar_t seq[4] = {L'1', L'2', L'3', L'4'};
  EXPECT_EQ(wmemcpy_s(wide, 4, seq, 4), EOK);
  EXPECT_EQ(wmemmove_s(wide + 1, 3, wide, 3), EOK);
  EXPECT_EQ(wide[1], L'1');
  EXPECT_EQ(wide[3], L'3');
  EXPECT_EQ(wmemmove_s(wide, 2, wide, 3), ERANGE_AND_RESET);
}

}  // namespace
}  // namespace ascend
