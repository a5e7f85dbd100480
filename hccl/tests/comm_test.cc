// Ways to make communicators in one process: HcclCommInitAll, groups (one
// thread creating every rank; sends and receives that must not wait for
// each other; merged collectives), sub-communicators, rank tables, and the
// state callbacks around destruction (hicann/hcomm docs/zh/api_ref/
// comm_mgr_c: HcclCommInitAll, HcclGroupStart/End, HcclCreateSubCommConfig,
// HcclCommInitClusterInfo, HcclCommRegCommStateCallback).
#include <atomic>
#include <cstring>
#include <fstream>
#include <numeric>

#include "hccl/testing/job.h"
#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

std::vector<aclrtStream> StreamsOn(uint32_t n) {
  std::vector<aclrtStream> s(n);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(i)));
    EXPECT_EQ(ACL_SUCCESS, aclrtCreateStream(&s[i]));
  }
  return s;
}

void Finish(std::vector<HcclComm>& comms, std::vector<aclrtStream>& streams) {
  for (size_t i = 0; i < comms.size(); ++i) {
    EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams[i]));
    // A stream is destroyed from its own context (06, aclrtDestroyStream).
    EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(i)));
    EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(streams[i]));
    EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(comms[i]));
  }
}

TEST(InitAll, OneThreadQueuesEveryRanksCollective) {
  std::vector<int32_t> devices = {0, 1, 2, 3};
  std::vector<HcclComm> comms(4);
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitAll(4, devices.data(), comms.data()));
  std::vector<aclrtStream> streams = StreamsOn(4);
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  for (uint32_t i = 0; i < 4; ++i) {
    bufs.push_back(std::make_unique<DeviceBuffer>(
        std::vector<int32_t>(16, static_cast<int32_t>(i))));
    ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(bufs[i]->ptr(), bufs[i]->ptr(), 16,
                                          HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                                          comms[i], streams[i]));
  }
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams[i]));
    EXPECT_EQ(bufs[i]->Read<int32_t>(), std::vector<int32_t>(16, 6));
    uint32_t rank = 9;
    ASSERT_EQ(HCCL_SUCCESS, HcclGetRankId(comms[i], &rank));
    EXPECT_EQ(i, rank);
  }
  bufs.clear();
  Finish(comms, streams);
}

// HcclGroupStart 示例一: one thread creates the ranks of every device.
TEST(Groups, OneThreadCreatesEveryRank) {
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  std::vector<HcclComm> comms(4, nullptr);
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupStart());
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(i)));
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitRootInfo(4, &root, i, &comms[i]));
  }
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupEnd());
  std::vector<aclrtStream> streams = StreamsOn(4);
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  // 示例二: merged collectives (ReduceScatter then AllGather) per rank.
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_NE(nullptr, comms[i]);
    bufs.push_back(std::make_unique<DeviceBuffer>(std::vector<float>(4, 1)));
  }
  std::vector<std::unique_ptr<DeviceBuffer>> parts;
  for (uint32_t i = 0; i < 4; ++i) {
    parts.push_back(std::make_unique<DeviceBuffer>(sizeof(float)));
    ASSERT_EQ(HCCL_SUCCESS, HcclGroupStart());
    ASSERT_EQ(HCCL_SUCCESS,
              HcclReduceScatter(bufs[i]->ptr(), parts[i]->ptr(), 1,
                                HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[i],
                                streams[i]));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllGather(parts[i]->ptr(), bufs[i]->ptr(), 1,
                            HCCL_DATA_TYPE_FP32, comms[i], streams[i]));
    ASSERT_EQ(HCCL_SUCCESS, HcclGroupEnd());
  }
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams[i]));
    EXPECT_EQ(bufs[i]->Read<float>(), std::vector<float>(4, 4));
  }
  bufs.clear();
  parts.clear();
  Finish(comms, streams);
}

// HcclGroupStart 示例三: every rank sends to and receives from every other
// in one group; sent one by one, the first send would wait for ever.
TEST(Groups, SendsAndReceivesDoNotWaitForEachOther) {
  RunRanks(4, [](Rank& r) {
    std::vector<std::unique_ptr<DeviceBuffer>> out, in;
    ASSERT_EQ(HCCL_SUCCESS, HcclGroupStart());
    for (uint32_t peer = 0; peer < 4; ++peer) {
      out.push_back(std::make_unique<DeviceBuffer>(
          std::vector<int32_t>(8, static_cast<int32_t>(10 * r.rank + peer))));
      in.push_back(std::make_unique<DeviceBuffer>(8 * sizeof(int32_t)));
      if (peer == r.rank) continue;
      ASSERT_EQ(HCCL_SUCCESS,
                HcclSend(out[peer]->ptr(), 8, HCCL_DATA_TYPE_INT32, peer,
                         r.comm, r.stream));
    }
    for (uint32_t peer = 0; peer < 4; ++peer) {
      if (peer == r.rank) continue;
      ASSERT_EQ(HCCL_SUCCESS, HcclRecv(in[peer]->ptr(), 8, HCCL_DATA_TYPE_INT32,
                                       peer, r.comm, r.stream));
    }
    ASSERT_EQ(HCCL_SUCCESS, HcclGroupEnd());
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    for (uint32_t peer = 0; peer < 4; ++peer) {
      if (peer == r.rank) continue;
      EXPECT_EQ(
          in[peer]->Read<int32_t>(),
          std::vector<int32_t>(8, static_cast<int32_t>(10 * peer + r.rank)));
    }
  });
}

