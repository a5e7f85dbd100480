// Subscription to the operators of a model (DESIGN.md §5.24): the rules
// and codes of docs/zh/api_ref/19-03_subscription_to_operator_information.md,
// the records a model runtime instance's executions write to the pipe, and
// their readers (aclprofGetOp*).
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "gtest/gtest.h"
#include "profiling/aprof_pub.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

class SubscribeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_EQ(pipe(fds_), 0);
  }
  void TearDown() override {
    if (config_ != nullptr) (void)aclprofDestroySubscribeConfig(config_);
    close(fds_[0]);
    (void)aclrtResetDeviceForce(0);
  }
  // A model of two memsets, captured; its id.
  uint32_t Capture() {
    EXPECT_ACL_OK(
        aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    EXPECT_ACL_OK(aclrtMemsetAsync(dev_, 4096, 1, 4096, stream_));
    EXPECT_ACL_OK(aclrtMemsetAsync(dev_, 4096, 2, 2048, stream_));
    EXPECT_ACL_OK(aclmdlRICaptureEnd(stream_, &model_));
    uint32_t id = 0;
    EXPECT_ACL_OK(aclmdlRIGetId(model_, &id));
    return id;
  }
  // Everything the pipe holds once its write end is closed.
  std::vector<char> ReadAll() {
    std::vector<char> out;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds_[0], buf, sizeof buf)) > 0) {
      out.insert(out.end(), buf, buf + n);
    }
    return out;
  }

  aclrtStream stream_ = nullptr;
  void* dev_ = nullptr;
  aclmdlRI model_ = nullptr;
  int fds_[2] = {-1, -1};
  aclprofSubscribeConfig* config_ = nullptr;
};

// 25-03 aclprofCreateSubscribeConfig: a pipe fd, a 0/1 time switch, a metric
// of the enum.
TEST_F(SubscribeTest, CreateSubscribeConfigChecksItsArguments) {
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds_[1]),
            nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(
                1, static_cast<aclprofAicoreMetrics>(42), &fds_[1]),
            nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofDestroySubscribeConfig(nullptr));
  close(fds_[1]);
}

// The records of a subscribed model's executions, read as the example
// 2_subscribe_model reads them; aclprofModelUnSubscribe closes the pipe.
TEST_F(SubscribeTest, ExecutionsOfASubscribedModelWriteOneRecordPerTask) {
  const uint32_t id = Capture();
  config_ = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config_, nullptr);
  ASSERT_ACL_OK(aclprofModelSubscribe(id, config_));
  for (int i = 0; i < 3; ++i)
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model_, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclprofModelUnSubscribe(id));
  const std::vector<char> data = ReadAll();  // EOF: the write end is closed
  EXPECT_EQ(fcntl(fds_[1], F_GETFD), -1);
  size_t size = 0;
  ASSERT_ACL_OK(aclprofGetOpDescSize(&size));
  ASSERT_EQ(data.size(), 6 * size);
  uint32_t n = 0;
  ASSERT_ACL_OK(aclprofGetOpNum(data.data(), data.size(), &n));
  ASSERT_EQ(n, 6u);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(aclprofGetModelId(data.data(), data.size(), i), id);
    EXPECT_EQ(aclprofGetOpFlag(data.data(), data.size(), i), ACL_SUBSCRIBE_OP);
    size_t type_len = 0, name_len = 0;
    ASSERT_ACL_OK(aclprofGetOpTypeLen(data.data(), data.size(), i, &type_len));
    ASSERT_ACL_OK(aclprofGetOpNameLen(data.data(), data.size(), i, &name_len));
    std::vector<char> type(type_len), name(name_len);
    ASSERT_ACL_OK(
        aclprofGetOpType(data.data(), data.size(), i, type.data(), type_len));
    ASSERT_ACL_OK(
        aclprofGetOpName(data.data(), data.size(), i, name.data(), name_len));
    EXPECT_STREQ(type.data(), "memset");
    EXPECT_STREQ(name.data(), "aclrtMemsetAsync");
    const uint64_t start = aclprofGetOpStart(data.data(), data.size(), i);
    const uint64_t end = aclprofGetOpEnd(data.data(), data.size(), i);
    EXPECT_GT(start, 0u);
    EXPECT_LE(start, end);
    EXPECT_EQ(aclprofGetOpDuration(data.data(), data.size(), i), end - start);
    const char* thread = aclprofGetOpAttriValue(data.data(), data.size(), i,
                                                ACL_SUBSCRIBE_ATTRI_THREADID);
    ASSERT_NE(thread, nullptr);
    EXPECT_EQ(std::to_string(gettid()), thread);
  }
  // A short buffer cuts the text and keeps a terminator.
  char cut[4];
  ASSERT_ACL_OK(aclprofGetOpType(data.data(), data.size(), 0, cut, sizeof cut));
  EXPECT_STREQ(cut, "mem");
  ASSERT_ACL_OK(aclmdlRIDestroy(model_));
}

