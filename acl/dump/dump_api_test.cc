// The data dump through the C API (DESIGN.md §5.25), as a program uses it:
// libascendcl.so and libascend_dump.so linked dynamically. The aclmdl dump
// trio and acl_dump.h with their documented codes
// (docs/zh/api_ref/18_dump_configuration.md); kernel-level and operator
// dumps in CANN's layout; the chunk callback; the exception dump of a
// trapping kernel and custom exception information; aclopStartDumpArgs;
// dumps in a captured model's replays; and the dump across a process
// snapshot. This binary's aclInit has no config file.
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/dump/dump_test_util.h"
#include "ascendcl/dump.h"
#include "gtest/gtest.h"
#include "runtime/dump/dump_reader.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace ascend::dump_test {
namespace {

using rt::dump::ListFiles;
using rt::dump::ParseDump;
using rt::dump::ReadWholeFile;

// 18_dump_configuration.md: the trio needs aclInit (100001); the acl_dump.h
// functions refuse bad arguments before anything is enabled.
TEST(DumpBeforeInitTest, CodesWithoutAclInit) {
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlInitDump());
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlSetDump("x"));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlFinalizeDump());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), nullptr);
  char path[64];
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   acldumpGetExceptionInfoPath(path, sizeof path));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acldumpRegCallback(nullptr, 0));
  acldumpUnregCallback();  // nothing registered: nothing happens
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr));
  EXPECT_ACL_OK(aclopStopDumpArgs(0));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), 0u);
}

class DumpApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_ACL_OK(aclInit(nullptr)); }
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &bin_));
    dir_ =
        NewDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override {
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclmdlFinalizeDump();
    acldumpUnregCallback();
    (void)aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS);
    (void)aclrtSynchronizeStream(stream_);
    for (void* p : buffers_) (void)aclrtFree(p);
    (void)aclrtBinaryUnLoad(bin_);
    (void)aclrtDestroyStreamForce(stream_);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
  // Opens a round with `dump` as the config file's "dump" member.
  void Round(const std::string& dump) {
    ASSERT_ACL_OK(aclmdlInitDump());
    const std::string file = WriteFile(
        absl::StrCat("dump_", counter_++, ".json"), "{\"dump\": " + dump + "}");
    ASSERT_ACL_OK(aclmdlSetDump(file.c_str()));
  }
  std::string DataRound(const std::string& extra = "") {
    Round(absl::StrCat(R"({"dump_path": ")", dir_,
                       R"(", "dump_op_switch": "on")", extra, "}"));
    const char* path = acldumpGetPath(DATA_DUMP);
    EXPECT_NE(path, nullptr);
    return path != nullptr ? path : "";
  }
  float* Floats(const std::vector<float>& values) {
    float* p = DeviceFloats(values);
    buffers_.push_back(p);
    return p;
  }
  aclrtFuncHandle Function(const char* name) {
    aclrtFuncHandle f = nullptr;
    EXPECT_ACL_OK(aclrtBinaryGetFunction(bin_, name, &f));
    return f;
  }
  aclError Vadd(float* x, float* y, float* z, uint32_t n, VaddArgs* args) {
    *args = VaddArgs{x, y, z, n};
    return aclrtLaunchKernelWithHostArgs(Function("vadd"), 2, stream_, nullptr,
                                         args, sizeof *args, nullptr, 0);
  }
  aclError Trap() {
    return aclrtLaunchKernelWithHostArgs(Function("trap"), 1, stream_, nullptr,
                                         nullptr, 0, nullptr, 0);
  }
  uint32_t StreamId() {
    int32_t id = -1;
    EXPECT_ACL_OK(aclrtStreamGetId(stream_, &id));
    return static_cast<uint32_t>(id);
  }
  uint32_t LastTask() {
    uint32_t id = 0;
    EXPECT_ACL_OK(aclrtGetThreadLastTaskId(&id));
    return id;
  }
  aclError DumpOperator(float* in, float* out, const char* name = "Add_1") {
    const acldumpTensorInfo tensors[2] = {
        Tensor(ACL_DUMP_TENSOR_INPUT, in, 8, 2),
        Tensor(ACL_DUMP_TENSOR_OUTPUT, out, 8, 2)};
    return ascendclDumpOperator("Add", name, tensors, 2, stream_);
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle bin_ = nullptr;
  std::vector<void*> buffers_;
  std::string dir_;
  int counter_ = 0;
};

// aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump: their order and
// codes (18_dump_configuration.md).
TEST_F(DumpApiTest, TrioOrderAndCodes) {
  const std::string good =
      WriteFile("good.json", absl::StrCat(R"({"dump": {"dump_path": ")", dir_,
                                          R"(", "dump_op_switch": "on"}})"));
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(good.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclmdlInitDump());
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclmdlInitDump());
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlSetDump(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclmdlSetDump((dir_ + "/missing.json").c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_PARSE_FILE,
                   aclmdlSetDump(WriteFile("cut.json", "{\"dump\":").c_str()));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_DUMP_CONFIG,
      aclmdlSetDump(WriteFile("bad.json",
                              R"({"dump": {"dump_path": "/nonexistent/x",
                                               "dump_op_switch": "on"}})")
                        .c_str()));
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);  // nothing enabled yet
  ASSERT_ACL_OK(aclmdlSetDump(good.c_str()));
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  EXPECT_TRUE(absl::StartsWith(path, dir_ + "/"));
  EXPECT_EQ(std::strlen(path), dir_.size() + 15);  // <dump_path>/<14 digits>
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_DATA);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(ascendclDumpOperatorSwitch(), 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclmdlInitDump());  // a new round
  ASSERT_ACL_OK(aclmdlFinalizeDump());
}

// Kernel level: a launch's arguments, as the kernel got them, in
// <path>/<device>/<kernel>.<kernel>.<task>.<stream>.<time>.
TEST_F(DumpApiTest, KernelArgumentsAreDumped) {
  const std::string path = DataRound(R"(, "dump_mode": "input")");
  float* x = Floats({1, 2});
  float* z = Floats({0, 0});
  VaddArgs args;
  ASSERT_ACL_OK(Vadd(x, x, z, 2, &args));
  const uint32_t task = LastTask();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<std::string> files = ListFiles(path);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(
      files[0],
      absl::StrCat(path, "/0/vadd.vadd.", task, ".", StreamId(), ".")))
      << files[0];
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->op_name, "vadd");
  ASSERT_EQ(read->inputs.size(), 1u);
  EXPECT_EQ(read->inputs[0].data,
            std::string(reinterpret_cast<const char*>(&args), sizeof args));
  // dump_mode output (the default): arguments are not outputs.
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  DataRound();
  ASSERT_ACL_OK(Vadd(x, x, z, 2, &args));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ListFiles(dir_).size(), 1u);
}

