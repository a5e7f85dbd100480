#include "runtime/base/logging.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "glog/logging.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/base/file_test_util.h"

namespace ascend::rt {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;
using ::testing::internal::CaptureStderr;
using ::testing::internal::CaptureStdout;
using ::testing::internal::GetCapturedStderr;
using ::testing::internal::GetCapturedStdout;

// Sets an environment variable for the scope, restoring it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value == nullptr) {
      unsetenv(name);
    } else {
      setenv(name, value, 1);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

// A fresh directory for one test's logs.
std::string FreshDir(const std::string& name) {
  std::string dir = TempDir() + "/" + name + "_" + std::to_string(getpid());
  mkdir(dir.c_str(), 0755);
  return dir;
}

using ::ascend::rt::testing::Exists;
using ::ascend::rt::testing::ListDir;
using ::ascend::rt::testing::ReadFile;

LogConfig FileConfig(const std::string& dir, LogLevel level) {
  LogConfig config;
  config.level = level;
  config.directory = dir;
  return config;
}

// Logs one message of each kind, tagged with `tag`.
void LogEachSeverity(const std::string& tag) {
  VLOG(1) << tag << "-verbose";
  LOG(INFO) << tag << "-info";
  LOG(WARNING) << tag << "-warning";
  LOG(ERROR) << tag << "-error";
}

// Runs `fn` and returns what it wrote to stderr.
template <typename Fn>
std::string StderrOf(Fn fn) {
  CaptureStderr();
  fn();
  return GetCapturedStderr();
}

// The first test of the binary, before anything else configures logging:
// InitLogging reads the environment once.
TEST(LoggingTest, InitLoggingReadsTheEnvironmentOnce) {
  const std::string dir = FreshDir("init");
  ScopedEnv path("ASCEND_PROCESS_LOG_PATH", dir.c_str());
  ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "2");
  const std::string err = StderrOf([] {
    InitLogging();
    LOG(WARNING) << "init-warning";
  });
  EXPECT_EQ(err, "");
  EXPECT_TRUE(google::IsGoogleLoggingInitialized());
  EXPECT_FALSE(FLAGS_logtostderr);
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_WARNING);
  EXPECT_EQ(FLAGS_stderrthreshold, google::GLOG_FATAL);
  EXPECT_THAT(CurrentDebugLogFile(), StartsWith(dir + "/debug/plog/"));
  EXPECT_THAT(ReadFile(CurrentDebugLogFile()), HasSubstr("init-warning"));

  ScopedEnv debug("ASCEND_GLOBAL_LOG_LEVEL", "0");
  InitLogging();
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_WARNING);
  EXPECT_EQ(FLAGS_v, 0);
}

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

TEST(LoggingTest, ParsesSwitchesAndFileCounts) {
  EXPECT_FALSE(ParseLogSwitch("0", true));
  EXPECT_TRUE(ParseLogSwitch(" 1 ", false));
  EXPECT_TRUE(ParseLogSwitch(nullptr, true));
  EXPECT_FALSE(ParseLogSwitch("", false));
  EXPECT_TRUE(ParseLogSwitch("2", true));
  EXPECT_FALSE(ParseLogSwitch("yes", false));

  EXPECT_EQ(ParseLogFileCount("1"), 1);
  EXPECT_EQ(ParseLogFileCount("1000"), 1000);
  EXPECT_EQ(ParseLogFileCount("0"), kDefaultLogFileCount);
  EXPECT_EQ(ParseLogFileCount("1001"), kDefaultLogFileCount);
  EXPECT_EQ(ParseLogFileCount("ten"), kDefaultLogFileCount);
  EXPECT_EQ(ParseLogFileCount(nullptr), kDefaultLogFileCount);
}

