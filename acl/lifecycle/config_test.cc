#include "acl/lifecycle/config.h"

#include <unistd.h>

#include <string>

#include "acl/acl_base.h"
#include "acl/lifecycle/test_util.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::MakeTempDir;
using ::ascend::acl::testing::WriteTempFile;

int32_t Code(const absl::Status& status) { return rt::ErrorCode(status); }
template <typename T>
int32_t Code(const absl::StatusOr<T>& status) {
  return rt::ErrorCode(status.status());
}

std::string Nested(char open, char close, int depth) {
  return std::string(depth, open) + std::string(depth, close);
}

// Parses `json` (which must parse) and applies `read` to fresh settings.
absl::Status ReadFrom(absl::string_view json,
                      absl::Status (Config::*read)(ConfigSettings*) const,
                      ConfigSettings* settings) {
  absl::StatusOr<Config> config = Config::Parse(json);
  EXPECT_OK(config) << json;
  if (!config.ok()) return config.status();
  return ((*config).*read)(settings);
}

int32_t ReadCode(absl::string_view json,
                 absl::Status (Config::*read)(ConfigSettings*) const) {
  ConfigSettings settings;
  return Code(ReadFrom(json, read, &settings));
}

// --- ReadConfigFile -----------------------------------------------------

TEST(ReadConfigFileTest, ReturnsTheRawBytes) {
  const std::string bytes("{ \"a\" :\t1 }\r\n\xff\x01", 15);
  ASSERT_OK_AND_ASSIGN(
      std::string read,
      ReadConfigFile(WriteTempFile("raw.json", bytes).c_str()));
  EXPECT_EQ(read, bytes);
}

TEST(ReadConfigFileTest, EmptyFileIsEmptyBytes) {
  ASSERT_OK_AND_ASSIGN(std::string read,
                       ReadConfigFile(WriteTempFile("empty.json", "").c_str()));
  EXPECT_EQ(read, "");
}

TEST(ReadConfigFileTest, FollowsSymlinks) {
  std::string target = WriteTempFile("target.json", "{}");
  std::string link = target + ".link";
  unlink(link.c_str());
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  ASSERT_OK_AND_ASSIGN(std::string read, ReadConfigFile(link.c_str()));
  EXPECT_EQ(read, "{}");
}

TEST(ReadConfigFileTest, MissingFileIsInvalidFile) {
  EXPECT_EQ(Code(ReadConfigFile("/nonexistent/acl.json")),
            ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(Code(ReadConfigFile("missing-relative.json")),
            ACL_ERROR_INVALID_FILE);
}

TEST(ReadConfigFileTest, DirectoryIsInvalidFile) {
  EXPECT_EQ(Code(ReadConfigFile(MakeTempDir("a_directory").c_str())),
            ACL_ERROR_INVALID_FILE);
}

TEST(ReadConfigFileTest, TenMebibytesIsTheLimit) {
  std::string at_limit(kMaxConfigBytes, ' ');
  ASSERT_OK_AND_ASSIGN(
      std::string read,
      ReadConfigFile(WriteTempFile("at_limit.json", at_limit).c_str()));
  EXPECT_EQ(read.size(), kMaxConfigBytes);
  at_limit.push_back(' ');
  EXPECT_EQ(
      Code(ReadConfigFile(WriteTempFile("over_limit.json", at_limit).c_str())),
      ACL_ERROR_INVALID_FILE);
}

// --- Config::Parse --------------------------------------------------------

TEST(ConfigParseTest, EmptyBytesAndEmptyObjectAreAccepted) {
  EXPECT_OK(Config::Parse(""));
  EXPECT_OK(Config::Parse("{}"));
  EXPECT_OK(Config::Parse(" {\"max_opqueue_num\": \"1000\", \"x\": [1]}\n"));
}

TEST(ConfigParseTest, DepthTenIsAcceptedElevenIsNot) {
  // {"a":{"a":...{}...}} with 10 levels of braces.
  std::string ten;
  for (int i = 0; i < 9; ++i) ten += "{\"a\":";
  ten += "{}" + std::string(9, '}');
  EXPECT_OK(Config::Parse(ten));
  EXPECT_OK(Config::Parse("{\"a\":" + Nested('[', ']', 10) + "}"));
  // Ten of each at once is fine: they are counted separately.
  std::string mixed;
  for (int i = 0; i < 9; ++i) mixed += "{\"a\":";
  mixed += "{\"b\":" + Nested('[', ']', 10) + "}" + std::string(9, '}');
  EXPECT_OK(Config::Parse(mixed));

  std::string eleven = "{\"a\":" + ten + "}";
  EXPECT_EQ(Code(Config::Parse(eleven)), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("{\"a\":" + Nested('[', ']', 11) + "}")),
            ACL_ERROR_PARSE_FILE);
}

TEST(ConfigParseTest, BracesInsideStringsCountToo) {
  EXPECT_EQ(Code(Config::Parse("{\"a\": \"" + std::string(11, '{') + "\"}")),
            ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("{\"a\": \"" + std::string(11, '[') + "\"}")),
            ACL_ERROR_PARSE_FILE);
}