// Operators: their tensors after their kernel ran; dump_list layers select
// by name; ascendclDumpOperator's argument checks.
TEST_F(DumpApiTest, OperatorTensorsAreDumped) {
  float* x = Floats({1, 2});
  float* z = Floats({0, 0});
  EXPECT_ACL_OK(DumpOperator(x, z));  // dump off: nothing, no task
  const std::string path = DataRound(R"(, "dump_level": "op")");
  VaddArgs args;
  ASSERT_ACL_OK(Vadd(x, x, z, 2, &args));
  const uint32_t kernel = LastTask();
  ASSERT_ACL_OK(DumpOperator(x, z));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<std::string> files = ListFiles(path);
  ASSERT_EQ(files.size(), 1u);  // dump_level op: no kernel file
  EXPECT_TRUE(absl::StartsWith(
      files[0],
      absl::StrCat(path, "/0/Add.Add_1.", kernel, ".", StreamId(), ".")));
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->inputs.empty());  // dump_mode output
  ASSERT_EQ(read->outputs.size(), 1u);
  float out[2];
  std::memcpy(out, read->outputs[0].data.data(), sizeof out);
  EXPECT_EQ(out[0], 2.0f);  // written by the kernel before the dump read it
  EXPECT_EQ(out[1], 4.0f);
  EXPECT_EQ(read->outputs[0].data_type, 1u);  // DT_FLOAT
  EXPECT_EQ(read->outputs[0].shape, std::vector<uint64_t>{2});

  // Argument checks: 100000, and 107000 for a stream that is not live.
  const acldumpTensorInfo good = Tensor(ACL_DUMP_TENSOR_INPUT, x, 8, 2);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator(nullptr, "n", &good, 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "", &good, 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "n", nullptr, 1, stream_));
  acldumpTensorInfo bad = good;
  bad.shapeNum = ACL_DUMP_MAX_SHAPE_NUM + 1;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "n", &bad, 1, stream_));
  bad = good;
  bad.addrType = ACL_DUMP_ADDR_PTR;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "n", &bad, 1, stream_));
  bad = good;
  int32_t seven = 7;
  std::memcpy(&bad.type, &seven, sizeof seven);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "n", &bad, 1, stream_));
  bad = good;
  bad.tensorAddr = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   ascendclDumpOperator("Add", "n", &bad, 1, stream_));
  int dead = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   ascendclDumpOperator("Add", "n", &good, 1, &dead));
  EXPECT_ACL_OK(ascendclDumpOperator("Add", "n", nullptr, 0, stream_));

  // Layers: only the operators dump_list names.
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  const std::string layers =
      NewDir(::testing::UnitTest::GetInstance()->current_test_info()->name() +
             std::string("_layers"));
  Round(absl::StrCat(R"({"dump_path": ")", layers,
                     R"(", "dump_list": [{"layer": ["Mul_3"]}]})"));
  ASSERT_ACL_OK(DumpOperator(x, z, "Add_1"));
  ASSERT_ACL_OK(DumpOperator(x, z, "Mul_3"));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  files = ListFiles(acldumpGetPath(DATA_DUMP));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StrContains(files[0], "/Add.Mul_3."));
}

std::mutex g_mu;
std::map<std::string, std::string> g_received;
std::atomic<int> g_last_chunks{0};
int32_t Receive(const acldumpChunk* chunk, int32_t len) {
  if (static_cast<size_t>(len) != sizeof(acldumpChunk) + chunk->bufLen) {
    return -1;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  g_received[chunk->fileName].append(
      reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
  if (chunk->isLastChunk == 1) g_last_chunks++;
  return 0;
}
int32_t Other(const acldumpChunk*, int32_t) { return 0; }

// acldumpRegCallback: files go to the callback instead of the disk;
// acldumpUnregCallback brings the files back.
TEST_F(DumpApiTest, CallbackReceivesTheFiles) {
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acldumpRegCallback(&Receive, 1));
  ASSERT_ACL_OK(acldumpRegCallback(&Receive, 0));
  EXPECT_ACL_OK(acldumpRegCallback(&Other, 0));  // no effect, as CANN's
  const std::string path = DataRound();
  float* x = Floats({3, 4});
  g_received.clear();
  g_last_chunks = 0;
  ASSERT_ACL_OK(DumpOperator(x, x));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(g_last_chunks.load(), 1);
  ASSERT_EQ(g_received.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(g_received.begin()->first, path + "/0/Add."));
  std::optional<rt::dump::ReadDump> read =
      ParseDump(g_received.begin()->second);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->outputs.size(), 1u);
  EXPECT_TRUE(ListFiles(dir_).empty());
  acldumpUnregCallback();
  ASSERT_ACL_OK(DumpOperator(x, x));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(g_last_chunks.load(), 1);
  EXPECT_EQ(ListFiles(dir_).size(), 1u);
}

std::atomic<int> g_exceptions{0};
std::string g_seen_files;
std::string g_exception_dir;
void OnException(aclrtExceptionInfo*) {
  // The exception dump is written before the callbacks run.
  g_seen_files = std::to_string(ListFiles(g_exception_dir).size());
  g_exceptions++;
}

