#include "hccl/testing/job.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace ascend::hccl::testing {

uint16_t FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  uint16_t port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

std::string RankBinary() {
  const char* path = std::getenv("HCCL_RANK_BIN");
  return path == nullptr ? "" : path;
}

std::string Hex(const HcclRootInfo& root) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (char c : root.internal) {
    const auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

JobResult RunJob(uint32_t n, const std::vector<std::string>& args,
                 std::chrono::seconds deadline,
                 const std::vector<std::vector<std::string>>& prefix) {
  JobResult result;
  result.ranks.resize(n);
  std::vector<pid_t> pids(n, -1);
  std::vector<std::string> logs(n);
  const char* tmp = std::getenv("TEST_TMPDIR");
  for (uint32_t i = 0; i < n; ++i) {
    logs[i] = std::string(tmp == nullptr ? "/tmp" : tmp) + "/rank_" +
              std::to_string(getpid()) + "_" + std::to_string(i) + ".log";
    std::vector<std::string> argv;
    if (i < prefix.size()) argv = prefix[i];
    argv.push_back(RankBinary());
    argv.insert(argv.end(), args.begin(), args.end());
    bool sized = false;
    for (const std::string& a : args)
      sized = sized || a.rfind("--nranks=", 0) == 0;
    if (!sized) argv.push_back("--nranks=" + std::to_string(n));
    argv.push_back("--rank=" + std::to_string(i));
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(&a[0]);
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, logs[i].c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawnp(&pids[i], cargv[0], &actions, nullptr, cargv.data(),
                     environ) != 0) {
      pids[i] = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
  }
  const auto end = std::chrono::steady_clock::now() + deadline;
  uint32_t left = 0;
  for (pid_t p : pids) left += p > 0 ? 1 : 0;
  while (left > 0) {
    for (uint32_t i = 0; i < n; ++i) {
      if (pids[i] <= 0) continue;
      int status = 0;
      if (waitpid(pids[i], &status, WNOHANG) == pids[i]) {
        result.ranks[i].exit_code =
            WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (WIFSIGNALED(status)) {
          result.ranks[i].signal = WTERMSIG(status);
        }
        pids[i] = -1;
        --left;
      }
    }
    if (left == 0) break;
    if (std::chrono::steady_clock::now() > end) {
      // Never hang: whatever is left is killed.
      result.timed_out = true;
      for (uint32_t i = 0; i < n; ++i) {
        if (pids[i] <= 0) continue;
        kill(pids[i], SIGKILL);
        waitpid(pids[i], nullptr, 0);
        pids[i] = -1;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (uint32_t i = 0; i < n; ++i) {
    std::ifstream in(logs[i]);
    std::stringstream s;
    s << in.rdbuf();
    result.ranks[i].output = s.str();
    std::remove(logs[i].c_str());
  }
  return result;
}

}  // namespace ascend::hccl::testing
