// The main() of sample tests: runs a sample program and judges it the way
// the samples' run.sh scripts do.
//
//   cc_test(
//       name = "foo_sample_test",
//       args = ["$(rootpath :foo_sample)"],
//       data = [":foo_sample"],
//       deps = ["//testing:sample_runner"],
//   )
//
// Usage: sample_runner [--timeout_s=N] <sample binary> [sample args...]
//
// The sample passes only if it exits with status 0 within the timeout
// (default 60 s; on expiry its whole process group is killed) and its
// standard output holds a line that is exactly "VERDICT: PASS". Its stdout
// is echoed as it arrives; its stderr goes straight through.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kPassLine[] = "VERDICT: PASS";
constexpr int kDefaultTimeoutS = 60;

int Fail(const std::string& why) {
  std::fprintf(stderr, "sample_runner: FAIL: %s\n", why.c_str());
  return 1;
}

bool HasPassLine(const std::string& out) {
  size_t start = 0;
  while (start <= out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (out.compare(start, end - start, kPassLine) == 0 &&
        end - start == sizeof(kPassLine) - 1) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

int RemainingMs(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

}  // namespace

int main(int argc, char** argv) {
  int timeout_s = kDefaultTimeoutS;
  int first = 1;
  if (argc > 1 && std::strncmp(argv[1], "--timeout_s=", 12) == 0) {
    timeout_s = std::atoi(argv[1] + 12);
    if (timeout_s <= 0) return Fail("bad --timeout_s");
    first = 2;
  }
  if (first >= argc) {
    std::fprintf(stderr,
                 "usage: sample_runner [--timeout_s=N] <sample> [args...]\n");
    return 2;
  }

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return Fail("pipe2 failed");
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) return Fail("fork failed");
  if (pid == 0) {
    setpgid(0, 0);  // own group, so a timeout kills its children too
    dup2(pipe_fds[1], STDOUT_FILENO);
    execv(argv[first], &argv[first]);
    std::fprintf(stderr, "sample_runner: cannot run %s: %s\n", argv[first],
                 std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(pipe_fds[1]);

  const auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
  std::string out;
  bool timed_out = false;
  char buffer[4096];
  while (true) {
    pollfd p = {pipe_fds[0], POLLIN, 0};
    int ready = poll(&p, 1, RemainingMs(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    ssize_t n = read(pipe_fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of output
    out.append(buffer, static_cast<size_t>(n));
    std::fwrite(buffer, 1, static_cast<size_t>(n), stdout);
    std::fflush(stdout);
  }
  close(pipe_fds[0]);

  // The sample may have closed stdout and still be running.
  int status = 0;
  while (!timed_out) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return Fail("waitpid failed");
    if (RemainingMs(deadline) == 0) timed_out = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return Fail("timed out after " + std::to_string(timeout_s) +
                " s; the sample was killed");
  }

  if (WIFSIGNALED(status)) {
    return Fail("killed by signal " + std::to_string(WTERMSIG(status)));
  }
  if (WEXITSTATUS(status) != 0) {
    return Fail("exit status " + std::to_string(WEXITSTATUS(status)));
  }
  if (!HasPassLine(out)) {
    return Fail(std::string("no line \"") + kPassLine + "\" on stdout");
  }
  std::fprintf(stderr, "sample_runner: PASS\n");
  return 0;
}
