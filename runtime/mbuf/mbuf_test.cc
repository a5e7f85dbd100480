// MbufPool: chains, reference copies and freeing.
#include "runtime/mbuf/mbuf.h"

#include <cstring>

#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

TEST(MbufPoolTest, FreeingAMemberUnlinksIt) {
  MbufPool pool;
  ASSERT_OK_AND_ASSIGN(void* head, pool.Alloc(8));
  ASSERT_OK_AND_ASSIGN(void* a, pool.Alloc(8));
  ASSERT_OK_AND_ASSIGN(void* b, pool.Alloc(8));
  ASSERT_OK(pool.Append(head, a));
  ASSERT_OK(pool.Append(head, b));
  ASSERT_OK(pool.Free(a));
  ASSERT_OK_AND_ASSIGN(uint32_t n, pool.ChainLength(head));
  EXPECT_EQ(n, 2u);
  ASSERT_OK_AND_ASSIGN(void* at, pool.ChainAt(head, 1));
  EXPECT_EQ(at, b);
  ASSERT_OK(pool.Free(head));
  EXPECT_EQ(pool.size(), 0u);
}

TEST(MbufPoolTest, RefCopyKeepsTheRegion) {
  MbufPool pool;
  ASSERT_OK_AND_ASSIGN(void* buf, pool.Alloc(4));
  ASSERT_OK_AND_ASSIGN(MbufPool::Data d, pool.GetData(buf));
  std::memcpy(d.ptr, "abc", 4);
  ASSERT_OK_AND_ASSIGN(void* ref, pool.CopyRef(buf));
  ASSERT_OK(pool.Free(buf));
  ASSERT_OK_AND_ASSIGN(MbufPool::Data r, pool.GetData(ref));
  EXPECT_STREQ(static_cast<const char*>(r.ptr), "abc");
  EXPECT_EQ(ErrorCode(pool.GetData(buf).status()), 107000);
  ASSERT_OK(pool.Free(ref));
}

}  // namespace
}  // namespace ascend::rt
