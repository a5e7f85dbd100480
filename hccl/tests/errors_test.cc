// Argument checks of every HCCL function, each rule of its page (the
// parameter tables and 约束说明 of hicann/hccl docs/zh/api_ref/
// comm_op_interface and hicann/hcomm docs/zh/api_ref/comm_mgr_c), with
// CANN's codes (hicann/hccl src/ops: HCCL_E_PTR for NULL pointers,
// HCCL_E_PARA for values, HCCL_E_NOT_SUPPORT for types and reductions). A
// refused call queues nothing and leaves the communicator working.
#include <cstring>
#include <fstream>

#include "hccl/hccl_mc2.h"
#include "hccl/testing/job.h"
#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

class ErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
    int32_t devices[2] = {0, 1};
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitAll(2, devices, comms_));
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(i));
      ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&streams_[i]));
    }
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
    buf_ = std::make_unique<DeviceBuffer>(std::vector<float>(64, 1));
    out_ = std::make_unique<DeviceBuffer>(std::vector<float>(64, 0));
  }
  void TearDown() override {
    // Nothing refused was queued, and the communicator still works.
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams_[i]));
    }
    DeviceBuffer a(std::vector<float>(4, 1)), b(std::vector<float>(4, 2));
    EXPECT_EQ(HCCL_SUCCESS,
              HcclAllReduce(a.ptr(), a.ptr(), 4, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, comms_[0], streams_[0]));
    EXPECT_EQ(HCCL_SUCCESS,
              HcclAllReduce(b.ptr(), b.ptr(), 4, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, comms_[1], streams_[1]));
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(streams_[i]));
    }
    EXPECT_EQ(a.Read<float>(), std::vector<float>(4, 3));
    EXPECT_EQ(out_->Read<float>(), std::vector<float>(64, 0));
    buf_.reset();
    out_.reset();
    for (int i = 0; i < 2; ++i) {
      // A stream is destroyed from its own context (06, aclrtDestroyStream).
      EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(i));
      EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(streams_[i]));
      EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(comms_[i]));
    }
  }
  void* in() const { return buf_->ptr(); }
  void* out() const { return out_->ptr(); }
  HcclComm comm() const { return comms_[0]; }
  aclrtStream stream() const { return streams_[0]; }
  // A handle that is no communicator.
  HcclComm bogus() const { return reinterpret_cast<HcclComm>(0x1234); }

  HcclComm comms_[2] = {};
  aclrtStream streams_[2] = {};
  std::unique_ptr<DeviceBuffer> buf_, out_;
};

