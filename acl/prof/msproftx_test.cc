// msproftx, iteration marks and mstx (DESIGN.md §5.24), through the shared
// libraries as a program links them (libmsprofiler.so, libprofapi.so,
// libascendcl.so): the rules and codes of
// docs/zh/api_ref/19-02_msproftx_extension_apis.md and
// 19-04_setting_Iteration_time_in_pytorch_scenarios.md, mstx's header-only
// calls finding libprofapi.so's InitInjectionMstx, and the marks and ranges
// in the written files.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "gtest/gtest.h"
#include "mstx/ms_tools_ext.h"
#include "nlohmann/json.hpp"
#include "profiling/aprof_pub.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

using nlohmann::json;

std::vector<json> MarksOf(const std::string& root) {
  std::vector<json> out;
  FILE* ls = popen(("cat " + root + "/PROF_*/marks.jsonl").c_str(), "r");
  char line[8192];
  while (ls != nullptr && fgets(line, sizeof line, ls) != nullptr) {
    out.push_back(json::parse(line));
  }
  if (ls != nullptr) pclose(ls);
  return out;
}

class MsproftxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    dir_ = std::string(std::getenv("TEST_TMPDIR")) + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  void TearDown() override {
    if (config_ != nullptr) {
      (void)aclprofStop(config_);
      (void)aclprofDestroyConfig(config_);
    }
    (void)aclprofFinalize();
    (void)aclrtResetDeviceForce(0);
  }
  void Start(uint64_t switches = ACL_PROF_MSPROFTX | ACL_PROF_TASK_TIME) {
    ASSERT_ACL_OK(aclprofInit(dir_.c_str(), dir_.size()));
    uint32_t device = 0;
    config_ =
        aclprofCreateConfig(&device, 1, ACL_AICORE_NONE, nullptr, switches);
    ASSERT_NE(config_, nullptr);
    ASSERT_ACL_OK(aclprofStart(config_));
  }
  void Stop() {
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
    ASSERT_ACL_OK(aclprofStop(config_));
    ASSERT_ACL_OK(aclprofDestroyConfig(config_));
    config_ = nullptr;
  }

  aclrtStream stream_ = nullptr;
  std::string dir_;
  aclprofConfig* config_ = nullptr;
};

// 19-02: the msproftx calls belong between aclprofStart and aclprofStop.
TEST_F(MsproftxTest, OutsideACollectionNothingIsRecorded) {
  EXPECT_EQ(aclprofCreateStamp(), nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofMarkEx("m", 1, stream_));
  Start(ACL_PROF_TASK_TIME);  // a collection without msproftx
  EXPECT_EQ(aclprofCreateStamp(), nullptr);
  EXPECT_EQ(mstxRangeStartA("not recorded", nullptr), 0u);
}

// 19-02: stamps from aclprofCreateStamp only, messages below 128 bytes,
// Pop after Push, RangeStop of a started range.
TEST_F(MsproftxTest, StampRulesAndCodes) {
  Start();
  void* stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  int not_a_stamp = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofMark(&not_a_stamp));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofMark(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofPush(&not_a_stamp));
  const std::string long_message(128, 'm');
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclprofSetStampTraceMessage(stamp, long_message.c_str(), 128));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetStampTraceMessage(stamp, nullptr, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetStampTraceMessage(&not_a_stamp, "x", 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofPop());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(12345));
  uint32_t id = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangeStart(stamp, nullptr));
  ASSERT_ACL_OK(aclprofRangeStart(stamp, &id));
  ASSERT_ACL_OK(aclprofRangeStop(id));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(id));
  // aclprofMarkEx: msgLen = strlen(msg), 1..127.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofMarkEx(nullptr, 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofMarkEx("ab", 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofMarkEx(long_message.c_str(), 128, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclprofMarkEx("ab", 2, reinterpret_cast<aclrtStream>(0x77)));
  aclprofDestroyStamp(stamp);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofMark(stamp));
  EXPECT_EQ(aclprofStr2Id(nullptr), UINT64_MAX);
  EXPECT_EQ(aclprofStr2Id("Add"), aclprofStr2Id("Add"));
  EXPECT_NE(aclprofStr2Id("Add"), aclprofStr2Id("Mul"));
  EXPECT_STREQ(MsprofId2Str(aclprofStr2Id("Add")), "Add");
}

