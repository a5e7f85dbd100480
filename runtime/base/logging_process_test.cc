// CANN's logging conventions seen from outside a process (DESIGN.md §5.11):
// runs logging_process_child, a program linked with //acl:ascendcl whose
// first ACL calls fail, in a chosen environment (and nothing else from this
// test's environment), and checks its stdout, its stderr and the plog files.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/base/file_test_util.h"

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

std::string ChildPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) {
    return "runtime/base/logging_process_child";
  }
  return std::string(srcdir) + "/" + workspace +
         "/runtime/base/logging_process_child";
}

using ::ascend::rt::testing::Exists;
using ::ascend::rt::testing::ListDir;
using ::ascend::rt::testing::ReadFile;

int CountOf(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t pos = text.find(part); pos != std::string::npos;
       pos = text.find(part, pos + 1)) {
    ++n;
  }
  return n;
}

struct ChildRun {
  pid_t pid = -1;
  int exit_code = -1;  // -1: did not exit normally
  std::string out;
  std::string err;
};

class LoggingProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const testing::TestInfo* info =
        testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + info->name() +
           "_" + std::to_string(getpid());
    mkdir(dir_.c_str(), 0755);
    home_ = dir_ + "/home";
    mkdir(home_.c_str(), 0755);
  }

  // Runs the child in exactly `env`, plus HOME unless `env` names it, and
  // TZ: without TZ, glibc's mktime (glog calls it for every message)
  // re-reads the time zone each time, under a lock ThreadSanitizer cannot
  // see, so a tsan build would report concurrent logging as a race.
  ChildRun RunChild(const std::string& mode, std::vector<std::string> env) {
    bool has_home = false;
    for (const std::string& e : env) has_home |= e.rfind("HOME=", 0) == 0;
    if (!has_home) env.push_back("HOME=" + home_);
    env.push_back("TZ=UTC");
    const std::string out_path = dir_ + "/" + mode + ".out";
    const std::string err_path = dir_ + "/" + mode + ".err";
    const std::string path = ChildPath();
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string arg = mode;
    std::vector<char*> argv = {const_cast<char*>(path.c_str()), arg.data(),
                               nullptr};

    ChildRun run;
    run.pid = fork();
    if (run.pid < 0) {
      ADD_FAILURE() << "fork failed";
      return run;
    }
    if (run.pid == 0) {
      const int out =
          open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err =
          open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
        _exit(126);
      }
      // The child runs where it cannot create anything by accident.
      if (chdir(dir_.c_str()) != 0) _exit(126);
      execve(path.c_str(), argv.data(), envp.data());
      _exit(127);
    }
    int status = 0;
    if (waitpid(run.pid, &status, 0) == run.pid && WIFEXITED(status)) {
      run.exit_code = WEXITSTATUS(status);
    }
    run.out = ReadFile(out_path);
    run.err = ReadFile(err_path);
    return run;
  }

  // The text of the child's files in `plog_dir` (named after its pid).
  std::string PlogOf(const ChildRun& run, const std::string& plog_dir) {
    std::string text;
    const std::string prefix = "plog-" + std::to_string(run.pid) + "_";
    for (const std::string& name : ListDir(plog_dir)) {
      EXPECT_EQ(name.rfind(prefix, 0), 0u) << name;
      EXPECT_EQ(name.size(), prefix.size() + 17 + 4) << name;
      text += ReadFile(plog_dir + "/" + name);
    }
    return text;
  }

  std::string dir_;
  std::string home_;
};

TEST_F(LoggingProcessTest, NoVariablesWritesUnderHomeAndNothingToStderr) {
  const ChildRun run = RunChild("calls", {});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out, "");
  const std::string plog = home_ + "/ascend/log/debug/plog";
  EXPECT_THAT(ListDir(plog), SizeIs(1));
  const std::string text = PlogOf(run, plog);
  EXPECT_EQ(CountOf(text, "[ERROR] ASCENDCL("), 2) << text;
  EXPECT_THAT(text, AllOf(HasSubstr("aclrtSetDevice"),
                          HasSubstr("devPtr must not be NULL")));
  // Default level ERROR: the backend's INFO line is not there.
  EXPECT_THAT(text, Not(HasSubstr("[INFO]")));
}

TEST_F(LoggingProcessTest, ProcessLogPathIsTheLogDirectory) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run = RunChild("calls", {"ASCEND_PROCESS_LOG_PATH=" + logs});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(CountOf(PlogOf(run, logs + "/debug/plog"), "[ERROR] ASCENDCL("), 2);
  EXPECT_FALSE(Exists(home_ + "/ascend"));
}