// HcclAllReduce page: parameters, dataType说明, op说明, 约束说明 (alignment).
TEST_F(ErrorsTest, AllReduce) {
  const auto f = HCCL_DATA_TYPE_FP32;
  const auto sum = HCCL_REDUCE_SUM;
  EXPECT_EQ(HCCL_E_PTR, HcclAllReduce(in(), out(), 4, f, sum, comm(), nullptr));
  EXPECT_EQ(HCCL_E_PTR,
            HcclAllReduce(in(), out(), 4, f, sum, nullptr, stream()));
  EXPECT_EQ(HCCL_E_PTR,
            HcclAllReduce(nullptr, out(), 4, f, sum, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR,
            HcclAllReduce(in(), nullptr, 4, f, sum, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAllReduce(in(), out(), 4, f, sum, bogus(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclAllReduce(in(), out(), 0x800000000ULL, f, sum,
                                       comm(), stream()));
  for (HcclDataType t :
       {HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32,
        HCCL_DATA_TYPE_INT128, HCCL_DATA_TYPE_HIF8, HCCL_DATA_TYPE_FP8E4M3,
        HCCL_DATA_TYPE_RESERVED, static_cast<HcclDataType>(13)}) {
    EXPECT_EQ(HCCL_E_NOT_SUPPORT,
              HcclAllReduce(in(), out(), 4, t, sum, comm(), stream()))
        << t;
  }
  EXPECT_EQ(
      HCCL_E_NOT_SUPPORT,
      HcclAllReduce(in(), out(), 4, f, HCCL_REDUCE_RESERVED, comm(), stream()));
  // prod takes neither int16 nor bfp16.
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclAllReduce(in(), out(), 4, HCCL_DATA_TYPE_INT16,
                          HCCL_REDUCE_PROD, comm(), stream()));
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclAllReduce(in(), out(), 4, HCCL_DATA_TYPE_BFP16,
                          HCCL_REDUCE_PROD, comm(), stream()));
  // Addresses aligned to the type's size.
  char* odd = static_cast<char*>(in()) + 2;
  EXPECT_EQ(HCCL_E_PARA,
            HcclAllReduce(odd, out(), 4, f, sum, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAllReduce(in(), static_cast<char*>(out()) + 4, 4,
                          HCCL_DATA_TYPE_INT64, sum, comm(), stream()));
  // A count of 0 queues nothing, whatever else is passed.
  EXPECT_EQ(HCCL_SUCCESS,
            HcclAllReduce(nullptr, nullptr, 0, f, sum, nullptr, nullptr));
}

// HcclBroadcast, HcclScatter, HcclReduce: root must be a rank (the
// constraint "全局只能有1个root节点"); Scatter's sendBuf may be NULL off the
// root only.
TEST_F(ErrorsTest, RootedOperations) {
  const auto f = HCCL_DATA_TYPE_FP32;
  EXPECT_EQ(HCCL_E_PTR, HcclBroadcast(nullptr, 4, f, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclBroadcast(in(), 4, f, 2, comm(), stream()));
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclBroadcast(in(), 4, HCCL_DATA_TYPE_INT128, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclScatter(nullptr, out(), 1, f, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclScatter(in(), nullptr, 1, f, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclScatter(in(), out(), 1, f, 5, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclReduce(in(), out(), 4, f, HCCL_REDUCE_SUM, 2,
                                    comm(), stream()));
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclReduce(in(), out(), 4, HCCL_DATA_TYPE_UINT8, HCCL_REDUCE_SUM, 0,
                       comm(), stream()));
}

// HcclAllGather(V), HcclReduceScatter(V): "recvBuf与sendBuf配置的地址不能相同"
// for the V forms; counts must match this rank's entry.
TEST_F(ErrorsTest, GatherAndScatterForms) {
  const auto f = HCCL_DATA_TYPE_FP32;
  uint64_t counts[2] = {2, 2}, displs[2] = {0, 2};
  EXPECT_EQ(HCCL_E_PTR, HcclAllGather(in(), nullptr, 2, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAllGather(in(), out(), 0x400000000ULL, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclAllGatherV(in(), 2, out(), nullptr, displs, f,
                                       comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAllGatherV(in(), 2, in(), counts, displs, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclAllGatherV(in(), 3, out(), counts, displs, f,
                                        comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclReduceScatter(in(), out(), 2, f, HCCL_REDUCE_SUM,
                                          comm(), nullptr));
  EXPECT_EQ(HCCL_E_PTR, HcclReduceScatterV(in(), nullptr, displs, out(), 2, f,
                                           HCCL_REDUCE_SUM, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclReduceScatterV(in(), counts, displs, in(), 2, f,
                                            HCCL_REDUCE_SUM, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclReduceScatterV(in(), counts, displs, out(), 1, f,
                                            HCCL_REDUCE_SUM, comm(), stream()));
  // ReduceScatterV's dataType说明 has neither uint64 nor fp64.
  EXPECT_EQ(
      HCCL_E_NOT_SUPPORT,
      HcclReduceScatterV(in(), counts, displs, out(), 2, HCCL_DATA_TYPE_FP64,
                         HCCL_REDUCE_SUM, comm(), stream()));
}

// HcclAlltoAll(V/VC): "recvCount ... 需要与sendCount取值相同", "recvType ...
// 需要与sendType取值相同", "recvBuf与sendBuf配置的地址不能相同".
TEST_F(ErrorsTest, AlltoAllForms) {
  const auto f = HCCL_DATA_TYPE_FP32;
  EXPECT_EQ(HCCL_E_PARA,
            HcclAlltoAll(in(), 2, f, out(), 3, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclAlltoAll(in(), 2, f, out(), 2,
                                      HCCL_DATA_TYPE_INT32, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAlltoAll(in(), 2, f, in(), 2, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclAlltoAll(in(), 2, f, out(), 2, f, comm(), nullptr));
  uint64_t c[2] = {1, 1}, d[2] = {0, 1}, zero[2] = {0, 0};
  EXPECT_EQ(HCCL_E_PTR, HcclAlltoAllV(in(), c, nullptr, f, out(), c, d, f,
                                      comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA,
            HcclAlltoAllV(in(), c, d, f, in(), c, d, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR,
            HcclAlltoAllV(nullptr, c, d, f, out(), c, d, f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclAlltoAllV(in(), c, d, f, out(), c, d,
                                       HCCL_DATA_TYPE_FP16, comm(), stream()));
  uint64_t m[4] = {1, 1, 1, 1};
  EXPECT_EQ(HCCL_E_PTR,
            HcclAlltoAllVC(in(), nullptr, f, out(), f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclAlltoAllVC(in(), m, f, in(), f, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR,
            HcclAlltoAllVC(in(), m, f, nullptr, f, comm(), stream()));
  (void)zero;
}

// HcclSend / HcclRecv / HcclBatchSendRecv: the peer must be another rank.
TEST_F(ErrorsTest, PointToPoint) {
  const auto f = HCCL_DATA_TYPE_FP32;
  EXPECT_EQ(HCCL_E_PTR, HcclSend(nullptr, 4, f, 1, comm(), stream()));
  EXPECT_EQ(HCCL_E_PARA, HcclSend(in(), 4, f, 2, comm(), stream()));
  EXPECT_EQ(HCCL_E_NOT_SUPPORT, HcclSend(in(), 4, f, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_NOT_SUPPORT, HcclRecv(out(), 4, f, 0, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclRecv(out(), 4, f, 1, nullptr, stream()));
  // A value no enumerator has, as a C caller could pass (written as bytes:
  // C++ cannot name it).
  HcclSendRecvItem bad_type = {HCCL_SEND, in(), 4, f, 1};
  const uint32_t seven = 7;
  std::memcpy(&bad_type.sendRecvType, &seven, sizeof(seven));
  EXPECT_EQ(HCCL_E_PARA, HcclBatchSendRecv(&bad_type, 1, comm(), stream()));
  HcclSendRecvItem self = {HCCL_SEND, in(), 4, f, 0};
  EXPECT_EQ(HCCL_E_NOT_SUPPORT, HcclBatchSendRecv(&self, 1, comm(), stream()));
  HcclSendRecvItem null_buf = {HCCL_SEND, nullptr, 4, f, 1};
  EXPECT_EQ(HCCL_E_PTR, HcclBatchSendRecv(&null_buf, 1, comm(), stream()));
  EXPECT_EQ(HCCL_E_PTR, HcclBatchSendRecv(nullptr, 1, comm(), stream()));
  EXPECT_EQ(HCCL_SUCCESS, HcclBatchSendRecv(nullptr, 0, nullptr, nullptr));
  // 约束说明 of HcclGroupStart: no HcclBatchSendRecv inside a group.
  HcclSendRecvItem ok = {HCCL_SEND, in(), 4, f, 1};
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupStart());
  EXPECT_EQ(HCCL_E_NOT_SUPPORT, HcclBatchSendRecv(&ok, 1, comm(), stream()));
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupEnd());
}

// The communicator queries (HcclGetRankSize, HcclGetRankId, HcclGetCommName,
// HcclGetCommAsyncError, HcclBarrier, HcclCommDestroy): a handle that is no
// communicator is refused, not followed.
TEST_F(ErrorsTest, Queries) {
  uint32_t n = 0;
  char name[128];
  HcclResult e = HCCL_E_INTERNAL;
  EXPECT_EQ(HCCL_E_PTR, HcclGetRankSize(comm(), nullptr));
  EXPECT_EQ(HCCL_E_PTR, HcclGetRankSize(nullptr, &n));
  EXPECT_EQ(HCCL_E_PARA, HcclGetRankSize(bogus(), &n));
  EXPECT_EQ(HCCL_E_PTR, HcclGetRankId(comm(), nullptr));
  EXPECT_EQ(HCCL_E_PTR, HcclGetCommName(comm(), nullptr));
  EXPECT_EQ(HCCL_E_PTR, HcclGetCommAsyncError(comm(), nullptr));
  EXPECT_EQ(HCCL_E_PARA, HcclGetCommAsyncError(bogus(), &e));
  EXPECT_EQ(HCCL_E_PTR, HcclBarrier(comm(), nullptr));
  EXPECT_EQ(HCCL_E_PARA, HcclCommDestroy(bogus()));
  EXPECT_EQ(HCCL_E_PTR, HcclCommDestroy(nullptr));
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRankSize(comm(), &n));
  EXPECT_EQ(2u, n);
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRankId(comms_[1], &n));
  EXPECT_EQ(1u, n);
  ASSERT_EQ(HCCL_SUCCESS, HcclGetCommName(comm(), name));
  HcclComm found = nullptr;
  ASSERT_EQ(HCCL_SUCCESS, HcclCommGetHandleWithName(name, &found));
  EXPECT_EQ(found, comm());  // device 0 is current: rank 0's handle
  EXPECT_EQ(HCCL_E_NOT_FOUND, HcclCommGetHandleWithName("no_such", &found));
  HcclCommStatus status = HCCL_COMM_STATUS_INVALID;
  ASSERT_EQ(HCCL_SUCCESS, HcclCommGetStatus(name, &status));
  EXPECT_EQ(HCCL_COMM_STATUS_READY, status);
  EXPECT_EQ(HCCL_E_NOT_FOUND, HcclCommGetStatus("no_such", &status));
  ASSERT_EQ(HCCL_SUCCESS, HcclGetCommAsyncError(comm(), &e));
  EXPECT_EQ(HCCL_SUCCESS, e);
}

// HcclGetErrorString: a description for every code, never NULL.
TEST(ErrorStrings, EveryCode) {
  for (int c = 0; c <= 25; ++c) {
    ASSERT_NE(nullptr, HcclGetErrorString(static_cast<HcclResult>(c)));
  }
  EXPECT_STREQ("timeout", HcclGetErrorString(HCCL_E_TIMEOUT));
  EXPECT_STREQ("error cqe", HcclGetErrorString(HCCL_E_REMOTE));
  EXPECT_NE(nullptr, HcclGetErrorString(HCCL_E_IN_STATUS));
  // An out-of-range code (only a C caller can pass one): c_header_test.c.
}

// HcclGetCommConfigCapability: every item of HcclCommConfigCapability.
TEST(Config, CapabilityCoversEveryItem) {
  EXPECT_GT(HcclGetCommConfigCapability(),
            static_cast<uint32_t>(HCCL_COMM_CONFIG_BUFFER_NAME));
}

// HcclSetConfig / HcclGetConfig: only HCCL_DETERMINISTIC, 0 to 2.
TEST(Config, Deterministic) {
  HcclConfigValue v;
  v.value = 3;
  EXPECT_EQ(HCCL_E_PARA, HcclSetConfig(HCCL_DETERMINISTIC, v));
  EXPECT_EQ(HCCL_E_PARA, HcclSetConfig(HCCL_CONFIG_RESERVED, v));
  EXPECT_EQ(HCCL_E_PTR, HcclGetConfig(HCCL_DETERMINISTIC, nullptr));
  v.value = 2;
  ASSERT_EQ(HCCL_SUCCESS, HcclSetConfig(HCCL_DETERMINISTIC, v));
  v.value = 0;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetConfig(HCCL_DETERMINISTIC, &v));
  EXPECT_EQ(2, v.value);
  v.value = 0;
  ASSERT_EQ(HCCL_SUCCESS, HcclSetConfig(HCCL_DETERMINISTIC, v));
}

// HcclCommInitRootInfo(Config), HcclGetRootInfo: pointers, rank < nRanks,
// root information made by HcclGetRootInfo, a configuration made by
// HcclCommConfigInit with values in range (HcclCommConfig's 参数说明).
TEST(Init, RootInfoArguments) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  HcclRootInfo root;
  HcclComm comm = nullptr;
  EXPECT_EQ(HCCL_E_PTR, HcclGetRootInfo(nullptr));
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  EXPECT_EQ(HCCL_E_PTR, HcclCommInitRootInfo(1, nullptr, 0, &comm));
  EXPECT_EQ(HCCL_E_PTR, HcclCommInitRootInfo(1, &root, 0, nullptr));
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(0, &root, 0, &comm));
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(2, &root, 2, &comm));
  HcclRootInfo garbage;
  std::memset(&garbage, 0x5a, sizeof(garbage));
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(1, &garbage, 0, &comm));
  HcclCommConfig config;
  std::memset(&config, 0, sizeof(config));
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  EXPECT_EQ(HCCL_E_PTR,
            HcclCommInitRootInfoConfig(1, &root, 0, nullptr, &comm));
  HcclCommConfigInit(&config);
  config.hcclDeterministic = 3;
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  HcclCommConfigInit(&config);
  config.hcclBufferSize = 0;
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  HcclCommConfigInit(&config);
  config.hcclRdmaTrafficClass = 6;  // not a multiple of 4
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  HcclCommConfigInit(&config);
  std::memset(config.hcclCommName, 'x', sizeof(config.hcclCommName));
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  EXPECT_EQ(nullptr, comm);
  // A valid configuration names the communicator.
  HcclCommConfigInit(&config);
  std::strcpy(config.hcclCommName, "errors_test_comm");
  config.hcclExecTimeOut = 5;
  ASSERT_EQ(HCCL_SUCCESS,
            HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm));
  char name[128];
  ASSERT_EQ(HCCL_SUCCESS, HcclGetCommName(comm, name));
  EXPECT_STREQ("errors_test_comm", name);
  // Another communicator of this process may not take the name.
  HcclRootInfo other;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&other));
  HcclComm second = nullptr;
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommInitRootInfoConfig(1, &other, 0, &config, &second));
  // The same rank of one communicator cannot join twice.
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(1, &root, 0, &second));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(comm));
}

// HCCL's environment: values outside the documented ranges are refused.
TEST(Init, EnvironmentRanges) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  HcclComm comm = nullptr;
  {
    ScopedEnv env("HCCL_CONNECT_TIMEOUT", "7201");
    EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(1, &root, 0, &comm));
  }
  {
    ScopedEnv env("HCCL_EXEC_TIMEOUT", "-1");
    EXPECT_EQ(HCCL_E_PARA, HcclCommInitRootInfo(1, &root, 0, &comm));
  }
  {
    ScopedEnv env("HCCL_IF_IP", "not-an-address");
    HcclRootInfo r2;
    EXPECT_EQ(HCCL_E_PARA, HcclGetRootInfo(&r2));
  }
  {
    ScopedEnv env("HCCL_SOCKET_IFNAME", "=no_such_interface0");
    HcclRootInfo r2;
    EXPECT_EQ(HCCL_E_PARA, HcclGetRootInfo(&r2));
  }
  {
    ScopedEnv env("HCCL_IF_BASE_PORT", "80");
    HcclRootInfo r2;
    EXPECT_EQ(HCCL_E_PARA, HcclGetRootInfo(&r2));
  }
  EXPECT_EQ(nullptr, comm);
}

// HcclCommInitAll: ndev > 0, devices distinct and existing.
TEST(Init, InitAllArguments) {
  HcclComm comms[2];
  int32_t same[2] = {1, 1};
  int32_t missing[2] = {0, 99};
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitAll(0, same, comms));
  EXPECT_EQ(HCCL_E_PTR, HcclCommInitAll(2, nullptr, comms));
  EXPECT_EQ(HCCL_E_PTR, HcclCommInitAll(2, same, nullptr));
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitAll(2, same, comms));
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitAll(2, missing, comms));
}

// HcclCommInitClusterInfo: the path (at most 4096 bytes with the
// terminator), the file, its format, and the rank in it; 重复初始化会报错.
TEST(Init, RankTableArguments) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  HcclComm comm = nullptr;
  EXPECT_EQ(HCCL_E_PTR, HcclCommInitClusterInfo(nullptr, 0, &comm));
  std::string long_path(4096, 'a');
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(long_path.c_str(), 0, &comm));
  EXPECT_EQ(HCCL_E_OPEN_FILE_FAILURE,
            HcclCommInitClusterInfo("/no/such/rank_table.json", 0, &comm));
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  const std::string bad_json = write("bad.json", "{ not json");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(bad_json.c_str(), 0, &comm));
  const std::string not_ready =
      write("init.json",
            R"({"status":"initializing","version":"1.0","server_count":"1",
          "server_list":[{"server_id":"n0","device":[
            {"device_id":"0","rank_id":"0"}]}]})");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(not_ready.c_str(), 0, &comm));
  const std::string gap =
      write("gap.json",
            R"({"status":"completed","version":"1.0","server_count":"1",
          "server_list":[{"server_id":"n0","device":[
            {"device_id":"0","rank_id":"0"},{"device_id":"1","rank_id":"2"}]}]})");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(gap.c_str(), 0, &comm));
  const std::string miscount =
      write("count.json",
            R"({"status":"completed","version":"1.0","server_count":"2",
          "server_list":[{"server_id":"n0","device":[
            {"device_id":"0","rank_id":"0"}]}]})");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(miscount.c_str(), 0, &comm));
  const std::string one =
      write("one.json",
            R"({"status":"completed","version":"1.0","server_count":"1",
          "server_list":[{"server_id":"n0","device":[
            {"device_id":"0","device_ip":"127.0.0.1","device_port":"0",
             "rank_id":"0"}]}]})");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(one.c_str(), 0, &comm));
  const std::string good =
      write("good.json",
            R"({"status":"completed","version":"1.0","server_count":"1",
          "server_list":[{"server_id":"n0","device":[
            {"device_id":"0","device_ip":"127.0.0.1","device_port":")" +
                std::to_string(FreePort()) + R"(",
             "rank_id":"0"}]}]})");
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(good.c_str(), 1, &comm));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitClusterInfo(good.c_str(), 0, &comm));
  HcclComm again = nullptr;
  EXPECT_EQ(HCCL_E_PARA, HcclCommInitClusterInfo(good.c_str(), 0, &again));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(comm));
  // Once destroyed, the table can be used again.
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitClusterInfo(good.c_str(), 0, &comm));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDestroy(comm));
}