// Marks, nested push/pop, a range stopped on another thread, a mark on a
// stream and a tensor range, as marks.jsonl records them.
TEST_F(MsproftxTest, MarksAndRangesAreRecorded) {
  Start();
  void* mark = aclprofCreateStamp();
  void* outer = aclprofCreateStamp();
  void* range = aclprofCreateStamp();
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(mark, "load", 4));
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(outer, "forward", 7));
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(range, "cross", 5));
  ASSERT_ACL_OK(aclprofMark(mark));
  ASSERT_ACL_OK(aclprofPush(outer));
  uint32_t id = 0;
  ASSERT_ACL_OK(aclprofRangeStart(range, &id));
  std::thread([id] { EXPECT_ACL_OK(aclprofRangeStop(id)); }).join();
  ASSERT_ACL_OK(aclprofPop());
  ASSERT_ACL_OK(aclprofMarkEx("on stream", 9, stream_));
  aclprofTensor tensor = {0, 2, 0, 2, {4, 8}};
  aclprofTensorInfo info = {aclprofStr2Id("add_1"),
                            aclprofStr2Id("Add"),
                            0,
                            1,
                            0,
                            8,
                            stream_,
                            &tensor};
  aclprofEventAttributes attr = {ACL_PROF_EVENT_ATTR_VERSION,
                                 sizeof(aclprofEventAttributes),
                                 ACL_PROF_MESSAGE_TYPE_TENSOR_INFO,
                                 {&info}};
  ASSERT_ACL_OK(aclprofRangePushEx(&attr));
  ASSERT_ACL_OK(aclprofRangePop());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangePop());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(nullptr));
  tensor.shapeDim = 9;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&attr));
  for (void* s : {mark, outer, range}) aclprofDestroyStamp(s);
  Stop();
  const std::vector<json> marks = MarksOf(dir_);
  std::map<std::string, json> by_type;
  for (const json& m : marks) by_type[m["type"]] = m;
  EXPECT_EQ(marks.size(), 5u);
  EXPECT_EQ(by_type["mark"]["message"], "load");
  EXPECT_EQ(by_type["push_pop"]["message"], "forward");
  EXPECT_EQ(by_type["range"]["message"], "cross");
  EXPECT_EQ(by_type["range"]["id"], id);
  EXPECT_EQ(by_type["mark_ex"]["message"], "on stream");
  EXPECT_EQ(by_type["tensor_range"]["args"]["op_type"], "Add");
  EXPECT_EQ(by_type["tensor_range"]["args"]["tensors"][0]["shape"],
            json({4, 8}));
  EXPECT_LE(by_type["push_pop"]["start_ns"], by_type["range"]["start_ns"]);
  // The mark on the stream is a task of the stream too.
  FILE* grep =
      popen(("grep -c '\"name\":\"on stream\"' " + dir_ + "/PROF_*/tasks.jsonl")
                .c_str(),
            "r");
  char count[16] = {0};
  ASSERT_NE(fgets(count, sizeof count, grep), nullptr);
  pclose(grep);
  EXPECT_EQ(std::string(count), "1\n");
}

// 19-04 aclprofGetStepTimestamp: a step info, a tag of the enum, start once
// then end once.
TEST_F(MsproftxTest, StepTimestampsRules) {
  Start();
  aclprofStepInfo* step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetStepTimestamp(nullptr, ACL_STEP_START, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclprofGetStepTimestamp(step, static_cast<aclprofStepTag>(5), stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetStepTimestamp(step, ACL_STEP_END, stream_));
  ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetStepTimestamp(step, ACL_STEP_START, stream_));
  ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofGetStepTimestamp(step, ACL_STEP_END, stream_));
  aclprofDestroyStepInfo(step);
  Stop();
  int steps = 0;
  for (const json& m : MarksOf(dir_)) {
    if (m["type"] == "step_start" || m["type"] == "step_end") ++steps;
  }
  EXPECT_EQ(steps, 2);
}

