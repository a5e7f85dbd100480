// A collective is ordinary stream work: it is captured into a model runtime
// instance and replayed (aclmdlRICaptureBegin -> HcclAllReduce ->
// aclmdlRICaptureEnd -> aclmdlRIExecuteAsync, several times), and it appears
// in the task timeline under its name, with its result.
#include <mutex>
#include <string>

#include "ascendcl/timeline.h"
#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

TEST(Capture, ACapturedAllReduceReplays) {
  RunRanks(4, [](Rank& r) {
    DeviceBuffer buf(std::vector<float>(256, 1));
    ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(
                               r.stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 256, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    aclmdlRI model = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(r.stream, &model));
    // Captured, not run.
    EXPECT_EQ(buf.Read<float>(), std::vector<float>(256, 1));
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(model, r.stream));
    }
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    EXPECT_EQ(buf.Read<float>(), std::vector<float>(256, 64));  // 4^3
    // A collective queued directly afterwards pairs with the peers' too.
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 256, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(model, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    EXPECT_EQ(buf.Read<float>(), std::vector<float>(256, 1024));
    EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(model));
  });
}

struct Seen {
  std::mutex mu;
  std::vector<std::string> names;
  std::vector<int32_t> results;
  std::vector<uint32_t> kinds;
};

void Observe(const ascendclTaskRecord* record, void* data) {
  auto* seen = static_cast<Seen*>(data);
  std::lock_guard<std::mutex> lock(seen->mu);
  seen->names.push_back(record->name);
  seen->results.push_back(record->result);
  seen->kinds.push_back(record->kind);
}

TEST(Timeline, CollectivesAppearUnderTheirNames) {
  Seen seen;
  ASSERT_EQ(ACL_SUCCESS, ascendclTimelineSetObserver(&Observe, &seen));
  RunRanks(2, [](Rank& r) {
    DeviceBuffer buf(std::vector<float>(16, 1));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 16, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    ASSERT_EQ(HCCL_SUCCESS, HcclBarrier(r.comm, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
  });
  ASSERT_EQ(ACL_SUCCESS, ascendclTimelineSetObserver(nullptr, nullptr));
  int all_reduce = 0, barrier = 0;
  for (size_t i = 0; i < seen.names.size(); ++i) {
    if (seen.names[i] == "HcclAllReduce") {
      ++all_reduce;
      EXPECT_EQ(ASCENDCL_TASK_KERNEL, seen.kinds[i]);
      EXPECT_EQ(0, seen.results[i]);
    }
    if (seen.names[i] == "HcclBarrier") ++barrier;
  }
  EXPECT_EQ(2, all_reduce);
  EXPECT_EQ(2, barrier);
}

}  // namespace
}  // namespace ascend::hccl::testing
