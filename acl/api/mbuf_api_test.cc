// Shared buffers (mbufs) through the C API: data region, valid-data length,
// user data, reference copies, chains, errors, and survival of a snapshot.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

TEST(MbufTest, DataRegionLengthAndUserData) {
  aclrtMbuf buf = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, 1000));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtGetBufData(buf, &data, &size));
  EXPECT_EQ(size, 1000u);
  ASSERT_NE(data, nullptr);
  std::memset(data, 0x5A, 1000);  // the whole region is writable
  size_t len = 99;
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 0u);  // no valid data yet
  ASSERT_ACL_OK(aclrtSetBufDataLen(buf, 600));
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 600u);

  const char msg[] = "context";
  ASSERT_ACL_OK(aclrtSetBufUserData(buf, msg, sizeof msg, 10));
  char back[sizeof msg] = {};
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, back, sizeof back, 10));
  EXPECT_STREQ(back, msg);
  uint8_t whole[96];
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, whole, 96, 0));
  EXPECT_EQ(whole[0], 0);  // starts zeroed
  EXPECT_EQ(whole[10], 'c');
  ASSERT_ACL_OK(aclrtFreeBuf(buf));
}

TEST(MbufTest, CopyRefSharesTheDataRegion) {
  aclrtMbuf buf = nullptr, ref = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, 64));
  ASSERT_ACL_OK(aclrtSetBufDataLen(buf, 32));
  ASSERT_ACL_OK(aclrtCopyBufRef(buf, &ref));
  ASSERT_NE(ref, buf);
  void *a = nullptr, *b = nullptr;
  size_t sa = 0, sb = 0;
  ASSERT_ACL_OK(aclrtGetBufData(buf, &a, &sa));
  ASSERT_ACL_OK(aclrtGetBufData(ref, &b, &sb));
  EXPECT_EQ(a, b);
  EXPECT_EQ(sa, sb);
  size_t len = 0;
  ASSERT_ACL_OK(aclrtGetBufDataLen(ref, &len));
  EXPECT_EQ(len, 32u);
  // The region outlives the original's free.
  static_cast<uint8_t*>(a)[0] = 42;
  ASSERT_ACL_OK(aclrtFreeBuf(buf));
  ASSERT_ACL_OK(aclrtGetBufData(ref, &b, &sb));
  EXPECT_EQ(static_cast<uint8_t*>(b)[0], 42);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtGetBufDataLen(buf, &len));
  ASSERT_ACL_OK(aclrtFreeBuf(ref));
}

TEST(MbufTest, Chains) {
  aclrtMbuf head = nullptr, m1 = nullptr, m2 = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&head, 16));
  ASSERT_ACL_OK(aclrtAllocBuf(&m1, 16));
  ASSERT_ACL_OK(aclrtAllocBuf(&m2, 16));
  uint32_t num = 0;
  ASSERT_ACL_OK(aclrtGetBufChainNum(head, &num));
  EXPECT_EQ(num, 1u);
  ASSERT_ACL_OK(aclrtAppendBufChain(head, m1));
  ASSERT_ACL_OK(aclrtAppendBufChain(head, m2));
  ASSERT_ACL_OK(aclrtGetBufChainNum(head, &num));
  EXPECT_EQ(num, 3u);
  aclrtMbuf at = nullptr;
  ASSERT_ACL_OK(aclrtGetBufFromChain(head, 0, &at));
  EXPECT_EQ(at, head);
  ASSERT_ACL_OK(aclrtGetBufFromChain(head, 2, &at));
  EXPECT_EQ(at, m2);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetBufFromChain(head, 3, &at));
  // Not twice, not into itself, not a chained one as a head.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtAppendBufChain(head, m1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtAppendBufChain(head, head));
  aclrtMbuf loose = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&loose, 16));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtAppendBufChain(m1, loose));
  // Freeing a head frees its chain.
  ASSERT_ACL_OK(aclrtFreeBuf(head));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeBuf(m1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeBuf(m2));
  ASSERT_ACL_OK(aclrtFreeBuf(loose));
}

