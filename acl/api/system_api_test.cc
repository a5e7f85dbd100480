// System parameters, the saturation mode, operator timeouts, overflow
// status, CANN versions, the dump trio and trace points through the ACL C
// API (DESIGN.md §5.12), and the settings' survival across a snapshot.
// overflow_detection's call sequence is mirrored in OverflowStatusSample.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr int32_t kDeviceCount = 8;
constexpr uint64_t kIntervalUs = 4294967;

class SystemApiTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (int32_t id = 0; id < kDeviceCount; ++id) {
      (void)aclrtResetDeviceForce(id);
    }
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
};

// An invalid value within the enum's range (values outside it are undefined
// in C++: enum_args_c_test.c passes those from C).
template <typename E>
E Bad(int32_t raw) {
  E value;
  std::memcpy(&value, &raw, sizeof value);
  return value;
}

std::string TempDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base != nullptr ? base : "/tmp") +
                    "/system_api_test_" + std::to_string(getpid());
  mkdir(dir.c_str(), 0755);
  return dir;
}

std::string WriteFile(const std::string& name, const std::string& contents) {
  const std::string path = TempDir() + "/" + name;
  std::ofstream(path) << contents;
  return path;
}

// --- System parameters
// --------------------------------------------------------

TEST_F(SystemApiTest, ProcessSysParams) {
  int64_t value = -1;
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value));
  EXPECT_EQ(value, 0);
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 3);
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &value));
  EXPECT_EQ(value, 1);

  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, -1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 3);

  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0));
}

TEST_F(SystemApiTest, ContextSysParamsArePerContext) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  int64_t value = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                   aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 2);
  // Process parameters are separate.
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 0);

  aclrtContext other = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));  // becomes current
  EXPECT_ACL_ERROR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
                   aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCtxGetSysParamOpt(Bad<aclSysParamOpt>(3), &value));
  ASSERT_ACL_OK(aclrtDestroyContext(other));
}

// 25-02 (aclrtFloatOverflowMode): Atlas A2 parts default to Inf/NaN mode.
TEST_F(SystemApiTest, SatModeIsStoredAndValidated) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetDeviceSatMode(Bad<aclrtFloatOverflowMode>(3)));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceSatMode(nullptr));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
}

// --- Timeouts and the task scheduler
// ------------------------------------------

TEST_F(SystemApiTest, OpExecuteTimeoutsRoundToTheInterval) {
  uint32_t ms = 0;
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 254 * kIntervalUs / 1000);  // the default is the longest

  ASSERT_ACL_OK(aclrtSetDevice(0));
  uint64_t interval = 0;
  ASSERT_ACL_OK(aclrtGetOpTimeOutInterval(&interval));
  EXPECT_EQ(interval, kIntervalUs);

  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(1));  // 1 s: one interval
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, kIntervalUs / 1000);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(10000));  // three intervals
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 3 * kIntervalUs / 1000);
  uint64_t actual = 0;
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(2 * kIntervalUs, &actual));
  EXPECT_EQ(actual, 2 * kIntervalUs);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(uint64_t{1} << 40, &actual));
  EXPECT_EQ(actual, 254 * kIntervalUs);  // capped
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
  EXPECT_EQ(actual, 254 * kIntervalUs);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetOpExecuteTimeOutV2(1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetOpExecuteTimeout(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetOpTimeOutInterval(nullptr));
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(5));
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));
}

TEST_F(SystemApiTest, SetTsDevice) {
  ASSERT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
  ASSERT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetTsDevice(ACL_TS_ID_RESERVED));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetTsDevice(Bad<aclrtTsId>(3)));
}

// --- Overflow
// --------------------------------------------------------------------