TEST(LoggingTest, EnvironmentDefaults) {
  ScopedEnv a("ASCEND_GLOBAL_LOG_LEVEL", nullptr);
  ScopedEnv b("ASCEND_SLOG_PRINT_TO_STDOUT", nullptr);
  ScopedEnv c("ASCEND_LOG_PRINT_TO_STDOUT", nullptr);
  ScopedEnv d("ASCEND_PROCESS_LOG_PATH", nullptr);
  ScopedEnv e("ASCEND_WORK_PATH", nullptr);
  ScopedEnv f("ASCEND_GLOBAL_EVENT_ENABLE", nullptr);
  ScopedEnv g("ASCEND_HOST_LOG_FILE_NUM", nullptr);
  ScopedEnv home("HOME", "/home/someone/");
  const LogConfig config = LogConfigFromEnvironment();
  EXPECT_EQ(config.level, LogLevel::kError);
  EXPECT_FALSE(config.to_stdout);
  EXPECT_TRUE(config.events);
  EXPECT_EQ(config.directory, "/home/someone/ascend/log");
  EXPECT_EQ(config.max_files, 10);
  EXPECT_EQ(config.max_file_bytes, 20 << 20);
}

TEST(LoggingTest, EnvironmentChoosesTheDirectoryInCannsOrder) {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv work("ASCEND_WORK_PATH", "/work/area/");
    ScopedEnv path("ASCEND_PROCESS_LOG_PATH", "/var/log/mine//");
    EXPECT_EQ(LogConfigFromEnvironment().directory, "/var/log/mine");
  }
  {
    ScopedEnv work("ASCEND_WORK_PATH", "/work/area");
    ScopedEnv path("ASCEND_PROCESS_LOG_PATH", "");  // empty: not set
    EXPECT_EQ(LogConfigFromEnvironment().directory, "/work/area/log");
  }
  {
    ScopedEnv work("ASCEND_WORK_PATH", nullptr);
    ScopedEnv path("ASCEND_PROCESS_LOG_PATH", "relative/logs");
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    EXPECT_EQ(LogConfigFromEnvironment().directory,
              std::string(cwd) + "/relative/logs");
  }
}

TEST(LoggingTest, EnvironmentSwitches) {
  ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "1");
  ScopedEnv events("ASCEND_GLOBAL_EVENT_ENABLE", "0");
  ScopedEnv files("ASCEND_HOST_LOG_FILE_NUM", "3");
  {
    ScopedEnv old_name("ASCEND_SLOG_PRINT_TO_STDOUT", "1");
    ScopedEnv new_name("ASCEND_LOG_PRINT_TO_STDOUT", nullptr);
    const LogConfig config = LogConfigFromEnvironment();
    EXPECT_EQ(config.level, LogLevel::kInfo);
    EXPECT_TRUE(config.to_stdout);
    EXPECT_FALSE(config.events);
    EXPECT_EQ(config.max_files, 3);
  }
  {
    // CANN's newer name wins when both are set.
    ScopedEnv old_name("ASCEND_SLOG_PRINT_TO_STDOUT", "1");
    ScopedEnv new_name("ASCEND_LOG_PRINT_TO_STDOUT", "0");
    EXPECT_FALSE(LogConfigFromEnvironment().to_stdout);
  }
  {
    // ...but not with an invalid value.
    ScopedEnv old_name("ASCEND_SLOG_PRINT_TO_STDOUT", "1");
    ScopedEnv new_name("ASCEND_LOG_PRINT_TO_STDOUT", "on");
    EXPECT_TRUE(LogConfigFromEnvironment().to_stdout);
  }
}

TEST(LoggingTest, WritesAPlogFileAndNothingToStderr) {
  const std::string dir = FreshDir("file");
  const std::string err = StderrOf([&] {
    ConfigureLogging(FileConfig(dir, LogLevel::kError));
    LOG(ERROR) << "file-error";
  });
  EXPECT_EQ(err, "");

  const std::string path = CurrentDebugLogFile();
  ASSERT_THAT(path, StartsWith(dir + "/debug/plog/"));
  EXPECT_THAT(
      path.substr(path.rfind('/') + 1),
      MatchesRegex("plog-" + std::to_string(getpid()) + "_[0-9]{17}\\.log"));
  EXPECT_THAT(ListDir(dir + "/debug/plog"), SizeIs(1));

  EXPECT_THAT(ReadFile(path),
              MatchesRegex("\\[ERROR\\] ASCENDCL\\([0-9]+,[^)]+\\):"
                           "[0-9]{4}-[0-9]{2}-[0-9]{2}-"
                           "[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\.[0-9]{3} "
                           "\\[logging_test\\.cc:[0-9]+\\] \\[[0-9]+\\] "
                           "file-error\n"));
  // No run log without an event.
  EXPECT_FALSE(Exists(dir + "/run"));
}

