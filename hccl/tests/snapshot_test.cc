// A job of thread ranks in a process snapshot (DESIGN.md §5.27): all ranks
// at the same step, Lock -> Backup -> every device's memory lost -> Restore
// -> Unlock, and the job continues with the same handles and right results.
// A collective whose peers never joined cannot drain: Backup fails with
// 507908 within the lock timeout (ACL_SNAPSHOT_TIMEOUT_MS), changes nothing,
// and after Unlock the job goes on.
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "aclsim/aclsim.h"
#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

using Clock = std::chrono::steady_clock;

// A host-side meeting point for the rank threads and the coordinator.
class Meet {
 public:
  explicit Meet(int n) : n_(n) {}
  void Arrive() {
    std::unique_lock<std::mutex> lock(mu_);
    const int gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return gen_ != gen; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_, count_ = 0, gen_ = 0;
};

TEST(Snapshot, AJobAtOneStepRoundTripsThroughMemoryLoss) {
  Meet meet(5);  // four ranks and the coordinator
  std::thread coordinator([&] {
    meet.Arrive();  // every rank finished step 1
    const int pid = getpid();
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessLock(pid, nullptr));
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessBackup(pid, nullptr));
    for (int32_t d = 0; d < 4; ++d) {
      ASSERT_EQ(ACL_SUCCESS,
                aclsimInjectFault(d, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
    }
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessRestore(pid, nullptr));
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessUnlock(pid, nullptr));
    meet.Arrive();  // the ranks may go on
  });
  RunRanks(4, [&](Rank& r) {
    DeviceBuffer buf(std::vector<float>(1 << 16, 1));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 1 << 16, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    meet.Arrive();
    meet.Arrive();
    // The memory is back and the communicator pairs the next step.
    EXPECT_EQ(buf.Read<float>(), std::vector<float>(1 << 16, 4));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 1 << 16, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    EXPECT_EQ(buf.Read<float>(), std::vector<float>(1 << 16, 16));
  });
  coordinator.join();
}

TEST(Snapshot, ACollectiveWhosePeersNeverJoinedFailsTheBackup) {
  std::promise<void> unlocked;
  std::shared_future<void> go = unlocked.get_future().share();
  Meet queued(3);  // rank 0 queued its half; the coordinator may lock
  std::thread coordinator([&] {
    queued.Arrive();
    const int pid = getpid();
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessLock(pid, nullptr));
    const auto start = Clock::now();
    EXPECT_EQ(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
              aclrtSnapShotProcessBackup(pid, nullptr));
    const double took =
        std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_LT(took, 10.0);  // the lock timeout (1.5 s here), not the exec one
    ASSERT_EQ(ACL_SUCCESS, aclrtSnapShotProcessUnlock(pid, nullptr));
    unlocked.set_value();
  });
  RunRanks(2, [&](Rank& r) {
    DeviceBuffer buf(std::vector<int32_t>(8, static_cast<int32_t>(r.rank + 1)));
    if (r.rank == 0) {
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(buf.ptr(), buf.ptr(), 8, HCCL_DATA_TYPE_INT32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
    }
    queued.Arrive();
    go.wait();
    if (r.rank == 1) {
      // Nothing changed: rank 1's data is as it was, and its half arrives now.
      EXPECT_EQ(buf.Read<int32_t>(), std::vector<int32_t>(8, 2));
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(buf.ptr(), buf.ptr(), 8, HCCL_DATA_TYPE_INT32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
    }
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    EXPECT_EQ(buf.Read<int32_t>(), std::vector<int32_t>(8, 3));
  });
  coordinator.join();
}

}  // namespace
}  // namespace ascend::hccl::testing