TEST_F(LoggingProcessTest, UnwritableLocationsFailQuietly) {
  const std::string file = dir_ + "/not_a_directory";
  { std::ofstream(file) << "x"; }
  for (const std::vector<std::string>& env :
       {std::vector<std::string>{"HOME=" + file},
        std::vector<std::string>{"ASCEND_PROCESS_LOG_PATH=" + file + "/logs"},
        std::vector<std::string>{"ASCEND_PROCESS_LOG_PATH=/proc/self/logs"}}) {
    const ChildRun run = RunChild("calls", env);
    EXPECT_EQ(run.exit_code, 0) << env[0];
    EXPECT_EQ(run.err, "") << env[0];
    EXPECT_EQ(run.out, "") << env[0];
  }
}

TEST_F(LoggingProcessTest, PrintToStdoutPrintsInsteadOfFiles) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run = RunChild("calls", {"ASCEND_PROCESS_LOG_PATH=" + logs,
                                          "ASCEND_SLOG_PRINT_TO_STDOUT=1"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(CountOf(run.out, "[ERROR] ASCENDCL("), 2) << run.out;
  EXPECT_FALSE(Exists(logs));
}

TEST_F(LoggingProcessTest, LevelFourSilencesEverythingBeforeAclInit) {
  const std::string logs = dir_ + "/logs";
  for (const char* to_stdout : {"0", "1"}) {
    const ChildRun run = RunChild(
        "calls",
        {"ASCEND_PROCESS_LOG_PATH=" + logs, "ASCEND_GLOBAL_LOG_LEVEL=4",
         std::string("ASCEND_SLOG_PRINT_TO_STDOUT=") + to_stdout});
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_EQ(run.err, "");
    EXPECT_EQ(run.out, "");
    EXPECT_FALSE(Exists(logs));
  }
}

TEST_F(LoggingProcessTest, DebugLevelAppliesBeforeAclInit) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run = RunChild("calls", {"ASCEND_PROCESS_LOG_PATH=" + logs,
                                          "ASCEND_GLOBAL_LOG_LEVEL=0"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  const std::string text = PlogOf(run, logs + "/debug/plog");
  // The first call's INFO line (the runtime choosing its backend).
  EXPECT_THAT(text, HasSubstr("[INFO] ASCENDCL("));
  EXPECT_THAT(text, HasSubstr("device backend"));
  EXPECT_EQ(CountOf(text, "[ERROR] ASCENDCL("), 2);
}

TEST_F(LoggingProcessTest, ThreadsFailingAtOnceAsFirstUse) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run = RunChild("threads", {"ASCEND_PROCESS_LOG_PATH=" + logs});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(CountOf(PlogOf(run, logs + "/debug/plog"), "[ERROR] ASCENDCL("),
            16);
}

TEST_F(LoggingProcessTest, LifecycleEventsGoToTheRunLog) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run =
      RunChild("lifecycle", {"ASCEND_PROCESS_LOG_PATH=" + logs});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out, "");
  const std::string events = PlogOf(run, logs + "/run/plog");
  EXPECT_EQ(CountOf(events, "[EVENT] ASCENDCL("), 2) << events;
  EXPECT_THAT(events, AllOf(HasSubstr("aclInit"), HasSubstr("aclFinalize")));
  EXPECT_EQ(CountOf(PlogOf(run, logs + "/debug/plog"), "[ERROR] ASCENDCL("), 2);

  const std::string quiet = dir_ + "/quiet";
  const ChildRun off = RunChild(
      "lifecycle",
      {"ASCEND_PROCESS_LOG_PATH=" + quiet, "ASCEND_GLOBAL_EVENT_ENABLE=0"});
  EXPECT_EQ(off.exit_code, 0);
  EXPECT_FALSE(Exists(quiet + "/run"));
  EXPECT_TRUE(Exists(quiet + "/debug/plog"));
}

// An application that called InitGoogleLogging itself keeps its glog set-up
// (here: everything to stderr), and the plog still gets the runtime's lines.
TEST_F(LoggingProcessTest, ApplicationThatInitialisesGlogKeepsIt) {
  const std::string logs = dir_ + "/logs";
  const ChildRun run =
      RunChild("glog_app", {"ASCEND_PROCESS_LOG_PATH=" + logs});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("application-info"));
  EXPECT_THAT(run.err, HasSubstr("devPtr must not be NULL"));
  EXPECT_THAT(run.err, Not(HasSubstr("InitGoogleLogging")));
  EXPECT_EQ(run.out, "");
  const std::string text = PlogOf(run, logs + "/debug/plog");
  EXPECT_EQ(CountOf(text, "[ERROR] ASCENDCL("), 2);
  EXPECT_THAT(text, Not(HasSubstr("application-info")));
}

}  // namespace
