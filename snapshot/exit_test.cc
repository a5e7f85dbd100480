// DESIGN.md §4.6: a process that exits while LOCKED or BACKED_UP, with
// threads blocked in gated calls, exits normally (status 0) instead of
// hanging. Each case runs in a forked child (the parent never touches the
// runtime, so every child starts from a clean, single-threaded process) and
// is waited for with a deadline.
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "runtime/global_state.h"
#include "runtime/rt_snapshot.h"

namespace {

enum class Mode {
  kLocked,
  kBackedUp,
  // Locked, with application cleanup registered after the first ACL call
  // (it runs before handlers registered earlier) that makes a gated call.
  kLockedWithLateAtexitCleanup,
  kLockedWithLateStaticCleanup,
};

void HostFunc(void*) {}

// What the late cleanup frees (not used by the blocked threads).
void* g_cleanup_dev = nullptr;

void Cleanup() { (void)aclrtFree(g_cleanup_dev); }

struct StaticCleanup {
  ~StaticCleanup() { Cleanup(); }
};

// Source of the blocked copy. Never freed (blocked threads may still use it
// while the process exits) and reachable from here, so leak checkers at exit
// do not count it.
std::vector<char>* g_copy_source = nullptr;

// In the child: sets up, blocks threads in gated calls, reaches the state,
// reports 'R' on `report_fd`, then exits. Never returns.
[[noreturn]] void Child(Mode mode, int report_fd) {
  auto fail = [report_fd](char code) {
    (void)!write(report_fd, &code, 1);
    std::_Exit(2);
  };
  if (aclInit(nullptr) != ACL_SUCCESS) fail('i');
  if (aclrtSetDevice(0) != ACL_SUCCESS) fail('d');
  void* dev = nullptr;
  if (aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    fail('m');
  }
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) fail('s');
  aclrtContext context = nullptr;
  if (aclrtGetCurrentContext(&context) != ACL_SUCCESS) fail('c');
  g_copy_source = new std::vector<char>(1 << 20, 1);
  if (aclrtMalloc(&g_cleanup_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) !=
      ACL_SUCCESS) {
    fail('M');
  }
  if (mode == Mode::kLockedWithLateAtexitCleanup) {
    std::atexit(&Cleanup);
  } else if (mode == Mode::kLockedWithLateStaticCleanup) {
    static StaticCleanup cleanup;
    (void)cleanup;
  }

  if (aclrtSnapShotProcessLock(getpid(), nullptr) != ACL_SUCCESS) fail('l');
  if (mode == Mode::kBackedUp &&
      aclrtSnapShotProcessBackup(getpid(), nullptr) != ACL_SUCCESS) {
    fail('b');
  }
  // Threads that block in gated calls. What the calls return once the exit
  // releases them does not matter.
  constexpr int kThreads = 5;
  for (int i = 0; i < kThreads; ++i) {
    std::thread([i, dev, stream, context] {
      // Not gated: every thread has device 0's context when released.
      (void)aclrtSetCurrentContext(context);
      const std::vector<char>& host = *g_copy_source;
      switch (i) {
        case 0:
          (void)aclrtSetDevice(0);
          break;
        case 1: {
          void* p = nullptr;
          (void)aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
          break;
        }
        case 2:
          (void)aclrtMemcpy(dev, host.size(), host.data(), host.size(),
                            ACL_MEMCPY_HOST_TO_DEVICE);
          break;
        case 3:
          (void)aclrtLaunchHostFunc(stream, &HostFunc, nullptr);
          break;
        default: {
          aclrtStream s = nullptr;
          (void)aclrtCreateStream(&s);
          break;
        }
      }
    }).detach();
  }
  const absl::Time deadline = absl::Now() + absl::Seconds(5);
  while (ascend::rt::GlobalState::Get().blocked_callers() < kThreads) {
    if (absl::Now() > deadline) fail('t');
    absl::SleepFor(absl::Milliseconds(1));
  }
  rtProcessState state = RT_PROCESS_STATE_RUNNING;
  if (rtSnapShotProcessGetState(&state) != 0) fail('g');
  const rtProcessState expected = mode == Mode::kBackedUp
                                      ? RT_PROCESS_STATE_BACKED_UP
                                      : RT_PROCESS_STATE_LOCKED;
  if (state != expected) fail('x');
  const char ready = 'R';
  (void)!write(report_fd, &ready, 1);
  close(report_fd);
  // Exit with the process locked and five threads blocked.
  std::exit(0);
}

struct ChildResult {
  bool hung = false;
  int wait_status = 0;
  std::string report;
};

ChildResult RunChild(Mode mode) {
  ChildResult result;
  int fds[2];
  if (pipe(fds) != 0) {
    ADD_FAILURE() << "pipe failed";
    return result;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return result;
  }
  if (pid == 0) {
    close(fds[0]);
    Child(mode, fds[1]);
  }
  close(fds[1]);
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  for (;;) {
    const pid_t done = waitpid(pid, &result.wait_status, WNOHANG);
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
    absl::SleepFor(absl::Milliseconds(5));
  }
  char buf[16];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) result.report.append(buf, n);
  close(fds[0]);
  return result;
}

void ExpectCleanExit(Mode mode) {
  const ChildResult r = RunChild(mode);
  ASSERT_FALSE(r.hung) << "the child hung at exit and was killed";
  EXPECT_EQ(r.report, "R") << "the child did not reach the locked exit "
                              "(failure code in the report)";
  ASSERT_TRUE(WIFEXITED(r.wait_status))
      << "child ended by signal " << WTERMSIG(r.wait_status);
  EXPECT_EQ(WEXITSTATUS(r.wait_status), 0);
}

TEST(ExitTest, ExitWhileLockedWithBlockedThreads) {
  ExpectCleanExit(Mode::kLocked);
}

TEST(ExitTest, ExitWhileBackedUpWithBlockedThreads) {
  ExpectCleanExit(Mode::kBackedUp);
}

TEST(ExitTest, ExitWhileLockedWithAGatedAtexitCleanupRegisteredLate) {
  ExpectCleanExit(Mode::kLockedWithLateAtexitCleanup);
}

TEST(ExitTest, ExitWhileLockedWithAGatedStaticCleanupMadeLate) {
  ExpectCleanExit(Mode::kLockedWithLateStaticCleanup);
}

}  // namespace
