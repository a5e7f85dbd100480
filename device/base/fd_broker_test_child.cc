// fd_broker_test's second process: reads one command a line from stdin,
// answers one line on stdout, exits at "exit" or end of input (without
// releasing anything it fetched: the exporter must see that as released).
//   publish KIND TEXT CHECK_PID -> "PID ID" (a memfd holding TEXT)
//   allow ID PID | withdraw ID  -> "CODE"
//   active ID                   -> "COUNT"
//   fetch PID ID KIND           -> "CODE CONTENT METADATA" (fd kept open)
//   fetchmany PID ID KIND N THREADS -> "SUCCESSES"
//   release PID ID              -> "ok"
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "device/base/fd_broker.h"

namespace {

using ascend::ipc::ExportKind;
using ascend::ipc::FdBroker;

std::string ReadAll(int fd) {
  char buf[256] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("-");
}

}  // namespace

int main() {
  std::vector<int> held;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    std::ostringstream out;
    if (cmd == "publish") {
      uint32_t kind;
      std::string text;
      int check;
      in >> kind >> text >> check;
      const int fd = memfd_create("child", MFD_CLOEXEC);
      if (fd < 0 || write(fd, text.data(), text.size()) < 0) return 2;
      auto id = FdBroker::Get().Publish(static_cast<ExportKind>(kind), fd,
                                        "meta-" + text, check != 0);
      close(fd);
      out << getpid() << " " << (id.ok() ? *id : 0);
    } else if (cmd == "allow") {
      uint32_t id;
      int32_t pid;
      in >> id >> pid;
      out << static_cast<int>(FdBroker::Get().AllowPids(id, {pid}).code());
    } else if (cmd == "withdraw") {
      uint32_t id;
      in >> id;
      out << static_cast<int>(FdBroker::Get().Withdraw(id).code());
    } else if (cmd == "active") {
      uint32_t id;
      in >> id;
      out << FdBroker::Get().ActiveImports(id);
    } else if (cmd == "fetch") {
      int32_t pid;
      uint32_t id, kind;
      in >> pid >> id >> kind;
      auto got = FdBroker::Get().Fetch(pid, id, static_cast<ExportKind>(kind));
      if (got.ok()) {
        out << "0 " << ReadAll(got->fd) << " " << got->metadata;
        held.push_back(got->fd);
      } else {
        out << static_cast<int>(got.status().code()) << " - -";
      }
    } else if (cmd == "fetchmany") {
      int32_t pid;
      uint32_t id, kind;
      int n, threads;
      in >> pid >> id >> kind >> n >> threads;
      std::atomic<int> ok{0};
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&] {
          for (int i = 0; i < n; ++i) {
            auto got =
                FdBroker::Get().Fetch(pid, id, static_cast<ExportKind>(kind));
            if (got.ok()) {
              ++ok;
              close(got->fd);
            }
          }
        });
      }
      for (std::thread& t : pool) t.join();
      out << ok.load();
    } else if (cmd == "release") {
      int32_t pid;
      uint32_t id;
      in >> pid >> id;
      FdBroker::Get().Release(pid, id);
      out << "ok";
    } else if (cmd == "exit") {
      std::cout << "bye" << std::endl;
      _exit(0);
    } else {
      out << "unknown";
    }
    std::cout << out.str() << std::endl;
  }
  return 0;
}