// mstx through its header: default and named domains, ranges, a stream.
TEST_F(MsproftxTest, MstxMarksAndRangesInDomains) {
  uint64_t tool = 0;
  mstxGetToolId(&tool);
  EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_MSPROF_ID));
  mstxDomainHandle_t io = mstxDomainCreateA("io");
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(mstxDomainCreateA("io"), io);
  Start();
  const mstxRangeId outer = mstxRangeStartA("outer", stream_);
  EXPECT_NE(outer, 0u);
  mstxMarkA("point", nullptr);
  const mstxRangeId load = mstxDomainRangeStartA(io, "load", nullptr);
  mstxDomainMarkA(io, "io point", stream_);
  mstxDomainRangeEnd(io, load);
  mstxRangeEnd(outer);
  mstxRangeEnd(outer);  // ended already: nothing
  mstxDomainDestroy(io);
  EXPECT_EQ(mstxDomainRangeStartA(io, "gone", nullptr), 0u);
  Stop();
  std::vector<std::string> seen;
  for (const json& m : MarksOf(dir_)) {
    seen.push_back(m["type"].get<std::string>() + ":" +
                   m["domain"].get<std::string>() + ":" +
                   m["message"].get<std::string>());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "mstx_mark:default:point", "mstx_mark:io:io point",
                      "mstx_range:default:outer", "mstx_range:io:load"}));
}

// The Msprof* reports of a framework land in the collection, named by
// MsprofRegTypeInfo; a registered callback is told of starts and stops.
int32_t g_starts = 0, g_stops = 0;
int32_t OnCommand(uint32_t type, void* data, uint32_t len) {
  if (type != PROF_CTRL_SWITCH || len != sizeof(MsprofCommandHandle)) return 1;
  const auto* c = static_cast<const MsprofCommandHandle*>(data);
  if (c->type == PROF_COMMANDHANDLE_TYPE_START) ++g_starts;
  if (c->type == PROF_COMMANDHANDLE_TYPE_STOP) ++g_stops;
  return 0;
}

TEST_F(MsproftxTest, FrameworkReportsAndCallbacks) {
  ASSERT_EQ(MsprofRegisterCallback(7, &OnCommand), MSPROF_ERROR_NONE);
  EXPECT_EQ(MsprofRegisterCallback(7, nullptr), MSPROF_ERROR_CONFIG_INVALID);
  ASSERT_EQ(MsprofRegTypeInfo(MSPROF_REPORT_ACL_LEVEL, 0x50001, "aclnnAdd"),
            MSPROF_ERROR_NONE);
  Start();
  EXPECT_EQ(g_starts, 1);
  EXPECT_NE(MsprofGetPath(), nullptr);
  MsprofApi api{};
  api.level = MSPROF_REPORT_ACL_LEVEL;
  api.type = 0x50001;
  api.beginTime = MsprofSysCycleTime();
  api.endTime = api.beginTime + 1000;
  ASSERT_EQ(MsprofReportApi(0, &api), MSPROF_ERROR_NONE);
  api.magicNumber = 0;
  EXPECT_EQ(MsprofReportApi(0, &api), MSPROF_ERROR_CONFIG_INVALID);
  MsprofCompactInfo compact{};
  compact.level = MSPROF_REPORT_NODE_LEVEL;
  compact.dataLen = 4;
  EXPECT_EQ(MsprofReportCompactInfo(0, &compact, sizeof compact - 1),
            MSPROF_ERROR_CONFIG_INVALID);
  ASSERT_EQ(MsprofReportCompactInfo(0, &compact, sizeof compact),
            MSPROF_ERROR_NONE);
  Stop();
  EXPECT_EQ(g_stops, 1);
  EXPECT_EQ(MsprofGetPath(), nullptr);  // none runs
  FILE* grep =
      popen(("grep -c aclnnAdd " + dir_ + "/PROF_*/trace.json").c_str(), "r");
  char count[16] = {0};
  ASSERT_NE(fgets(count, sizeof count, grep), nullptr);
  pclose(grep);
  EXPECT_EQ(std::string(count), "1\n");
}

}  // namespace
}  // namespace ascend
