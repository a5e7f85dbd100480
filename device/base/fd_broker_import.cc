// The fd broker's importing side (see fd_broker.h): connections to other
// processes' brokers, Fetch and Release.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "device/base/fd_broker.h"
#include "device/base/fd_broker_impl.h"
#include "device/base/mutex.h"

namespace ascend::ipc {

std::shared_ptr<FdBroker::Impl::ClientConn> FdBroker::Impl::ConnTo(
    int32_t target) {
  ascend::MutexLock lock(&mu);
  std::shared_ptr<ClientConn>& conn = clients[target];
  if (!conn) conn = std::make_shared<ClientConn>();
  return conn;
}

// One attempt over `conn` (connected here if needed). `*retry`: the
// connection was an old one found broken, worth one more try on a new one.
absl::StatusOr<Imported> FdBroker::Impl::FetchOnce(ClientConn& conn,
                                                   int32_t target, uint32_t id,
                                                   ExportKind kind,
                                                   bool* retry) {
  *retry = false;
  ascend::MutexLock lock(&conn.mu);
  const bool fresh = conn.fd < 0;
  if (fresh) {
    const int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (sock < 0) return absl::UnavailableError("socket failed");
    sockaddr_un addr;
    const socklen_t len = BrokerAddress(target, &addr);
    int r;
    do {
      r = connect(sock, reinterpret_cast<sockaddr*>(&addr), len);
    } while (r != 0 && errno == EINTR);
    if (r != 0) {
      const int err = errno;
      CloseFd(sock);
      return absl::UnavailableError(absl::StrCat(
          "process ", target,
          " runs no fd broker (or is gone): ", std::strerror(err)));
    }
    // The listener must be the process asked for (as this namespace sees
    // it), not a namesake elsewhere.
    ucred cred{};
    socklen_t cred_len = sizeof(cred);
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 ||
        cred.pid != target) {
      CloseFd(sock);
      return absl::UnavailableError(
          absl::StrCat("the broker named for process ", target,
                       " belongs to another process"));
    }
    conn.fd = sock;
  }
  auto broken = [&](const char* what)
                    ABSL_EXCLUSIVE_LOCKS_REQUIRED(conn.mu) -> absl::Status {
    CloseFd(conn.fd);
    conn.fd = -1;
    *retry = !fresh;
    return absl::UnavailableError(
        absl::StrCat("broker of process ", target, ": ", what));
  };
  Request req;
  req.op = static_cast<uint32_t>(Op::kFetch);
  req.id = id;
  req.kind = static_cast<uint32_t>(kind);
  if (!SendMessage(conn.fd, &req, sizeof(req), nullptr, 0, -1, 0)) {
    return broken("request not sent");
  }
  if (!PollReadable(conn.fd, absl::Now() + FdBroker::kReplyTimeout)) {
    return broken("no reply");
  }
  ReplyHeader reply;
  std::string metadata(FdBroker::kMaxMetadata, '\0');
  iovec iov[2] = {{&reply, sizeof(reply)}, {metadata.data(), metadata.size()}};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(conn.fd, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  int fd = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr;
       c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len >= CMSG_LEN(sizeof(int))) {
      std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
    }
  }
  if (n < static_cast<ssize_t>(sizeof(reply)) ||
      reply.metadata_len > n - sizeof(reply)) {
    CloseFd(fd);
    return broken("malformed or no reply");
  }
  if (reply.code != 0) {
    CloseFd(fd);
    const std::string what =
        absl::StrCat("export ", id, " of process ", target);
    switch (static_cast<absl::StatusCode>(reply.code)) {
      case absl::StatusCode::kNotFound:
        return absl::NotFoundError(absl::StrCat("no ", what));
      case absl::StatusCode::kPermissionDenied:
        return absl::PermissionDeniedError(
            absl::StrCat("this process is not whitelisted for ", what));
      case absl::StatusCode::kInvalidArgument:
        return absl::InvalidArgumentError(
            absl::StrCat(what, " is of another kind"));
      default:
        return absl::InternalError(absl::StrCat(what, " could not be sent"));
    }
  }
  if (fd < 0) return absl::InternalError("the reply carried no fd");
  metadata.resize(reply.metadata_len);
  return Imported{fd, std::move(metadata), reply.owner_pid};
}

absl::StatusOr<Imported> FdBroker::Fetch(int32_t pid, uint32_t id,
                                         ExportKind kind) {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr) return absl::ResourceExhaustedError("no broker");
  if (pid <= 0) {
    return absl::UnavailableError(absl::StrCat("no process ", pid));
  }
  try {
    std::shared_ptr<Impl::ClientConn> conn = impl->ConnTo(pid);
    bool retry = false;
    absl::StatusOr<Imported> got =
        impl->FetchOnce(*conn, pid, id, kind, &retry);
    if (!got.ok() && retry) {
      got = impl->FetchOnce(*conn, pid, id, kind, &retry);
    }
    return got;
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory");
  }
}

void FdBroker::Release(int32_t pid, uint32_t id) {
  Impl* const impl = impl_.load(std::memory_order_acquire);
  if (impl == nullptr || pid <= 0) return;
  std::shared_ptr<Impl::ClientConn> conn;
  {
    ascend::MutexLock lock(&impl->mu);
    auto it = impl->clients.find(pid);
    if (it == impl->clients.end()) return;
    conn = it->second;
  }
  ascend::MutexLock lock(&conn->mu);
  if (conn->fd < 0) return;  // that connection died: nothing is held there
  Request req;
  req.op = static_cast<uint32_t>(Op::kRelease);
  req.id = id;
  bool ok = SendMessage(conn->fd, &req, sizeof(req), nullptr, 0, -1, 0) &&
            PollReadable(conn->fd, absl::Now() + kReplyTimeout);
  if (ok) {
    ReplyHeader reply;
    ssize_t n;
    do {
      n = recv(conn->fd, &reply, sizeof(reply), 0);
    } while (n < 0 && errno == EINTR);
    ok = n == static_cast<ssize_t>(sizeof(reply));
  }
  if (!ok) {
    CloseFd(conn->fd);
    conn->fd = -1;
  }
}

}  // namespace ascend::ipc