// HcclGroupStart / HcclGroupEnd: an end without a start; one kind per group.
TEST_F(ErrorsTest, Groups) {
  bool on = true;
  EXPECT_EQ(HCCL_E_PTR, HcclGroupStatusGet(nullptr));
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupStatusGet(&on));
  EXPECT_FALSE(on);
  EXPECT_EQ(HCCL_E_PARA, HcclGroupEnd());
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupStart());
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupStatusGet(&on));
  EXPECT_TRUE(on);
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  HcclComm made = nullptr;
  // A creation is kept for the end; a send then mixes kinds.
  ASSERT_EQ(HCCL_SUCCESS, HcclCommInitRootInfo(1, &root, 0, &made));
  EXPECT_EQ(HCCL_E_PARA,
            HcclSend(in(), 4, HCCL_DATA_TYPE_FP32, 1, comm(), stream()));
  ASSERT_EQ(HCCL_SUCCESS, HcclGroupEnd());
  ASSERT_NE(nullptr, made);
  EXPECT_EQ(HCCL_SUCCESS, HcclCommDestroy(made));
}

// Memory ranges: alignment, offset and flags must be 0 (their pages);
// ranges must not overlap; Unset/Deactivate need a range set/activated.
TEST_F(ErrorsTest, MemoryRanges) {
  char* base = static_cast<char*>(in());
  int handle_stand_in = 0;
  auto* handle = reinterpret_cast<aclrtDrvMemHandle>(&handle_stand_in);
  EXPECT_EQ(HCCL_E_PARA, HcclCommSetMemoryRange(comm(), base, 256, 1, 0));
  EXPECT_EQ(HCCL_E_PARA, HcclCommSetMemoryRange(comm(), base, 256, 0, 1));
  EXPECT_EQ(HCCL_E_PTR, HcclCommSetMemoryRange(comm(), nullptr, 256, 0, 0));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommSetMemoryRange(comm(), base, 256, 0, 0));
  EXPECT_EQ(HCCL_E_PARA, HcclCommSetMemoryRange(comm(), base + 128, 256, 0, 0));
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommActivateCommMemory(comm(), base + 128, 256, 0, handle, 0));
  EXPECT_EQ(HCCL_E_PARA,
            HcclCommActivateCommMemory(comm(), base, 64, 8, handle, 0));
  EXPECT_EQ(HCCL_E_PTR,
            HcclCommActivateCommMemory(comm(), base, 64, 0, nullptr, 0));
  ASSERT_EQ(HCCL_SUCCESS,
            HcclCommActivateCommMemory(comm(), base, 64, 0, handle, 0));
  EXPECT_EQ(HCCL_E_PARA, HcclCommUnsetMemoryRange(comm(), base));
  EXPECT_EQ(HCCL_E_PARA, HcclCommDeactivateCommMemory(comm(), base + 8));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommDeactivateCommMemory(comm(), base));
  ASSERT_EQ(HCCL_SUCCESS, HcclCommUnsetMemoryRange(comm(), base));
  EXPECT_EQ(HCCL_E_PARA, HcclCommUnsetMemoryRange(comm(), base));
}

