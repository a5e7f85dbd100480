// The collection functions of acl/acl_prof.h (DESIGN.md §5.24): every rule
// and code of docs/zh/api_ref/19-01_data_profiling_apis.md (parameter
// tables and 约束说明) and of aclprofCreateConfig / aclprofSetConfig, the
// files a collection writes, and a collection across a process snapshot.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

using nlohmann::json;

std::string TempDir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base != nullptr ? base : "/tmp") + "/" + name;
  return dir;
}

std::vector<std::string> ProfDirs(const std::string& root) {
  std::vector<std::string> out;
  FILE* ls = popen(("ls -d " + root + "/PROF_* 2>/dev/null").c_str(), "r");
  char line[4096];
  while (ls != nullptr && fgets(line, sizeof line, ls) != nullptr) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    out.push_back(s);
  }
  if (ls != nullptr) pclose(ls);
  return out;
}

std::vector<json> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<json> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line));
  return out;
}

json ReadJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

class ProfApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    dir_ = TempDir(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override {
    for (aclprofConfig* c : configs_) (void)aclprofDestroyConfig(c);
    (void)aclprofFinalize();
    (void)aclrtResetDeviceForce(0);
  }
  aclprofConfig* Config(std::vector<uint32_t> devices, uint64_t switches) {
    aclprofConfig* c = aclprofCreateConfig(
        devices.data(), static_cast<uint32_t>(devices.size()), ACL_AICORE_NONE,
        nullptr, switches);
    if (c != nullptr) configs_.push_back(c);
    return c;
  }
  aclError Init() { return aclprofInit(dir_.c_str(), dir_.size()); }
  void Work() {
    ASSERT_ACL_OK(aclrtMemsetAsync(dev_, 4096, 7, 4096, stream_));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  }

  aclrtStream stream_ = nullptr;
  void* dev_ = nullptr;
  std::string dir_;
  std::vector<aclprofConfig*> configs_;
};

// 19-01 aclprofInit: path and length (below 4096 bytes) rules; paired with
// aclprofFinalize; a second aclprofInit fails.
TEST_F(ProfApiTest, InitChecksThePathAndRefusesASecondInit) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofInit(nullptr, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofInit(dir_.c_str(), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofInit(dir_.c_str(), dir_.size() - 1));
  const std::string long_path(4096, 'a');
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofInit(long_path.c_str(), long_path.size()));
  const std::string file = TempDir("a_file");
  std::ofstream(file) << "x";
  const std::string under_file = file + "/out";
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclprofInit(under_file.c_str(), under_file.size()));
  ASSERT_ACL_OK(Init());
  struct stat st;
  EXPECT_EQ(stat(dir_.c_str(), &st), 0);
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, Init());
  EXPECT_ACL_OK(aclprofFinalize());
  // Paired: after aclprofFinalize it can begin again.
  EXPECT_ACL_OK(Init());
}

// 19-01: without aclprofInit, aclprofStart, aclprofStop and aclprofFinalize
// fail.
TEST_F(ProfApiTest, StartStopAndFinalizeNeedInit) {
  aclprofConfig* c = Config({0}, ACL_PROF_TASK_TIME);
  ASSERT_NE(c, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStart(c));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize());
}

// aclprofCreateConfig's parameters (25-03 aclprofCreateConfig): a device
// list, distinct existing ids, NULL aicoreEvents.
TEST_F(ProfApiTest, CreateConfigRefusesBadArguments) {
  uint32_t devices[] = {0, 0};
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  uint32_t missing[] = {count};
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(devices, 2, ACL_AICORE_NONE, nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(missing, 1, ACL_AICORE_NONE, nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(devices, 65, ACL_AICORE_NONE, nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(devices, 1, ACL_AICORE_NONE,
                                reinterpret_cast<aclprofAicoreEvents*>(devices),
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(
      aclprofCreateConfig(devices, 1, static_cast<aclprofAicoreMetrics>(9),
                          nullptr, ACL_PROF_TASK_TIME),
      nullptr);
  // No device: host data alone, so msproftx only.
  EXPECT_EQ(aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  aclprofConfig* host = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE,
                                            nullptr, ACL_PROF_MSPROFTX);
  ASSERT_NE(host, nullptr);
  EXPECT_ACL_OK(aclprofDestroyConfig(host));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(nullptr));
}

// 19-01 aclprofStart: a config is required; repeated devices across starts
// fail; aclprofStop must name what aclprofStart did.
TEST_F(ProfApiTest, StartAndStopPairOnTheSameConfig) {
  ASSERT_ACL_OK(Init());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofStart(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofStart(Config({0}, 0)));
  EXPECT_ACL_ERROR(
      ACL_ERROR_PROF_MODULES_UNSUPPORTED,
      aclprofStart(Config({0}, ACL_PROF_TASK_TIME | (1ULL << 40))));
  aclprofConfig* zero_one = Config({0, 1}, ACL_PROF_TASK_TIME);
  aclprofConfig* one_two = Config({1, 2}, ACL_PROF_TASK_TIME);
  aclprofConfig* three = Config({3}, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(zero_one));
  // The documented wrong order: a device repeated by a second start.
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(one_two));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(zero_one));
  // Stop must match the start.
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(three));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG, aclprofStop(one_two));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofStop(Config({0, 1}, ACL_PROF_MSPROFTX)));
  EXPECT_ACL_OK(aclprofStop(zero_one));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(zero_one));
  // The documented order: start on 0 and 1, stop, then start on 1 and 2.
  EXPECT_ACL_OK(aclprofStart(one_two));
  EXPECT_ACL_OK(aclprofStop(one_two));
  EXPECT_EQ(ProfDirs(dir_).size(), 2u);
}