TEST(SubComms, EvensAndOddsReduceSeparately) {
  RunRanks(8, [](Rank& r) {
    std::vector<uint32_t> ids;
    for (uint32_t i = r.rank % 2; i < 8; i += 2) ids.push_back(i);
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    HcclComm sub = nullptr;
    ASSERT_EQ(HCCL_SUCCESS,
              HcclCreateSubCommConfig(&r.comm, 4, ids.data(), r.rank % 2,
                                      r.rank / 2, &config, &sub));
    uint32_t size = 0, id = 9;
    ASSERT_EQ(HCCL_SUCCESS, HcclGetRankSize(sub, &size));
    ASSERT_EQ(HCCL_SUCCESS, HcclGetRankId(sub, &id));
    EXPECT_EQ(4u, size);
    EXPECT_EQ(r.rank / 2, id);
    char parent_name[128], sub_name[128];
    ASSERT_EQ(HCCL_SUCCESS, HcclGetCommName(r.comm, parent_name));
    ASSERT_EQ(HCCL_SUCCESS, HcclGetCommName(sub, sub_name));
    EXPECT_EQ(std::string(parent_name) + "_sub_" + std::to_string(r.rank % 2),
              sub_name);
    DeviceBuffer buf(std::vector<int32_t>(4, static_cast<int32_t>(r.rank)));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 4, HCCL_DATA_TYPE_INT32,
                            HCCL_REDUCE_SUM, sub, r.stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
    EXPECT_EQ(buf.Read<int32_t>(),
              std::vector<int32_t>(4, r.rank % 2 == 0 ? 12 : 16));
    // Only a communicator made from a root, a table or InitAll splits.
    HcclComm deeper = nullptr;
    EXPECT_EQ(HCCL_E_PARA,
              HcclCreateSubCommConfig(&sub, 4, ids.data(), 7, r.rank / 2,
                                      &config, &deeper));
    ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(sub));
    // A rank outside passes rankIds NULL and gets no communicator.
    HcclComm none = &none;
    ASSERT_EQ(HCCL_SUCCESS,
              HcclCreateSubCommConfig(&r.comm, 0, nullptr, 0xFFFFFFFF, 0,
                                      &config, &none));
    EXPECT_EQ(nullptr, none);
  });
}

TEST(RankTables, ThreadsOfOneProcessMeetAtRankZero) {
  const std::string path = ::testing::TempDir() + "/four_ranks.json";
  std::ofstream(path) << R"({
    "status": "completed", "version": "1.0", "server_count": "1",
    "server_list": [{"server_id": "node_0", "device": [
      {"device_id": "0", "device_ip": "127.0.0.1", "device_port": ")" +
                             std::to_string(FreePort()) + R"(",
       "rank_id": "0"},
      {"device_id": "1", "rank_id": "1"},
      {"device_id": "2", "rank_id": "2"},
      {"device_id": "3", "rank_id": "3"}]}]})";
  OnThreads(4, [&](uint32_t rank) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(rank)));
    HcclComm comm = nullptr;
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitClusterInfoConfig(path.c_str(), rank,
                                                          &config, &comm));
    aclrtStream stream;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&stream));
    DeviceBuffer buf(std::vector<int64_t>(3, rank + 1));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 3, HCCL_DATA_TYPE_INT64,
                            HCCL_REDUCE_PROD, comm, stream));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(stream));
    EXPECT_EQ(buf.Read<int64_t>(), std::vector<int64_t>(3, 24));
    EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream));
    EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(comm));
  });
}

std::atomic<int> g_destroy_pre{0}, g_destroy_post{0};
HcclResult CountPhases(HcclComm, HcclCommStatePhase phase, void* args) {
  if (phase == HCCL_COMM_STATE_PHASE_DESTROY_PRE) g_destroy_pre++;
  if (phase == HCCL_COMM_STATE_PHASE_DESTROY_POST) g_destroy_post++;
  *static_cast<int*>(args) += 1;
  return HCCL_SUCCESS;
}

TEST(StateCallbacks, CalledAroundDestroy) {
  int calls = 0;
  EXPECT_EQ(HCCL_E_PTR,
            HcclCommRegCommStateCallback(nullptr, CountPhases, &calls));
  EXPECT_EQ(HCCL_E_PTR, HcclCommRegCommStateCallback("x", nullptr, &calls));
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommRegCommStateCallback(std::string(161, 'n').c_str(),
                                         CountPhases, &calls));
  ASSERT_EQ(HCCL_SUCCESS,
            HcclCommRegCommStateCallback("comm_test", CountPhases, &calls));
  int32_t devices[2] = {0, 1};
  HcclComm comms[2];
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitAll(2, devices, comms));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(comms[0]));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(comms[1]));
  EXPECT_EQ(2, g_destroy_pre.load());
  EXPECT_EQ(2, g_destroy_post.load());
  EXPECT_EQ(4, calls);
}

}  // namespace
}  // namespace ascend::hccl::testing