// What the simulator cannot do answers HCCL_E_NOT_SUPPORT.
TEST_F(ErrorsTest, NotSupported) {
  uint32_t ranks[1] = {1};
  bool backup[1] = {true};
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclCommWorkingDevNicSet(comm(), ranks, backup, 1));
  ranks[0] = 9;
  EXPECT_EQ(HCCL_E_PARA, HcclCommWorkingDevNicSet(comm(), ranks, backup, 1));
  HcclCommSymWindow win = nullptr;
  EXPECT_EQ(HCCL_E_NOT_SUPPORT,
            HcclCommSymWinRegister(comm(), in(), 256, &win, 1));
  void* args = nullptr;
  EXPECT_EQ(HCCL_E_NOT_SUPPORT, HcclKfcAllocOpArgs(&args));
  HcclConfigTypeOpExpansionMode mode = HCCL_OP_EXPANSION_MODE_INVALID;
  EXPECT_EQ(
      HCCL_E_PARA,
      HcclConfigGetInfo(comm(), HCCL_CONFIG_TYPE_OP_EXPANSION_MODE, 1, &mode));
  ASSERT_EQ(HCCL_SUCCESS,
            HcclConfigGetInfo(comm(), HCCL_CONFIG_TYPE_OP_EXPANSION_MODE,
                              sizeof(mode), &mode));
  EXPECT_EQ(HCCL_OP_EXPANSION_MODE_HOST, mode);
}

}  // namespace
}  // namespace ascend::hccl::testing