TEST(LoggingTest, DebugShowsVerboseAndInfo) {
  const std::string dir = FreshDir("debug");
  ConfigureLogging(FileConfig(dir, LogLevel::kDebug));
  EXPECT_EQ(FLAGS_v, 1);
  EXPECT_EQ(StderrOf([] { LogEachSeverity("debug"); }), "");
  const std::string text = ReadFile(CurrentDebugLogFile());
  EXPECT_THAT(text, HasSubstr("[INFO] ASCENDCL("));
  EXPECT_THAT(text, HasSubstr("debug-verbose"));
  EXPECT_THAT(text, HasSubstr("debug-info"));
  EXPECT_THAT(text, HasSubstr("[WARNING] ASCENDCL("));
  EXPECT_THAT(text, HasSubstr("debug-error"));
}

TEST(LoggingTest, InfoHidesVerbose) {
  const std::string dir = FreshDir("info");
  ConfigureLogging(FileConfig(dir, LogLevel::kInfo));
  LogEachSeverity("info");
  const std::string text = ReadFile(CurrentDebugLogFile());
  EXPECT_THAT(text, Not(HasSubstr("info-verbose")));
  EXPECT_THAT(text, HasSubstr("info-info"));
}

TEST(LoggingTest, WarningHidesInfo) {
  const std::string dir = FreshDir("warning");
  ConfigureLogging(FileConfig(dir, LogLevel::kWarning));
  LogEachSeverity("warning");
  const std::string text = ReadFile(CurrentDebugLogFile());
  EXPECT_THAT(text, Not(HasSubstr("warning-info")));
  EXPECT_THAT(text, HasSubstr("warning-warning"));
  EXPECT_THAT(text, HasSubstr("warning-error"));
}

TEST(LoggingTest, ErrorHidesWarning) {
  const std::string dir = FreshDir("error");
  ConfigureLogging(FileConfig(dir, LogLevel::kError));
  LogEachSeverity("error");
  const std::string text = ReadFile(CurrentDebugLogFile());
  EXPECT_THAT(text, Not(HasSubstr("error-warning")));
  EXPECT_THAT(text, HasSubstr("error-error"));
}

TEST(LoggingTest, OffWritesNothing) {
  const std::string dir = FreshDir("off");
  ConfigureLogging(FileConfig(dir, LogLevel::kOff));
  CaptureStdout();
  EXPECT_EQ(StderrOf([] { LogEachSeverity("off"); }), "");
  EXPECT_EQ(GetCapturedStdout(), "");
  EXPECT_EQ(CurrentDebugLogFile(), "");
  EXPECT_THAT(ListDir(dir), SizeIs(0));
}

TEST(LoggingTest, StdoutModePrintsInsteadOfWritingFiles) {
  const std::string dir = FreshDir("stdout");
  LogConfig config = FileConfig(dir, LogLevel::kWarning);
  config.to_stdout = true;
  ConfigureLogging(config);
  CaptureStdout();
  const std::string err = StderrOf([] {
    LogEachSeverity("stdout");
    LogEvent("stdout-event");
  });
  const std::string out = GetCapturedStdout();
  EXPECT_EQ(err, "");
  EXPECT_THAT(out, HasSubstr("[WARNING] ASCENDCL("));
  EXPECT_THAT(out, HasSubstr("stdout-warning"));
  EXPECT_THAT(out, HasSubstr("stdout-error"));
  EXPECT_THAT(out, Not(HasSubstr("stdout-info")));
  EXPECT_THAT(out, HasSubstr("[EVENT] ASCENDCL("));
  EXPECT_THAT(out, HasSubstr("stdout-event"));
  EXPECT_EQ(CurrentDebugLogFile(), "");
  EXPECT_THAT(ListDir(dir), SizeIs(0));
}

