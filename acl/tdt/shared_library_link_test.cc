// The TDT shared libraries and libascendcl.so loaded together, as CANN's
// examples link them: one runtime serves all three (a buffer allocated
// through libacl_tdt_queue.so is a buffer of libascendcl.so's runtime), and
// a channel and a queue work end to end (DESIGN.md §5.23).
#include <cstdint>
#include <cstring>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

class SharedLibraryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
};

TEST_F(SharedLibraryTest, OneRuntimeServesEveryLibrary) {
  acltdtBuf buf = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(32, ACL_TDT_NORMAL_MEM, &buf));
  ASSERT_ACL_OK(aclrtSetBufDataLen(buf, 5));  // the runtime knows it
  size_t len = 0;
  ASSERT_ACL_OK(acltdtGetBufDataLen(buf, &len));
  EXPECT_EQ(len, 5u);
  ASSERT_ACL_OK(aclrtFreeBuf(buf));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, acltdtGetBufDataLen(buf, &len));
}

TEST_F(SharedLibraryTest, ChannelAndQueueEndToEnd) {
  acltdtChannelHandle* channel =
      acltdtCreateChannelWithCapacity(0, "shared_library", 2);
  ASSERT_NE(channel, nullptr);
  int32_t values[3] = {1, 2, 3};
  const int64_t dims[] = {3};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1,
                                              ACL_INT32, values, sizeof values);
  acltdtDataset* dataset = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, item));
  ASSERT_ACL_OK(acltdtSendTensor(channel, dataset, 0));
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtReceiveTensor(channel, got, 0));
  EXPECT_EQ(std::memcmp(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)),
                        values, sizeof values),
            0);
  ASSERT_ACL_OK(acltdtDestroyDataset(got));
  ASSERT_ACL_OK(acltdtDestroyDataItem(item));
  ASSERT_ACL_OK(acltdtDestroyDataset(dataset));
  ASSERT_ACL_OK(acltdtDestroyChannel(channel));

  uint32_t qid = 0;
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &qid));
  ASSERT_ACL_OK(
      acltdtEnqueueData(qid, values, sizeof values, nullptr, 0, 0, 0));
  int32_t back[3] = {};
  size_t size = 0;
  ASSERT_ACL_OK(
      acltdtDequeueData(qid, back, sizeof back, &size, nullptr, 0, 0));
  EXPECT_EQ(size, sizeof back);
  EXPECT_EQ(back[2], 3);
  ASSERT_ACL_OK(acltdtDestroyQueue(qid));
}

}  // namespace
}  // namespace ascend
