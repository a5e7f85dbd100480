// DESIGN.md §4.6: a process that exits while LOCKED or BACKED_UP does not
// hang. Runs global_state_exit_child in a child process and waits for it with
// a deadline (killing it on expiry).
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ascend::rt {
namespace {

std::string ChildPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) {
    return "runtime/global_state_exit_child";
  }
  return std::string(srcdir) + "/" + workspace +
         "/runtime/global_state_exit_child";
}

struct ChildResult {
  bool reached_exit = false;  // the child wrote its marker
  bool hung = false;          // killed at the deadline
  int wait_status = 0;
};

bool FileExists(const std::string& path) {
  return access(path.c_str(), F_OK) == 0;
}

// Runs the child and waits for it: at most `grace` once it has marked that it
// is exiting, and at most 20 s in all; kills it when either runs out.
ChildResult RunChild(const std::vector<std::string>& args,
                     absl::Duration grace) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  static int counter = 0;
  const std::string marker = std::string(tmp != nullptr ? tmp : "/tmp") +
                             "/exit_marker_" + std::to_string(getpid()) + "_" +
                             std::to_string(++counter);
  unlink(marker.c_str());
  const std::string path = ChildPath();
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("GS_EXIT_MARKER=" + marker);
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings = args;
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (std::string& a : arg_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  ChildResult result;
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return result;
  }
  if (pid == 0) {
    execve(path.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  absl::Time deadline = absl::Now() + absl::Seconds(20);
  for (;;) {
    const pid_t done = waitpid(pid, &result.wait_status, WNOHANG);
    if (!result.reached_exit && FileExists(marker)) {
      result.reached_exit = true;
      deadline = std::min(deadline, absl::Now() + grace);
    }
    if (done == pid) break;
    if (done < 0) {
      ADD_FAILURE() << "waitpid failed";
      break;
    }
    if (absl::Now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &result.wait_status, 0);
      result.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.reached_exit = result.reached_exit || FileExists(marker);
  unlink(marker.c_str());
  return result;
}

void ExpectCleanExit(const std::vector<std::string>& args) {
  ChildResult r = RunChild(args, absl::Seconds(10));
  EXPECT_TRUE(r.reached_exit);
  ASSERT_FALSE(r.hung) << "the child hung and was killed";
  ASSERT_TRUE(WIFEXITED(r.wait_status))
      << "child ended by signal " << WTERMSIG(r.wait_status);
  EXPECT_EQ(WEXITSTATUS(r.wait_status), 0);
}

TEST(ExitWhileLockedTest, ReturnFromMainWhileLocked) {
  ExpectCleanExit({"return", "locked"});
}

TEST(ExitWhileLockedTest, ReturnFromMainWhileBackedUp) {
  ExpectCleanExit({"return", "backed_up"});
}

TEST(ExitWhileLockedTest, ExitWhileLocked) {
  ExpectCleanExit({"exit", "locked"});
}

TEST(ExitWhileLockedTest, ExitWhileBackedUp) {
  ExpectCleanExit({"exit", "backed_up"});
}

TEST(ExitWhileLockedTest, ExitFromAnotherThreadWhileMainIsBlockedInTheGate) {
  ExpectCleanExit({"exit_from_thread", "locked"});
}

// Control: the same teardown with a GlobalState the exit hook does not know
// hangs, so the tests above do depend on the forced unlock at exit.
TEST(ExitWhileLockedTest, ControlWithoutTheExitHookHangs) {
  ChildResult r =
      RunChild({"return", "locked", "private"}, absl::Milliseconds(1500));
  EXPECT_TRUE(r.reached_exit);
  EXPECT_TRUE(r.hung) << "wait status " << r.wait_status;
}

}  // namespace
}  // namespace ascend::rt