TEST(ConfigParseTest, InvalidJsonIsParseFile) {
  EXPECT_EQ(Code(Config::Parse("{")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("{\"a\": }")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("{\"a\": 1,}")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("{} trailing")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse(" \n")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse(std::string("{\"a\": \"\xff\"}"))),
            ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse(std::string("{}\0", 3))), ACL_ERROR_PARSE_FILE);
}

TEST(ConfigParseTest, TopLevelMustBeAnObject) {
  EXPECT_EQ(Code(Config::Parse("[1, 2]")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("\"0\"")), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(Code(Config::Parse("7")), ACL_ERROR_PARSE_FILE);
}

// --- err_msg_mode -------------------------------------------------------

TEST(ConfigErrMsgModeTest, StringZeroOrOne) {
  ConfigSettings settings;
  EXPECT_OK(ReadFrom("{\"err_msg_mode\": \"1\"}", &Config::ReadErrMsgMode,
                     &settings));
  EXPECT_EQ(settings.err_msg_mode, ErrMsgMode::kProcess);
  EXPECT_OK(ReadFrom("{\"err_msg_mode\": \"0\"}", &Config::ReadErrMsgMode,
                     &settings));
  EXPECT_EQ(settings.err_msg_mode, ErrMsgMode::kThread);
  settings.err_msg_mode = ErrMsgMode::kProcess;
  EXPECT_OK(ReadFrom("{}", &Config::ReadErrMsgMode, &settings));
  EXPECT_EQ(settings.err_msg_mode, ErrMsgMode::kProcess);
}

TEST(ConfigErrMsgModeTest, AnythingElseIsInvalidParam) {
  for (const char* json :
       {"{\"err_msg_mode\": \"2\"}", "{\"err_msg_mode\": 1}",
        "{\"err_msg_mode\": 0}", "{\"err_msg_mode\": \"\"}",
        "{\"err_msg_mode\": \" 1\"}", "{\"err_msg_mode\": null}",
        "{\"err_msg_mode\": [\"1\"]}", "{\"err_msg_mode\": true}"}) {
    EXPECT_EQ(ReadCode(json, &Config::ReadErrMsgMode), ACL_ERROR_INVALID_PARAM)
        << json;
  }
}

// --- StackSize ----------------------------------------------------------

TEST(ConfigStackSizeTest, UnsignedIntegersAreStored) {
  ConfigSettings settings;
  EXPECT_OK(ReadFrom(
      "{\"StackSize\": {\"aicore_stack_size\": 32768, \"simt_stack_size\": 0,"
      " \"simt_divergence_stack_size\": 4294967295, \"other\": \"x\"}}",
      &Config::ReadStackSizes, &settings));
  EXPECT_EQ(settings.aicore_stack_size, 32768u);
  EXPECT_EQ(settings.simt_stack_size, 0u);
  EXPECT_EQ(settings.simt_divergence_stack_size, 4294967295u);

  ConfigSettings partial;
  EXPECT_OK(ReadFrom("{\"StackSize\": {\"simt_stack_size\": 7}}",
                     &Config::ReadStackSizes, &partial));
  EXPECT_FALSE(partial.aicore_stack_size.has_value());
  EXPECT_EQ(partial.simt_stack_size, 7u);
}

TEST(ConfigStackSizeTest, OtherValuesAreFailureAndChangeNothing) {
  for (const char* json :
       {"{\"StackSize\": {\"aicore_stack_size\": \"32768\"}}",
        "{\"StackSize\": {\"aicore_stack_size\": -1}}",
        "{\"StackSize\": {\"simt_stack_size\": 1.5}}",
        "{\"StackSize\": {\"simt_stack_size\": 4294967296}}",
        "{\"StackSize\": {\"simt_divergence_stack_size\": null}}",
        "{\"StackSize\": {\"aicore_stack_size\": 1, \"simt_stack_size\": "
        "true}}",
        "{\"StackSize\": 1024}", "{\"StackSize\": [1]}"}) {
    ConfigSettings settings;
    EXPECT_EQ(Code(ReadFrom(json, &Config::ReadStackSizes, &settings)),
              ACL_ERROR_FAILURE)
        << json;
    EXPECT_FALSE(settings.aicore_stack_size.has_value()) << json;
  }
}

// --- defaultDevice ------------------------------------------------------

TEST(ConfigDefaultDeviceTest, DecimalStringIsStored) {
  ConfigSettings settings;
  EXPECT_OK(ReadFrom("{\"defaultDevice\": {\"default_device\": \"0\"}}",
                     &Config::ReadDefaultDevice, &settings));
  EXPECT_EQ(settings.default_device, 0);
  EXPECT_OK(ReadFrom("{\"defaultDevice\": {\"default_device\": \"17\"}}",
                     &Config::ReadDefaultDevice, &settings));
  EXPECT_EQ(settings.default_device, 17);
  EXPECT_OK(
      ReadFrom("{\"defaultDevice\": {\"default_device\": \"2147483647\"}}",
               &Config::ReadDefaultDevice, &settings));
  EXPECT_EQ(settings.default_device, 2147483647);

  ConfigSettings untouched;
  EXPECT_OK(ReadFrom("{\"defaultDevice\": {}}", &Config::ReadDefaultDevice,
                     &untouched));
  EXPECT_FALSE(untouched.default_device.has_value());
}

TEST(ConfigDefaultDeviceTest, OtherValuesAreFailure) {
  for (const char* value :
       {"\"01\"", "\"-1\"", "1", "0", "\"\"", "\" 1\"", "\"1 \"", "\"+1\"",
        "\"1.0\"", "\"0x1\"", "\"2147483648\"", "\"99999999999999999999\"",
        "null", "[\"1\"]"}) {
    std::string json =
        std::string("{\"defaultDevice\": {\"default_device\": ") + value + "}}";
    ConfigSettings settings;
    EXPECT_EQ(Code(ReadFrom(json, &Config::ReadDefaultDevice, &settings)),
              ACL_ERROR_FAILURE)
        << json;
    EXPECT_FALSE(settings.default_device.has_value()) << json;
  }
  EXPECT_EQ(ReadCode("{\"defaultDevice\": \"0\"}", &Config::ReadDefaultDevice),
            ACL_ERROR_FAILURE);
}

// --- printf FIFO sizes --------------------------------------------------

TEST(ConfigPrintfFifoTest, PositiveIntegersAreStored) {
  ConfigSettings settings;
  EXPECT_OK(
      ReadFrom("{\"simd_printf_fifo_size_per_core\": 1048576,"
               " \"simt_printf_fifo_size\": 1}",
               &Config::ReadPrintfFifoSizes, &settings));
  EXPECT_EQ(settings.simd_printf_fifo_size_per_core, 1048576u);
  EXPECT_EQ(settings.simt_printf_fifo_size, 1u);
}

TEST(ConfigPrintfFifoTest, OtherValuesAreFailure) {
  for (const char* key :
       {"simd_printf_fifo_size_per_core", "simt_printf_fifo_size"}) {
    for (const char* value : {"\"1024\"", "0", "-1", "1.5", "1e3", "1024.0",
                              "4294967296", "null", "true", "{}"}) {
      std::string json = std::string("{\"") + key + "\": " + value + "}";
      ConfigSettings settings;
      EXPECT_EQ(Code(ReadFrom(json, &Config::ReadPrintfFifoSizes, &settings)),
                ACL_ERROR_FAILURE)
          << json;
      EXPECT_FALSE(settings.simd_printf_fifo_size_per_core.has_value());
      EXPECT_FALSE(settings.simt_printf_fifo_size.has_value());
    }
  }
}

// --- acl_graph.event_mode -----------------------------------------------

TEST(ConfigEventModeTest, StringZeroOrOne) {
  ConfigSettings settings;
  EXPECT_OK(ReadFrom("{\"acl_graph\": {\"event_mode\": \"1\"}}",
                     &Config::ReadEventMode, &settings));
  EXPECT_EQ(settings.event_mode, 1);
  EXPECT_OK(ReadFrom("{\"acl_graph\": {\"event_mode\": \"0\"}}",
                     &Config::ReadEventMode, &settings));
  EXPECT_EQ(settings.event_mode, 0);
  ConfigSettings untouched;
  EXPECT_OK(
      ReadFrom("{\"acl_graph\": {}}", &Config::ReadEventMode, &untouched));
  EXPECT_FALSE(untouched.event_mode.has_value());
}

TEST(ConfigEventModeTest, AnythingElseIsInvalidParamNeverAThrow) {
  for (const char* value :
       {"\"2\"", "\"\"", "1", "0", "null", "true", "[\"1\"]", "{}"}) {
    std::string json =
        std::string("{\"acl_graph\": {\"event_mode\": ") + value + "}}";
    EXPECT_EQ(ReadCode(json, &Config::ReadEventMode), ACL_ERROR_INVALID_PARAM)
        << json;
  }
  EXPECT_EQ(ReadCode("{\"acl_graph\": 1}", &Config::ReadEventMode),
            ACL_ERROR_INVALID_PARAM);
}

// --- keys accepted without effect ---------------------------------------

TEST(ConfigTest, DumpAndProfilerAreRecognised) {
  ASSERT_OK_AND_ASSIGN(
      Config config,
      Config::Parse("{\"dump\": {\"dump_path\": \"/tmp\"}, \"profiler\": {}}"));
  EXPECT_TRUE(config.has_dump());
  EXPECT_TRUE(config.has_profiler());
  ASSERT_OK_AND_ASSIGN(Config empty, Config::Parse(""));
  EXPECT_FALSE(empty.has_dump());
  EXPECT_FALSE(empty.has_profiler());
}

}  // namespace
}  // namespace ascend::acl