// overflow_detection: saturation mode, a stream with overflow detection on,
// the status read into device memory before and after a reset.
TEST_F(SystemApiTest, OverflowStatusSample) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&context, 0));
  aclrtFloatOverflowMode original = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&original));
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  uint32_t flag = 9;
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream, &flag));
  EXPECT_EQ(flag, 0u);
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(stream, 1));
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream, &flag));
  EXPECT_EQ(flag, 1u);
  // The switch is the stream's overflow-check attribute.
  aclrtStreamAttrValue attr;
  std::memset(&attr, 0, sizeof attr);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(
      stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &attr));
  EXPECT_EQ(attr.overflowSwitch, 1u);
  attr.overflowSwitch = 0;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(
      stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &attr));
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream, &flag));
  EXPECT_EQ(flag, 0u);
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(stream, 1));
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(nullptr, &flag));
  EXPECT_EQ(flag, 0u);

  void* status = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&status, 128, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(status, 128, 0xFF, 128));
  ASSERT_ACL_OK(aclrtGetOverflowStatus(status, 64, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  unsigned char host[128];
  ASSERT_ACL_OK(
      aclrtMemcpy(host, sizeof host, status, 128, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 64; ++i) ASSERT_EQ(host[i], 0) << i;  // no overflow
  for (int i = 64; i < 128; ++i) ASSERT_EQ(host[i], 0xFF) << i;

  ASSERT_ACL_OK(aclrtResetOverflowStatus(stream));
  ASSERT_ACL_OK(aclrtResetFloatOverflowStatus(stream));
  ASSERT_ACL_OK(aclrtNpuClearFloatOverFlowStatus(0, stream));
  ASSERT_ACL_OK(aclrtMemset(status, 128, 0xFF, 128));
  ASSERT_ACL_OK(aclrtGetFloatOverflowStatus(status, 8, stream));
  ASSERT_ACL_OK(aclrtNpuGetFloatOverFlowStatus(status, 4, 0, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(
      aclrtMemcpy(host, sizeof host, status, 128, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 8; ++i) ASSERT_EQ(host[i], 0) << i;
  ASSERT_EQ(host[8], 0xFF);

  // Bad input.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetOverflowStatus(nullptr, 64, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetOverflowStatus(status, 0, stream));
  // 04, `outputSize`: exactly 64 bytes.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetOverflowStatus(status, 8, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetOverflowStatus(status, 128, stream));
  // 64 bytes from 100 run past the 128-byte allocation.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtGetOverflowStatus(static_cast<char*>(status) + 100, 64, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetOverflowStatus(host, 64, stream));  // host memory
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamOverflowSwitch(stream, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetStreamOverflowSwitch(stream, nullptr));
  aclrtStream stale = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stale));
  ASSERT_ACL_OK(aclrtDestroyStream(stale));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetOverflowStatus(status, 64, stale));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtResetOverflowStatus(stale));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetStreamOverflowSwitch(stale, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetStreamOverflowSwitch(stale, &flag));

  ASSERT_ACL_OK(aclrtFree(status));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(original));
  ASSERT_ACL_OK(aclrtDestroyContext(context));
}

// --- Versions
// ----------------------------------------------------------------------

// aclsysGetCANNVersion is deprecated in CANN's headers (and ours).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(SystemApiTest, CannVersionFromTheInstallTree) {
  const std::string home = TempDir() + "/home";
  mkdir(home.c_str(), 0755);
  mkdir((home + "/share").c_str(), 0755);
  mkdir((home + "/share/info").c_str(), 0755);
  mkdir((home + "/share/info/runtime").c_str(), 0755);
  mkdir((home + "/share/info/hccl").c_str(), 0755);
  std::ofstream(home + "/share/info/runtime/version.info") << "Version=9.0.0\n";
  std::ofstream(home + "/share/info/hccl/version.info") << "Version=8.5.1.2\n";
  ASSERT_EQ(setenv("ASCEND_HOME_PATH", home.c_str(), 1), 0);

  aclCANNPackageVersion version;
  ASSERT_ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &version));
  EXPECT_STREQ(version.version, "9.0.0");
  EXPECT_STREQ(version.majorVersion, "9");
  EXPECT_STREQ(version.minorVersion, "0");
  EXPECT_STREQ(version.releaseVersion, "0");
  EXPECT_STREQ(version.patchVersion, "0");
  ASSERT_ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_HCCL, &version));
  EXPECT_STREQ(version.version, "8.5.1.2");
  EXPECT_STREQ(version.releaseVersion, "1");
  EXPECT_STREQ(version.patchVersion, "2");

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclsysGetCANNVersion(ACL_PKG_NAME_COMPILER, &version));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &version));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsysGetCANNVersion(ACL_PKG_NAME_CANN, nullptr));
  ASSERT_EQ(unsetenv("ASCEND_HOME_PATH"), 0);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &version));
}
#pragma GCC diagnostic pop

// --- Dump trio
// ----------------------------------------------------------------------

// The trio's order and codes (18_dump_configuration.md); what a round dumps
// is tested in //acl/dump.
TEST_F(SystemApiTest, DumpTrioOrderAndCodes) {
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlInitDump());
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlSetDump("x"));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclInit(nullptr));

  const std::string good =
      WriteFile("dump.json", R"({"dump": {"dump_path": ")" + TempDir() +
                                 R"(", "dump_list": [{}],
          "dump_op_switch": "on"}})");
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(good.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclmdlInitDump());
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(good.c_str()));
  ASSERT_ACL_OK(aclmdlSetDump(good.c_str()));  // later settings replace
  ASSERT_ACL_OK(aclmdlSetDump(WriteFile("empty.json", "{}").c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlSetDump(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclmdlSetDump((TempDir() + "/missing.json").c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_PARSE_FILE,
                   aclmdlSetDump(WriteFile("bad.json", "{\"dump\":").c_str()));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_DUMP_CONFIG,
      aclmdlSetDump(WriteFile("type.json", R"({"dump": 5})").c_str()));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_DUMP_CONFIG,
      aclmdlSetDump(
          WriteFile("path.json", R"({"dump": {"dump_path": 1}})").c_str()));
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(good.c_str()));
  ASSERT_ACL_OK(aclmdlInitDump());  // a new round
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclFinalize());
}