// 19-01 aclprofSetConfig: configType within the enum, configLength at most
// 256 and equal to strlen(config); called before aclprofStart.
TEST_F(ProfApiTest, SetConfigChecksTypeLengthValueAndOrder) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, "10", 1));
  const std::string big(257, '1');
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_OPTYPE, big.c_str(), big.size()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, "101", 3));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofSetConfig(ACL_PROF_SYS_CPU_FREQ, "51", 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,gpu", 7));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG,
                   aclprofSetConfig(static_cast<aclprofConfigType>(2), "1", 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(ACL_PROF_NTS_METRICS, " ", 1));
  // Before aclprofInit too.
  EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2));
  EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));
  EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu,mem", 7));
  ASSERT_ACL_OK(Init());
  aclprofConfig* c = Config({0}, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(c));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN,
                   aclprofSetConfig(ACL_PROF_SYS_IO_FREQ, "10", 2));
  ASSERT_ACL_OK(aclprofStop(c));
  const std::vector<std::string> dirs = ProfDirs(dir_);
  ASSERT_EQ(dirs.size(), 1u);
  const json info = ReadJson(dirs[0] + "/info.json");
  EXPECT_EQ(info["settings"]["ACL_PROF_SYS_HARDWARE_MEM_FREQ"], "15");
  EXPECT_EQ(info["settings"]["ACL_PROF_HOST_SYS"], "cpu,mem");
}

// What a collection writes: each task of its devices with stream, kind,
// start and end; what it does not collect is named; the trace lists them.
TEST_F(ProfApiTest, StopWritesTheTasksOfItsDevicesAndATrace) {
  ASSERT_ACL_OK(Init());
  aclprofConfig* c = Config({0}, ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
  Work();  // before the start: not collected
  ASSERT_ACL_OK(aclprofStart(c));
  Work();
  Work();
  ASSERT_ACL_OK(aclprofStop(c));
  Work();  // after the stop: not collected
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream_, &stream_id));
  const std::vector<std::string> dirs = ProfDirs(dir_);
  ASSERT_EQ(dirs.size(), 1u);
  const std::vector<json> tasks = Lines(dirs[0] + "/tasks.jsonl");
  ASSERT_EQ(tasks.size(), 2u);
  for (const json& t : tasks) {
    EXPECT_EQ(t["device"], 0);
    EXPECT_EQ(t["stream"], stream_id);
    EXPECT_EQ(t["kind"], "memset");
    EXPECT_EQ(t["api"], "aclrtMemsetAsync");
    EXPECT_LE(t["start_ns"].get<uint64_t>(), t["end_ns"].get<uint64_t>());
  }
  const json info = ReadJson(dirs[0] + "/info.json");
  EXPECT_EQ(info["collected"], json({"task_time"}));
  EXPECT_EQ(info["not_collected"], json({"aicore_metrics"}));
  EXPECT_EQ(info["counts"]["tasks"], 2);
  const json trace = ReadJson(dirs[0] + "/trace.json");
  int complete = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X") {
      ++complete;
      EXPECT_EQ(e["pid"], 1);  // device 0
      EXPECT_EQ(e["tid"], stream_id);
      EXPECT_GE(e["dur"].get<double>(), 0.0);
    }
  }
  EXPECT_EQ(complete, 2);
}

// A config of other devices collects none of device 0's tasks.
TEST_F(ProfApiTest, TasksOfOtherDevicesAreNotCollected) {
  ASSERT_ACL_OK(Init());
  aclprofConfig* c = Config({1}, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(c));
  Work();
  ASSERT_ACL_OK(aclprofStop(c));
  const std::vector<std::string> dirs = ProfDirs(dir_);
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_TRUE(Lines(dirs[0] + "/tasks.jsonl").empty());
}

// aclprofFinalize writes a collection left started.
TEST_F(ProfApiTest, FinalizeWritesWhatIsStillStarted) {
  ASSERT_ACL_OK(Init());
  aclprofConfig* c = Config({0}, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(c));
  Work();
  ASSERT_ACL_OK(aclprofFinalize());
  const std::vector<std::string> dirs = ProfDirs(dir_);
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_EQ(Lines(dirs[0] + "/tasks.jsonl").size(), 1u);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c));
}

// Profiling state is host state: a collection goes on across a process
// snapshot (Lock, Backup, Restore, Unlock), and keeps the tasks of both
// sides with the same stream ids (DESIGN.md §5.24).
TEST_F(ProfApiTest, ACollectionGoesOnAcrossASnapshot) {
  ASSERT_ACL_OK(Init());
  aclprofConfig* c = Config({0}, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(c));
  Work();
  const int pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  Work();
  ASSERT_ACL_OK(aclprofStop(c));
  const std::vector<std::string> dirs = ProfDirs(dir_);
  ASSERT_EQ(dirs.size(), 1u);
  const std::vector<json> tasks = Lines(dirs[0] + "/tasks.jsonl");
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0]["stream"], tasks[1]["stream"]);
  EXPECT_LT(tasks[0]["end_ns"].get<uint64_t>(),
            tasks[1]["start_ns"].get<uint64_t>());
}

}  // namespace
}  // namespace ascend
