// The fd broker: see fd_broker.h for the mechanism. This file: the socket
// helpers, the broker itself and its exporting side (the server thread,
// Publish, AllowPids, Withdraw); fd_broker_import.cc: the importing side.
#include "device/base/fd_broker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "device/base/fd_broker_impl.h"
#include "device/base/mutex.h"

namespace ascend::ipc {
namespace {

// This process's pid namespace (the inode of /proc/self/ns/pid; 0 when it
// cannot be read). Pids mean something only within one namespace, while
// abstract socket names are shared by every process of the network
// namespace, which sandboxes and containers often leave shared: the name
// carries both.
uint64_t PidNamespace() {
  static const uint64_t ns = [] {
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0
               ? static_cast<uint64_t>(st.st_ino)
               : uint64_t{0};
  }();
  return ns;
}

}  // namespace

// The abstract-namespace address of process `pid`'s broker.
socklen_t BrokerAddress(int32_t pid, sockaddr_un* addr) {
  std::memset(addr, 0, sizeof(*addr));
  addr->sun_family = AF_UNIX;
  const std::string name =
      absl::StrCat("aclsim-broker-", PidNamespace(), "-", pid);
  // sun_path[0] stays 0: the abstract namespace.
  std::memcpy(addr->sun_path + 1, name.data(), name.size());
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 +
                                name.size());
}

void CloseFd(int fd) {
  if (fd >= 0) (void)close(fd);  // close is not retried on EINTR (Linux)
}

// Sends one datagram (header + optional payload + optional fd).
bool SendMessage(int sock, const void* head, size_t head_len, const void* body,
                 size_t body_len, int fd_to_pass, int flags) {
  iovec iov[2];
  iov[0].iov_base = const_cast<void*>(head);
  iov[0].iov_len = head_len;
  iov[1].iov_base = const_cast<void*>(body);
  iov[1].iov_len = body_len;
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = body_len > 0 ? 2 : 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (fd_to_pass >= 0) {
    std::memset(control, 0, sizeof(control));
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(cmsg), &fd_to_pass, sizeof(int));
  }
  for (;;) {
    const ssize_t n = sendmsg(sock, &msg, flags | MSG_NOSIGNAL);
    if (n >= 0) return static_cast<size_t>(n) == head_len + body_len;
    if (errno != EINTR) return false;
  }
}