// aic_err_brief_dump: a trapping kernel leaves
// exception_info.<stream>.<task>.<time> with its arguments; the exception
// callbacks and the synchronize see the failure after it was written.
TEST_F(DumpApiTest, TrappedKernelLeavesItsExceptionDump) {
  Round(absl::StrCat(R"({"dump_scene": "aic_err_brief_dump", "dump_path": ")",
                     dir_, "\"}"));
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
  EXPECT_EQ(std::string(path), dir_ + "/extra-info/data-dump/0");
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpGetExceptionInfoPath(nullptr, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpGetExceptionInfoPath(path, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpGetExceptionInfoPath(path, std::strlen(path)));
  EXPECT_STREQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP),
               (dir_ + "/extra-info/data-dump").c_str());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);

  g_exception_dir = path;
  g_exceptions = 0;
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  ASSERT_ACL_OK(Trap());
  const uint32_t task = LastTask();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION,
                   aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  EXPECT_EQ(g_exceptions.load(), 1);
  EXPECT_EQ(g_seen_files, "1");
  const std::vector<std::string> files = ListFiles(path);
  ASSERT_EQ(files.size(), 1u);
  const std::string prefix =
      absl::StrCat(path, "/exception_info.", StreamId(), ".", task, ".");
  ASSERT_TRUE(absl::StartsWith(files[0], prefix)) << files[0];
  EXPECT_EQ(files[0].size(), prefix.size() + 17);  // YYYYmmddHHMMSSmmm
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->op_name, "trap");
  EXPECT_TRUE(absl::StrContains(read->dfx_message, "507016"));
}

// aic_err_norm_dump: an operator's tensors join its kernel's exception dump,
// named by the operator.
TEST_F(DumpApiTest, NormalExceptionDumpNamesTheOperator) {
  Round(absl::StrCat(R"({"dump_scene": "aic_err_norm_dump", "dump_path": ")",
                     dir_, "\"}"));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_EXCEPTION);
  float* x = Floats({5, 6});
  ASSERT_ACL_OK(Trap());
  const uint32_t task = LastTask();
  ASSERT_ACL_OK(DumpOperator(x, x, "Bad_op"));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION,
                   aclrtSynchronizeStream(stream_));
  const std::string dir = dir_ + "/extra-info/data-dump/0";
  const std::vector<std::string> files = ListFiles(dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(
      absl::StartsWith(files[0], absl::StrCat(dir, "/Add.Bad_op.", task, ".")));
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  ASSERT_EQ(read->outputs.size(), 1u);
  float out[2];
  std::memcpy(out, read->outputs[0].data.data(), sizeof out);
  EXPECT_EQ(out[1], 6.0f);
}

// acldumpSaveExceptionInfo: its argument checks (100000), the exception
// dump it needs (500001), and the file it writes.
TEST_F(DumpApiTest, SaveExceptionInfoChecksAndWrites) {
  float* x = Floats({1, 2, 3, 4});
  acldumpTensorInfo t[2] = {Tensor(ACL_DUMP_TENSOR_INPUT, x, 16, 4),
                            Tensor(ACL_DUMP_TENSOR_OUTPUT, x, 8, 2)};
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   acldumpSaveExceptionInfo("f", nullptr, t, 2));  // off
  Round(absl::StrCat(R"({"dump_scene": "lite_exception", "dump_path": ")", dir_,
                     "\"}"));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpSaveExceptionInfo(nullptr, nullptr, t, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpSaveExceptionInfo("", nullptr, t, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpSaveExceptionInfo("a/../b", nullptr, t, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpSaveExceptionInfo("f", nullptr, nullptr, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acldumpSaveExceptionInfo("f", nullptr, t, 0));
  auto expect_refused = [&](acldumpTensorInfo bad) {
    acldumpTensorInfo two[2] = {t[0], bad};
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     acldumpSaveExceptionInfo("f", nullptr, two, 2));
  };
  acldumpTensorInfo bad = t[1];
  bad.shapeNum = 26;
  expect_refused(bad);
  bad = t[1];
  bad.originShapeNum = 26;
  expect_refused(bad);
  bad = t[1];
  bad.addrType = ACL_DUMP_ADDR_PTR_PTR;
  expect_refused(bad);
  bad = t[1];
  bad.placement = ACL_DUMP_PLACEMENT_HOST;
  expect_refused(bad);
  bad = t[1];
  bad.tensorAddr = nullptr;
  expect_refused(bad);
  bad = t[1];
  bad.tensorSize = 0;
  expect_refused(bad);
  bad = t[1];
  int32_t three = 3;
  std::memcpy(&bad.type, &three, sizeof three);
  expect_refused(bad);
  // Not below the directory, or not in the device's memory: 500001.
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   acldumpSaveExceptionInfo("/abs", nullptr, t, 2));
  bad = t[1];
  bad.tensorSize = 1 << 20;
  acldumpTensorInfo big[1] = {bad};
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   acldumpSaveExceptionInfo("big", nullptr, big, 1));
  const std::string dir = dir_ + "/extra-info/data-dump/0";
  EXPECT_TRUE(ListFiles(dir).empty());  // nothing left behind

  ASSERT_ACL_OK(acldumpSaveExceptionInfo("sub/save", "stage=1", t, 2));
  const std::vector<std::string> files = ListFiles(dir);
  ASSERT_EQ(files.size(), 1u);
  const std::string prefix = dir + "/sub/save.custom.";
  ASSERT_TRUE(absl::StartsWith(files[0], prefix)) << files[0];
  EXPECT_EQ(files[0].size(), prefix.size() + 17);
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  ASSERT_EQ(read->attrs.size(), 1u);
  EXPECT_EQ(read->attrs[0],
            std::make_pair(std::string("user_tag"), std::string("stage=1")));
  ASSERT_EQ(read->inputs.size(), 1u);
  ASSERT_EQ(read->outputs.size(), 1u);
  EXPECT_EQ(read->inputs[0].shape, std::vector<uint64_t>{4});
  float in[4];
  std::memcpy(in, read->inputs[0].data.data(), sizeof in);
  EXPECT_EQ(in[3], 4.0f);
  EXPECT_EQ(read->outputs[0].size, 8u);
}

