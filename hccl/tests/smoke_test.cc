#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

TEST(Smoke, AllReduceEightThreads) {
  RunRanks(8, [](Rank& r) {
    std::vector<float> in(8);
    for (int i = 0; i < 8; ++i) in[i] = static_cast<float>(i);
    DeviceBuffer send(in);
    DeviceBuffer recv(in.size() * sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(send.ptr(), recv.ptr(), 8, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    std::vector<float> out = recv.Read<float>();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 8.0f * i);
  });
}

}  // namespace
}  // namespace ascend::hccl::testing