// timeInfoSwitch 0: records carry no times.
TEST_F(SubscribeTest, WithoutTimeInfoRecordsCarryNoTimes) {
  const uint32_t id = Capture();
  config_ = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_ACL_OK(aclprofModelSubscribe(id, config_));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model_, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclprofModelUnSubscribe(id));
  const std::vector<char> data = ReadAll();
  uint32_t n = 0;
  ASSERT_ACL_OK(aclprofGetOpNum(data.data(), data.size(), &n));
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(aclprofGetOpStart(data.data(), data.size(), 1), 0u);
  EXPECT_EQ(aclprofGetOpDuration(data.data(), data.size(), 1), 0u);
  ASSERT_ACL_OK(aclmdlRIDestroy(model_));
}

// 19-03 约束说明: no subscription of a model that does not exist, no second
// subscription of one model, no unsubscription of a model not subscribed;
// not between aclprofInit and aclprofFinalize, and no aclprofInit while
// subscribed.
TEST_F(SubscribeTest, SubscriptionRules) {
  config_ = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config_, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_MODEL_ID,
                   aclprofModelSubscribe(987654, config_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe(987654));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(0, nullptr));
  // A framework's model id (what aclmdlLoadFromFile registers).
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(4242, 0), MSPROF_ERROR_NONE);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofModelUnSubscribe(4242));
  ASSERT_ACL_OK(aclprofModelSubscribe(4242, config_));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
                   aclprofModelSubscribe(4242, config_));
  const std::string dir = "/tmp";
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_API_CONFLICT,
                   aclprofInit(dir.c_str(), dir.size()));
  // Another model of the same device: the same config only.
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(4243, 0), MSPROF_ERROR_NONE);
  aclprofSubscribeConfig* other =
      aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds_[1]);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofModelSubscribe(4243, other));
  ASSERT_ACL_OK(aclprofDestroySubscribeConfig(other));
  ASSERT_ACL_OK(aclprofModelSubscribe(4243, config_));
  // The fd is closed when its last subscription ends.
  ASSERT_ACL_OK(aclprofModelUnSubscribe(4242));
  EXPECT_NE(fcntl(fds_[1], F_GETFD), -1);
  ASSERT_ACL_OK(aclprofModelUnSubscribe(4243));
  EXPECT_EQ(fcntl(fds_[1], F_GETFD), -1);
  EXPECT_TRUE(ReadAll().empty());
  ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(4242, 0), MSPROF_ERROR_NONE);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe(4242));
  ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(4243, 0), MSPROF_ERROR_NONE);
}

TEST_F(SubscribeTest, SubscribingBetweenInitAndFinalizeConflicts) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/sub_conflict";
  ASSERT_ACL_OK(aclprofInit(dir.c_str(), dir.size()));
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(7, 0), MSPROF_ERROR_NONE);
  config_ = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_API_CONFLICT,
                   aclprofModelSubscribe(7, config_));
  ASSERT_ACL_OK(aclprofFinalize());
  ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(7, 0), MSPROF_ERROR_NONE);
  close(fds_[1]);
}

TEST_F(SubscribeTest, SubscribingAClosedFdFails) {
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(8, 0), MSPROF_ERROR_NONE);
  config_ = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  close(fds_[1]);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(8, config_));
  ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(8, 0), MSPROF_ERROR_NONE);
}

// The readers refuse what this library did not write.
TEST_F(SubscribeTest, ReadersRefuseForeignOrShortBuffers) {
  size_t size = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofGetOpDescSize(nullptr));
  ASSERT_ACL_OK(aclprofGetOpDescSize(&size));
  std::vector<char> junk(size * 2, 'x');
  uint32_t n = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetOpNum(junk.data(), junk.size(), &n));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetOpNum(junk.data(), size - 1, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(nullptr, size, &n));
  EXPECT_EQ(aclprofGetOpStart(junk.data(), junk.size(), 0), 0u);
  EXPECT_EQ(aclprofGetModelId(junk.data(), junk.size(), 0), 0u);
  EXPECT_EQ(aclprofGetOpFlag(junk.data(), junk.size(), 0), ACL_SUBSCRIBE_NONE);
  EXPECT_EQ(aclprofGetOpAttriValue(junk.data(), junk.size(), 0,
                                   ACL_SUBSCRIBE_ATTRI_NONE),
            nullptr);
  close(fds_[1]);
}

}  // namespace
}  // namespace ascend
