// Failures with ranks as threads: a rank that never arrives (at creation or
// at an operation), ranks that disagree, a rank destroying or suspending
// its communicator while peers wait. Peers fail within the configured
// timeout, the stream reports it, HcclGetCommAsyncError says why, and
// nothing hangs (HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT pages of
// hicann/hccl docs/zh/user_guide/hccl_env; HcclGetCommAsyncError,
// HcclCommDestroy, HcclCommSuspend, HcclCommResume pages).
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Waits for `flag`, at most 30 s (a failed check elsewhere never hangs the
// test).
void Await(const std::atomic<bool>& flag) {
  const auto end = Clock::now() + std::chrono::seconds(30);
  while (!flag && Clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

TEST(Failures, ARankThatNeverJoinsTimesTheCreationOut) {
  ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  HcclComm comm = nullptr;
  const auto start = Clock::now();
  EXPECT_EQ(HCCL_E_TIMEOUT, HcclCommInitRootInfo(2, &root, 0, &comm));
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(nullptr, comm);
}

TEST(Failures, AnUnreachableRankZeroFailsTheConnection) {
  ScopedEnv timeout("HCCL_CONNECT_TIMEOUT", "1");
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  // Nobody serves this port: rank 1 cannot reach rank 0.
  const std::string path = ::testing::TempDir() + "/unreachable.json";
  std::ofstream(path) << R"({"status":"completed","version":"1.0",
    "server_count":"1","server_list":[{"server_id":"n0","device":[
      {"device_id":"0","device_ip":"127.0.0.1","device_port":"1",
       "rank_id":"0"},{"device_id":"1","rank_id":"1"}]}]})";
  HcclComm comm = nullptr;
  EXPECT_EQ(HCCL_E_TCP_CONNECT,
            HcclCommInitClusterInfo(path.c_str(), 1, &comm));
}

TEST(Failures, APeerThatNeverCallsTimesTheOperationOut) {
  ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
  std::atomic<bool> checked{false};
  RunRanks(2, [&](Rank& r) {
    DeviceBuffer buf(std::vector<float>(4, 1));
    // Rank 1 never calls, but keeps its communicator (destroying it would
    // fail rank 0 at once instead) until rank 0 has checked.
    if (r.rank == 1) Await(checked);
    if (r.rank == 0) {
      const auto start = Clock::now();
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(buf.ptr(), buf.ptr(), 4, HCCL_DATA_TYPE_FP32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
      EXPECT_EQ(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(r.stream));
      EXPECT_LT(SecondsSince(start), 5.0);
      HcclResult why = HCCL_SUCCESS;
      ASSERT_EQ(HCCL_SUCCESS, HcclGetCommAsyncError(r.comm, &why));
      EXPECT_EQ(HCCL_E_TIMEOUT, why);
      // The failed communicator refuses new work with its error.
      EXPECT_EQ(HCCL_E_TIMEOUT,
                HcclAllReduce(buf.ptr(), buf.ptr(), 4, HCCL_DATA_TYPE_FP32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
      // The input is untouched.
      EXPECT_EQ(buf.Read<float>(), std::vector<float>(4, 1));
      checked = true;
    }
  });
}

TEST(Failures, RanksThatDisagreeFailTogether) {
  RunRanks(2, [](Rank& r) {
    DeviceBuffer buf(std::vector<float>(8, 1));
    const uint64_t count = r.rank == 0 ? 4 : 8;
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), count, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclrtSynchronizeStream(r.stream));
    HcclResult why = HCCL_SUCCESS;
    ASSERT_EQ(HCCL_SUCCESS, HcclGetCommAsyncError(r.comm, &why));
    EXPECT_EQ(HCCL_E_PARA, why);
  });
}

TEST(Failures, DestroyingACommunicatorFailsItsWaitingPeersAtOnce) {
  ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "60");
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  OnThreads(2, [&](uint32_t rank) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(rank)));
    HcclComm comm = nullptr;
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitRootInfo(2, &root, rank, &comm));
    aclrtStream stream;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&stream));
    DeviceBuffer buf(std::vector<float>(4, 1));
    if (rank == 0) {
      const auto start = Clock::now();
      ASSERT_EQ(HCCL_SUCCESS, HcclBroadcast(buf.ptr(), 4, HCCL_DATA_TYPE_FP32,
                                            0, comm, stream));
      EXPECT_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR,
                aclrtSynchronizeStream(stream));
      EXPECT_LT(SecondsSince(start), 10.0);  // not the 60 s exec timeout
      HcclResult why = HCCL_SUCCESS;
      ASSERT_EQ(HCCL_SUCCESS, HcclGetCommAsyncError(comm, &why));
      EXPECT_EQ(HCCL_E_REMOTE, why);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(comm));
    EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream));
  });
}

