#include "runtime/base/logging.h"

#include <cstdlib>
#include <string>

#include "glog/logging.h"
#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

TEST(LoggingTest, ParsesEveryLevelAndFallsBackToError) {
  EXPECT_EQ(ParseLogLevel("0"), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("1"), LogLevel::kInfo);
  EXPECT_EQ(ParseLogLevel("2"), LogLevel::kWarning);
  EXPECT_EQ(ParseLogLevel("3"), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel(" 4 "), LogLevel::kOff);
  EXPECT_EQ(ParseLogLevel(nullptr), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel(""), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel("5"), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel("-1"), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel("debug"), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel("1x"), LogLevel::kError);
}

// Logs one message of each kind and returns what reached stderr.
std::string LogEachSeverity() {
  CaptureStderr();
  VLOG(1) << "verbose-line";
  LOG(INFO) << "info-line";
  LOG(WARNING) << "warning-line";
  LOG(ERROR) << "error-line";
  return GetCapturedStderr();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(LoggingTest, DebugShowsVerboseAndInfo) {
  ApplyLogLevel(LogLevel::kDebug);
  EXPECT_TRUE(FLAGS_logtostderr);
  std::string out = LogEachSeverity();
  EXPECT_TRUE(Contains(out, "verbose-line")) << out;
  EXPECT_TRUE(Contains(out, "info-line")) << out;
  EXPECT_TRUE(Contains(out, "error-line")) << out;
}

TEST(LoggingTest, InfoHidesVerbose) {
  ApplyLogLevel(LogLevel::kInfo);
  std::string out = LogEachSeverity();
  EXPECT_FALSE(Contains(out, "verbose-line")) << out;
  EXPECT_TRUE(Contains(out, "info-line")) << out;
}

TEST(LoggingTest, WarningHidesInfo) {
  ApplyLogLevel(LogLevel::kWarning);
  std::string out = LogEachSeverity();
  EXPECT_FALSE(Contains(out, "info-line")) << out;
  EXPECT_TRUE(Contains(out, "warning-line")) << out;
  EXPECT_TRUE(Contains(out, "error-line")) << out;
}

TEST(LoggingTest, ErrorHidesWarning) {
  ApplyLogLevel(LogLevel::kError);
  std::string out = LogEachSeverity();
  EXPECT_FALSE(Contains(out, "warning-line")) << out;
  EXPECT_TRUE(Contains(out, "error-line")) << out;
}

TEST(LoggingTest, OffHidesEverything) {
  ApplyLogLevel(LogLevel::kOff);
  EXPECT_EQ(LogEachSeverity(), "");
}

// The only test that calls InitLogging: it must read the variable once.
TEST(LoggingTest, InitLoggingReadsTheEnvironmentOnce) {
  ASSERT_EQ(setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1), 0);
  InitLogging();
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_WARNING);
  EXPECT_EQ(FLAGS_stderrthreshold, google::GLOG_WARNING);

  ASSERT_EQ(setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1), 0);
  InitLogging();
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_WARNING);
  EXPECT_EQ(FLAGS_v, 0);
}

}  // namespace
}  // namespace ascend::rt