TEST(MbufTest, ChainHoldsAtMost128) {
  aclrtMbuf head = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&head, 1));
  for (int i = 0; i < 127; ++i) {
    aclrtMbuf m = nullptr;
    ASSERT_ACL_OK(aclrtAllocBuf(&m, 1));
    ASSERT_ACL_OK(aclrtAppendBufChain(head, m));
  }
  aclrtMbuf extra = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&extra, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtAppendBufChain(head, extra));
  uint32_t num = 0;
  ASSERT_ACL_OK(aclrtGetBufChainNum(head, &num));
  EXPECT_EQ(num, 128u);
  ASSERT_ACL_OK(aclrtFreeBuf(head));
  ASSERT_ACL_OK(aclrtFreeBuf(extra));
}

TEST(MbufTest, Errors) {
  aclrtMbuf buf = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAllocBuf(nullptr, 16));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAllocBuf(&buf, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocBuf(&buf, (size_t{4} << 30) + 1));
  EXPECT_EQ(buf, nullptr);
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, 16));
  void* data = nullptr;
  size_t size = 0;
  uint32_t num = 0;
  uint8_t user[96] = {};
  aclrtMbuf out = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeBuf(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufData(nullptr, &data, &size));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufData(buf, nullptr, &size));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufData(buf, &data, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetBufDataLen(buf, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetBufDataLen(nullptr, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetBufDataLen(buf, 17));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetBufUserData(buf, user, 90, 7));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufUserData(buf, user, 97, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufUserData(buf, user, 1, SIZE_MAX));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetBufUserData(buf, nullptr, 1, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufUserData(nullptr, user, 1, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCopyBufRef(buf, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAppendBufChain(buf, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetBufChainNum(buf, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetBufFromChain(nullptr, 0, &out));
  // A pointer that is no mbuf.
  int bogus = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeBuf(&bogus));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetBufChainNum(&bogus, &num));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtCopyBufRef(&bogus, &out));
  size_t len = 1;
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 0u);  // the rejected calls changed nothing
  ASSERT_ACL_OK(aclrtFreeBuf(buf));
}

TEST(MbufTest, SurvivesASnapshot) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtMbuf buf = nullptr, ref = nullptr;
  ASSERT_ACL_OK(aclrtAllocBuf(&buf, 256));
  void* data = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtGetBufData(buf, &data, &size));
  for (int i = 0; i < 256; ++i) static_cast<uint8_t*>(data)[i] = i;
  ASSERT_ACL_OK(aclrtSetBufDataLen(buf, 200));
  const uint32_t tag = 0xC0FFEE;
  ASSERT_ACL_OK(aclrtSetBufUserData(buf, &tag, sizeof tag, 4));
  ASSERT_ACL_OK(aclrtCopyBufRef(buf, &ref));
  ASSERT_ACL_OK(aclrtAppendBufChain(buf, ref));

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  void* after = nullptr;
  ASSERT_ACL_OK(aclrtGetBufData(buf, &after, &size));
  EXPECT_EQ(after, data);
  EXPECT_EQ(size, 256u);
  for (int i = 0; i < 256; ++i) {
    ASSERT_EQ(static_cast<uint8_t*>(after)[i], static_cast<uint8_t>(i));
  }
  size_t len = 0;
  ASSERT_ACL_OK(aclrtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 200u);
  uint32_t back = 0;
  ASSERT_ACL_OK(aclrtGetBufUserData(buf, &back, sizeof back, 4));
  EXPECT_EQ(back, tag);
  uint32_t num = 0;
  ASSERT_ACL_OK(aclrtGetBufChainNum(buf, &num));
  EXPECT_EQ(num, 2u);
  ASSERT_ACL_OK(aclrtFreeBuf(buf));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
}

}  // namespace