TEST(LoggingTest, EventsGoToTheRunLogUnlessDisabled) {
  const std::string dir = FreshDir("events");
  // Events do not depend on the level.
  ConfigureLogging(FileConfig(dir, LogLevel::kOff));
  LogEvent("first-event");
  const std::string path = CurrentRunLogFile();
  ASSERT_THAT(path, StartsWith(dir + "/run/plog/plog-"));
  const std::string text = ReadFile(path);
  EXPECT_THAT(text, HasSubstr("[EVENT] ASCENDCL("));
  EXPECT_THAT(text, HasSubstr("[logging_test.cc:"));
  EXPECT_THAT(text, HasSubstr("first-event"));
  EXPECT_FALSE(Exists(dir + "/debug"));

  LogConfig config = FileConfig(dir, LogLevel::kError);
  config.events = false;
  ConfigureLogging(config);
  LogEvent("second-event");
  EXPECT_THAT(ReadFile(path), Not(HasSubstr("second-event")));
}

TEST(LoggingTest, UnwritableDirectoryLosesLinesQuietly) {
  // A regular file where a directory should be: not even root can create
  // directories below it.
  const std::string blocker = FreshDir("unwritable") + "/file";
  { std::ofstream(blocker) << "x"; }
  CaptureStdout();
  const std::string err = StderrOf([&] {
    ConfigureLogging(FileConfig(blocker + "/logs", LogLevel::kDebug));
    LogEachSeverity("unwritable");
    LogEvent("unwritable-event");
    LOG(ERROR) << "again";
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(GetCapturedStdout(), "");
  EXPECT_EQ(CurrentDebugLogFile(), "");
  EXPECT_EQ(CurrentRunLogFile(), "");

  // No directory at all (no HOME, no password entry): the same.
  EXPECT_EQ(StderrOf([] {
              ConfigureLogging(FileConfig("", LogLevel::kDebug));
              LOG(ERROR) << "nowhere";
            }),
            "");
  EXPECT_EQ(CurrentDebugLogFile(), "");
}

TEST(LoggingTest, RotatesAndKeepsTheNewestFiles) {
  const std::string dir = FreshDir("rotate");
  LogConfig config = FileConfig(dir, LogLevel::kError);
  config.max_file_bytes = 200;  // about one line per file
  config.max_files = 3;
  ConfigureLogging(config);
  std::vector<std::string> paths;
  for (int i = 0; i < 6; ++i) {
    LOG(ERROR) << "rotate-" << i << std::string(100, '.');
    paths.push_back(CurrentDebugLogFile());
    // File names have millisecond resolution.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  EXPECT_NE(paths.front(), paths.back());
  EXPECT_THAT(ListDir(dir + "/debug/plog"), SizeIs(3));
  EXPECT_FALSE(Exists(paths.front()));
  EXPECT_THAT(ReadFile(paths.back()), HasSubstr("rotate-5"));
}

TEST(LoggingTest, ForkedChildWritesItsOwnFile) {
  const std::string dir = FreshDir("fork");
  ConfigureLogging(FileConfig(dir, LogLevel::kError));
  LOG(ERROR) << "parent-line";
  const std::string parent_file = CurrentDebugLogFile();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    LOG(ERROR) << "child-line";
    _exit(CurrentDebugLogFile() == parent_file ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  EXPECT_THAT(ReadFile(parent_file), Not(HasSubstr("child-line")));
  bool found = false;
  for (const std::string& name : ListDir(dir + "/debug/plog")) {
    if (name.rfind("plog-" + std::to_string(child) + "_", 0) == 0) {
      found = true;
      EXPECT_THAT(ReadFile(dir + "/debug/plog/" + name),
                  HasSubstr("child-line"));
    }
  }
  EXPECT_TRUE(found);
}

TEST(LoggingTest, ThreadsLogWholeLines) {
  const std::string dir = FreshDir("threads");
  ConfigureLogging(FileConfig(dir, LogLevel::kError));
  constexpr int kThreads = 8;
  constexpr int kLines = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kLines; ++i) LOG(ERROR) << "thread-" << t << "-end";
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::istringstream text(ReadFile(CurrentDebugLogFile()));
  int lines = 0;
  for (std::string line; std::getline(text, line);) {
    ++lines;
    EXPECT_THAT(line, StartsWith("[ERROR] ASCENDCL("));
    EXPECT_THAT(line, HasSubstr("-end"));
  }
  EXPECT_EQ(lines, kThreads * kLines);
}

}  // namespace
}  // namespace ascend::rt
