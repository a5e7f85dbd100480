// CONTRACT item 20: a process that exits while LOCKED or BACKED_UP does not
// hang. Runs global_state_exit_child in a child process and waits for it with
// a deadline (killing it on expiry).
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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
  bool hung = false;  // killed at the deadline
  int wait_status = 0;
};

ChildResult RunChild(const std::vector<std::string>& args,
                     absl::Duration limit) {
  const std::string path = ChildPath();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  ChildResult result;
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return result;
  }
  if (pid == 0) {
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  const absl::Time deadline = absl::Now() + limit;
  for (;;) {
    const pid_t done = waitpid(pid, &result.wait_status, WNOHANG);
    if (done == pid) return result;
    if (done < 0) {
      ADD_FAILURE() << "waitpid failed";
      return result;
    }
    if (absl::Now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &result.wait_status, 0);
      result.hung = true;
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ExpectCleanExit(const std::vector<std::string>& args) {
  ChildResult r = RunChild(args, absl::Seconds(10));
  ASSERT_FALSE(r.hung) << "the child hung at exit and was killed";
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
  ChildResult r = RunChild({"return", "locked", "private"}, absl::Seconds(2));
  EXPECT_TRUE(r.hung) << "wait status " << r.wait_status;
}

}  // namespace
}  // namespace ascend::rt