TEST(Failures, SuspendFailsWaitingWorkAndResumeRecovers) {
  ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "60");
  std::atomic<bool> checked{false};
  RunRanks(2, [&](Rank& r) {
    DeviceBuffer buf(std::vector<int32_t>(4, 1));
    if (r.rank == 1) {
      // Rank 1 keeps its communicator (destroying it would fail rank 0's
      // operation first) until rank 0 has checked.
      Await(checked);
    }
    if (r.rank == 0) {
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(buf.ptr(), buf.ptr(), 4, HCCL_DATA_TYPE_INT32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      ASSERT_EQ(HCCL_SUCCESS, HcclCommSuspend(r.comm));
      char name[128];
      HcclCommStatus status = HCCL_COMM_STATUS_READY;
      ASSERT_EQ(HCCL_SUCCESS, HcclGetCommName(r.comm, name));
      ASSERT_EQ(HCCL_SUCCESS, HcclCommGetStatus(name, &status));
      EXPECT_EQ(HCCL_COMM_STATUS_SUSPENDING, status);
      EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclrtSynchronizeStream(r.stream));
      EXPECT_EQ(HCCL_E_SUSPENDING,
                HcclAllReduce(buf.ptr(), buf.ptr(), 4, HCCL_DATA_TYPE_INT32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
      checked = true;
    }
  });
}

TEST(Failures, ResumedCommunicatorsWorkAgain) {
  ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "60");
  int32_t devices[2] = {0, 1};
  HcclComm comms[2];
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitAll(2, devices, comms));
  aclrtStream streams[2];
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(i));
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&streams[i]));
    bufs.push_back(
        std::make_unique<DeviceBuffer>(std::vector<int32_t>(4, i + 1)));
  }
  // Rank 0 waits for rank 1, then is suspended: both fail, at once.
  ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(bufs[0]->ptr(), bufs[0]->ptr(), 4,
                                        HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                        comms[0], streams[0]));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommSuspend(comms[0]));
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(streams[0]));
  ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(bufs[1]->ptr(), bufs[1]->ptr(), 4,
                                        HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                        comms[1], streams[1]));
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(streams[1]));
  // Both resume (after aclrtDeviceTaskAbort, as the page says, there is
  // nothing left to stop here) and reduce again.
  for (int i = 0; i < 2; ++i) ASSERT_EQ(HCCL_SUCCESS, HcclCommResume(comms[i]));
  for (int i = 0; i < 2; ++i) {
    HcclResult why = HCCL_E_INTERNAL;
    ASSERT_EQ(HCCL_SUCCESS, HcclGetCommAsyncError(comms[i], &why));
    EXPECT_EQ(HCCL_SUCCESS, why);
    ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(bufs[i]->ptr(), bufs[i]->ptr(), 4,
                                          HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                          comms[i], streams[i]));
  }
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams[i]));
    EXPECT_EQ(bufs[i]->Read<int32_t>(), std::vector<int32_t>(4, 3));
  }
  bufs.clear();
  for (int i = 0; i < 2; ++i) {
    // A stream is destroyed from its own context (06, aclrtDestroyStream).
    EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(i));
    EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(streams[i]));
    EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(comms[i]));
  }
}

TEST(Failures, ASendNobodyReceivesTimesOut) {
  ScopedEnv timeout("HCCL_EXEC_TIMEOUT", "1");
  std::atomic<bool> checked{false};
  RunRanks(2, [&](Rank& r) {
    if (r.rank != 0) {
      Await(checked);
      return;
    }
    DeviceBuffer buf(std::vector<float>(4, 1));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclSend(buf.ptr(), 4, HCCL_DATA_TYPE_FP32, 1, r.comm, r.stream));
    EXPECT_EQ(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(r.stream));
    checked = true;
  });
}

TEST(Failures, SizesOfASendAndItsReceiveMustMatch) {
  RunRanks(2, [](Rank& r) {
    DeviceBuffer buf(std::vector<float>(8, 1));
    if (r.rank == 0) {
      ASSERT_EQ(HCCL_SUCCESS, HcclSend(buf.ptr(), 8, HCCL_DATA_TYPE_FP32, 1,
                                       r.comm, r.stream));
    } else {
      ASSERT_EQ(HCCL_SUCCESS, HcclRecv(buf.ptr(), 4, HCCL_DATA_TYPE_FP32, 0,
                                       r.comm, r.stream));
    }
    EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclrtSynchronizeStream(r.stream));
  });
}

}  // namespace
}  // namespace ascend::hccl::testing