// 02 (aclInit): a configuration with every key the page documents is
// accepted, each dump configuration the page shows (model, single
// operator, exception, overflow, watch mode, kernel debug data) together
// with the others: the error message mode, the default device, the stack
// sizes, the printf buffers and the operator cache length. Each dump_path
// exists.
TEST_F(SystemApiTest, AclInitAcceptsEveryDocumentedKey) {
  const std::string path = TempDir();
  const std::string others = R"(,
      "max_opqueue_num": "10000",
      "err_msg_mode": "1",
      "defaultDevice": {"default_device": "0"},
      "StackSize": {"aicore_stack_size": 32768, "simt_stack_size": 1024,
                    "simt_divergence_stack_size": 512},
      "simt_printf_fifo_size": 1048576,
      "simd_printf_fifo_size_per_core": 1048576})";
  const std::string dumps[] = {
      // The model dump.
      R"({"dump": {"dump_list": [{"model_name": "ResNet-101"},
          {"model_name": "ResNet-50", "layer": ["conv1conv1_relu",
           "res2a_branch1", "pool1"]}],
          "dump_path": ")" +
          path + R"(", "dump_mode": "output",
          "dump_op_switch": "off", "dump_data": "tensor"})",
      // Single operators.
      R"({"dump": {"dump_path": ")" + path + R"(", "dump_list": [{}],
          "dump_op_switch": "on", "dump_data": "tensor"})",
      // Exception operators.
      R"({"dump": {"dump_path": ")" + path + R"(",
          "dump_scene": "aic_err_brief_dump"})",
      // Overflowing operators.
      R"({"dump": {"dump_path": ")" + path + R"(", "dump_debug": "on"})",
      // Watch mode.
      R"({"dump": {"dump_list": [{"layer": ["A", "B"],
          "watcher_nodes": ["C", "D"]}], "dump_path": ")" +
          path + R"(",
          "dump_mode": "output", "dump_level": "op",
          "dump_scene": "watcher"})",
      // Kernel debug data.
      R"({"dump": {"dump_kernel_data": "printf,assert", "dump_path": ")" +
          path + R"("})",
  };
  // Each in a process of its own: a process keeps the configuration of its
  // first aclInit (DESIGN.md §3.3).
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  int index = 0;
  for (const std::string& dump : dumps) {
    const std::string config = WriteFile(
        "every_key_" + std::to_string(index++) + ".json", dump + others);
    EXPECT_EXIT(
        {
          const aclError init = aclInit(config.c_str());
          const aclError fin = init == ACL_SUCCESS ? aclFinalize() : init;
          std::fprintf(stderr, "aclInit %d aclFinalize %d\n", init, fin);
          std::_Exit(init == ACL_SUCCESS && fin == ACL_SUCCESS ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "aclInit 0 aclFinalize 0")
        << dump;
  }
}

// --- Trace points
// --------------------------------------------------------------------

TEST_F(SystemApiTest, ProfTraceIsAStreamTask) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  unsigned char record[18] = {1};
  ASSERT_ACL_OK(aclrtProfTrace(record, 18, stream));
  ASSERT_ACL_OK(aclrtProfTrace(record, 1, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtProfTrace(nullptr, 18, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtProfTrace(record, 0, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtProfTrace(record, 19, stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtProfTrace(record, 8, stream));
}

// --- Snapshot
// ------------------------------------------------------------------------

// Lock → Backup → device memory loss → Restore → Unlock keeps every setting:
// the restore re-opens the device but is not a reset.
TEST_F(SystemApiTest, SettingsSurviveASnapshotCycle) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 5));
  ASSERT_ACL_OK(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 7));
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(stream, 1));
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ASSERT_ACL_OK(aclrtDeviceSetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4096));
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(10000));

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  uint32_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &cores));
  EXPECT_EQ(cores, 5u);
  ASSERT_ACL_OK(
      aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, &cores));
  EXPECT_EQ(cores, 7u);
  uint32_t flag = 0;
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(stream, &flag));
  EXPECT_EQ(flag, 1u);
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  int64_t value = 0;
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value));
  EXPECT_EQ(value, 1);
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);
  size_t fifo = 0;
  ASSERT_ACL_OK(aclrtDeviceGetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &fifo));
  EXPECT_EQ(fifo, 4096u);
  uint32_t ms = 0;
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 3 * kIntervalUs / 1000);

  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 0));
  ASSERT_ACL_OK(aclrtDeviceSetLimit(
      ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 32u << 10));
  ASSERT_ACL_OK(
      aclrtSetOpExecuteTimeOutV2(0, reinterpret_cast<uint64_t*>(&value)));
}

}  // namespace