// Waits until `fd` is readable or `deadline` passes (false then).
bool PollReadable(int fd, absl::Time deadline) {
  for (;;) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return false;
    pollfd p{fd, POLLIN, 0};
    const int ms = static_cast<int>(
        std::min<int64_t>(absl::ToInt64Milliseconds(left) + 1, 1000));
    const int r = poll(&p, 1, ms);
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

FdBroker::FdBroker() : impl_(nullptr) {}

FdBroker& FdBroker::Get() {
  static FdBroker* broker = new FdBroker();
  static std::mutex* init_mu = new std::mutex();
  static std::atomic<Impl*>* current = new std::atomic<Impl*>(nullptr);
  Impl* impl = current->load(std::memory_order_acquire);
  if (impl == nullptr || impl->pid != getpid()) {
    std::lock_guard<std::mutex> lock(*init_mu);
    impl = current->load(std::memory_order_acquire);
    if (impl == nullptr || impl->pid != getpid()) {
      // A forked child does not inherit the parent's server thread: it gets
      // a broker of its own (the parent's is abandoned, its fds closed).
      if (impl != nullptr) {
        impl->mu.Lock();
        CloseFd(impl->listen_fd);
        CloseFd(impl->stop_fd);
        impl->listen_fd = impl->stop_fd = -1;
        impl->mu.Unlock();
      }
      impl = new (std::nothrow) Impl();
      current->store(impl, std::memory_order_release);
    }
  }
  broker->impl_.store(impl, std::memory_order_release);
  return *broker;
}

bool FdBroker::ProcessAlive(int32_t pid) {
  if (pid <= 0) return false;
  return kill(pid, 0) == 0 || errno == EPERM;
}

absl::Status FdBroker::Impl::StartServerLocked() {
  if (serving) return absl::OkStatus();
  const int sock =
      socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (sock < 0) {
    return absl::InternalError(
        absl::StrCat("broker socket: ", std::strerror(errno)));
  }
  sockaddr_un addr;
  const socklen_t len = BrokerAddress(pid, &addr);
  if (bind(sock, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      listen(sock, 64) != 0) {
    const int err = errno;
    CloseFd(sock);
    return absl::InternalError(
        absl::StrCat("broker bind/listen: ", std::strerror(err)));
  }
  const int stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop < 0) {
    CloseFd(sock);
    return absl::InternalError("broker eventfd failed");
  }
  listen_fd = sock;
  stop_fd = stop;
  try {
    std::thread([this] { Serve(); }).detach();
  } catch (...) {
    CloseFd(sock);
    CloseFd(stop);
    listen_fd = stop_fd = -1;
    return absl::InternalError("broker thread could not start");
  }
  serving = true;
  return absl::OkStatus();
}

void FdBroker::Impl::ReleaseImportsLocked(uint32_t id, int32_t count) {
  auto it = exports.find(id);
  if (it == exports.end()) return;
  it->second.active -= count;
  if (it->second.withdrawn && it->second.active <= 0) exports.erase(it);
}

void FdBroker::Impl::DropConn(ServerConn& conn) {
  {
    ascend::MutexLock lock(&mu);
    for (const auto& [id, count] : conn.held) ReleaseImportsLocked(id, count);
  }
  conn.held.clear();
  CloseFd(conn.fd);
  conn.fd = -1;
}

void FdBroker::Impl::HandleRequest(ServerConn& conn, const Request& req) {
  ReplyHeader reply;
  reply.owner_pid = pid;
  if (req.op == static_cast<uint32_t>(Op::kRelease)) {
    auto held = conn.held.find(req.id);
    if (held != conn.held.end() && held->second > 0) {
      if (--held->second == 0) conn.held.erase(held);
      ascend::MutexLock lock(&mu);
      ReleaseImportsLocked(req.id, 1);
    }
    if (!SendMessage(conn.fd, &reply, sizeof(reply), nullptr, 0, -1,
                     MSG_DONTWAIT)) {
      DropConn(conn);
    }
    return;
  }
  if (req.op != static_cast<uint32_t>(Op::kFetch)) {
    DropConn(conn);  // not our protocol
    return;
  }
  int fd = -1;
  std::string metadata;
  {
    ascend::MutexLock lock(&mu);
    auto it = exports.find(req.id);
    if (it == exports.end() || it->second.withdrawn) {
      reply.code = static_cast<int32_t>(absl::StatusCode::kNotFound);
    } else if (static_cast<uint32_t>(it->second.kind) != req.kind) {
      reply.code = static_cast<int32_t>(absl::StatusCode::kInvalidArgument);
    } else if (it->second.check_pid && conn.pid != pid &&
               it->second.pids.count(conn.pid) == 0) {
      reply.code = static_cast<int32_t>(absl::StatusCode::kPermissionDenied);
    } else {
      fd = fcntl(it->second.fd, F_DUPFD_CLOEXEC, 0);
      if (fd < 0) {
        reply.code = static_cast<int32_t>(absl::StatusCode::kInternal);
      } else {
        metadata = it->second.metadata;
        ++it->second.active;  // undone below if the reply cannot go
      }
    }
  }
  reply.metadata_len = static_cast<uint32_t>(metadata.size());
  const bool sent = SendMessage(conn.fd, &reply, sizeof(reply), metadata.data(),
                                metadata.size(), fd, MSG_DONTWAIT);
  if (fd >= 0) {
    CloseFd(fd);
    if (sent) {
      ++conn.held[req.id];
    } else {
      ascend::MutexLock lock(&mu);
      ReleaseImportsLocked(req.id, 1);
    }
  }
  if (!sent) DropConn(conn);
}

void FdBroker::Impl::Serve() {
  int lfd, sfd;
  {
    ascend::MutexLock lock(&mu);
    lfd = listen_fd;
    sfd = stop_fd;
  }
  std::vector<ServerConn> conns;
  std::vector<pollfd> fds;
  for (;;) {
    fds.clear();
    fds.push_back({lfd, POLLIN, 0});
    fds.push_back({sfd, POLLIN, 0});
    for (const ServerConn& c : conns) fds.push_back({c.fd, POLLIN, 0});
    const int r = poll(fds.data(), fds.size(), -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;  // stopped (abandoned after a fork)
    // Connections first (indices line up with `conns` before any accept).
    for (size_t i = 0; i < conns.size(); ++i) {
      const short ev = fds[i + 2].revents;
      if (ev == 0) continue;
      ServerConn& conn = conns[i];
      if ((ev & POLLIN) != 0) {
        Request req;
        ssize_t n;
        do {
          n = recv(conn.fd, &req, sizeof(req), MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        if (n == static_cast<ssize_t>(sizeof(req))) {
          HandleRequest(conn, req);
          continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      }
      DropConn(conn);  // closed, broken or a malformed message
    }
    conns.erase(std::remove_if(conns.begin(), conns.end(),
                               [](const ServerConn& c) { return c.fd < 0; }),
                conns.end());
    if ((fds[0].revents & POLLIN) != 0) {
      for (;;) {
        const int c =
            accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (c < 0) {
          if (errno == EINTR) continue;
          break;  // EAGAIN: none left; anything else: try at the next poll
        }
        ucred cred{};
        socklen_t len = sizeof(cred);
        if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
          CloseFd(c);
          continue;
        }
        conns.push_back(ServerConn{c, static_cast<int32_t>(cred.pid), {}});
      }
    }
  }
}

absl::StatusOr<uint32_t> FdBroker::Publish(ExportKind kind, int fd,
                                           std::string metadata,
                                           bool check_pid) {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return absl::ResourceExhaustedError("no broker");
  if (metadata.size() > kMaxMetadata) {
    return absl::InvalidArgumentError("broker metadata too long");
  }
  ascend::MutexLock lock(&impl->mu);
  const absl::Status started = impl->StartServerLocked();
  if (!started.ok()) return started;
  const int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (dup < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot publish fd ", fd, ": ", std::strerror(errno)));
  }
  uint32_t id = impl->next_id++;
  while (id == 0 || impl->exports.contains(id)) id = impl->next_id++;
  try {
    impl->exports.emplace(
        id, Impl::Export{kind, dup, std::move(metadata), check_pid, {}, 0});
  } catch (const std::bad_alloc&) {
    CloseFd(dup);
    return absl::ResourceExhaustedError("out of memory");
  }
  return id;
}

absl::Status FdBroker::AllowPids(uint32_t id, absl::Span<const int32_t> pids) {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return absl::ResourceExhaustedError("no broker");
  ascend::MutexLock lock(&impl->mu);
  auto it = impl->exports.find(id);
  if (it == impl->exports.end() || it->second.withdrawn) {
    return absl::NotFoundError(absl::StrCat("no export ", id));
  }
  try {
    it->second.pids.insert(pids.begin(), pids.end());
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory");
  }
  return absl::OkStatus();
}

absl::Status FdBroker::Withdraw(uint32_t id) {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return absl::ResourceExhaustedError("no broker");
  ascend::MutexLock lock(&impl->mu);
  auto it = impl->exports.find(id);
  if (it == impl->exports.end() || it->second.withdrawn) {
    return absl::NotFoundError(absl::StrCat("no export ", id));
  }
  CloseFd(it->second.fd);
  it->second.fd = -1;
  if (it->second.active > 0) {
    it->second.withdrawn = true;
  } else {
    impl->exports.erase(it);
  }
  return absl::OkStatus();
}

bool FdBroker::Exists(uint32_t id) const {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return false;
  ascend::MutexLock lock(&impl->mu);
  auto it = impl->exports.find(id);
  return it != impl->exports.end() && !it->second.withdrawn;
}

int32_t FdBroker::ActiveImports(uint32_t id) const {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return 0;
  ascend::MutexLock lock(&impl->mu);
  auto it = impl->exports.find(id);
  return it == impl->exports.end() ? 0 : it->second.active;
}

}  // namespace ascend::ipc