// aclopStartDumpArgs / aclopStopDumpArgs: one JSON file per operator
// signature while recording.
TEST_F(DumpApiTest, OperatorInformationRecord) {
  const std::string dir = dir_ + "/args";
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, aclopStartDumpArgs(2, dir.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, aclopStartDumpArgs(1, ""));
  ASSERT_ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, dir.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE,
                   aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, dir.c_str()));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_INFO);
  float* x = Floats({1, 2});
  ASSERT_ACL_OK(DumpOperator(x, x));
  ASSERT_ACL_OK(DumpOperator(x, x, "Add_2"));  // same signature
  EXPECT_EQ(ListFiles(dir).size(), 1u);
  EXPECT_ACL_OK(aclopStopDumpArgs(2));  // without the bit: still recording
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_INFO);
  ASSERT_ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), 0u);
  const std::string file = ListFiles(dir)[0];
  EXPECT_ACL_ERROR(
      ACL_ERROR_FAILURE,
      aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, file.c_str()));
}

// A kernel launched in a capture is dumped at each replay of the model: the
// dump's hook sees launches before the capture takes them.
TEST_F(DumpApiTest, CapturedKernelsDumpAtEveryReplay) {
  const std::string path = DataRound(R"(, "dump_mode": "input")");
  float* x = Floats({1, 2});
  VaddArgs args;
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(Vadd(x, x, x, 2, &args));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  EXPECT_TRUE(ListFiles(dir_).empty());  // recorded, not run
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ListFiles(path).size(), 2u);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// The dump across a process snapshot: its configuration and callback are
// host state and survive; a dump queued before the Lock is stream work that
// Backup drains; dumps after the Unlock go on as before.
TEST_F(DumpApiTest, DumpSurvivesASnapshot) {
  const std::string path = DataRound();
  float* x = Floats({7, 8});
  ASSERT_ACL_OK(DumpOperator(x, x));
  const int pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
  EXPECT_EQ(ListFiles(path).size(), 1u);  // drained by the Backup
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  EXPECT_STREQ(acldumpGetPath(DATA_DUMP), path.c_str());
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_DATA);
  ASSERT_ACL_OK(DumpOperator(x, x, "After"));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<std::string> files = ListFiles(path);
  ASSERT_EQ(files.size(), 2u);
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[1]));
  ASSERT_TRUE(read.has_value());
  float out[2];
  std::memcpy(out, read->outputs[0].data.data(), sizeof out);
  EXPECT_EQ(out[1], 8.0f);  // the restored memory
}

}  // namespace
}  // namespace ascend::dump_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <test_kernels.so>\n", argv[0]);
    return 2;
  }
  ascend::dump_test::g_kernels = argv[1];
  return RUN_ALL_TESTS();
}
