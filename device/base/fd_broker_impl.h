// Private to //device/base:fd_broker: the wire format, the socket helpers and
// FdBroker::Impl, shared by the exporting side (fd_broker.cc) and the
// importing side (fd_broker_import.cc).
#ifndef ASCENDCL_DEVICE_BASE_FD_BROKER_IMPL_H_
#define ASCENDCL_DEVICE_BASE_FD_BROKER_IMPL_H_

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "device/base/fd_broker.h"
#include "device/base/mutex.h"

namespace ascend::ipc {

enum class Op : uint32_t { kFetch = 1, kRelease = 2 };

struct Request {
  uint32_t op = 0;
  uint32_t id = 0;
  uint32_t kind = 0;
  uint32_t reserved = 0;
};

struct ReplyHeader {
  int32_t code = 0;  // an absl::StatusCode
  int32_t owner_pid = 0;
  uint32_t metadata_len = 0;
  uint32_t reserved = 0;
};

// The abstract-namespace address of process `pid`'s broker.
socklen_t BrokerAddress(int32_t pid, sockaddr_un* addr);

void CloseFd(int fd);

// Sends one datagram (header + optional payload + optional fd).
bool SendMessage(int sock, const void* head, size_t head_len, const void* body,
                 size_t body_len, int fd_to_pass, int flags);

// Waits until `fd` is readable or `deadline` passes (false then).
bool PollReadable(int fd, absl::Time deadline);

struct FdBroker::Impl {
  struct Export {
    ExportKind kind;
    int fd;
    std::string metadata;
    bool check_pid;
    std::set<int32_t> pids;
    int32_t active = 0;
    // Withdrawn: its fd is closed and fetches fail, but the entry stays
    // while imports are active, so ActiveImports keeps counting them.
    bool withdrawn = false;
  };
  // A server-side connection from one importing process.
  struct ServerConn {
    int fd;
    int32_t pid;
    absl::flat_hash_map<uint32_t, int32_t> held;  // id -> imports not released
  };
  // An importer-side connection to one exporting process.
  struct ClientConn {
    ascend::Mutex mu;
    int fd ABSL_GUARDED_BY(mu) = -1;
  };

  Impl() : pid(getpid()) {
    std::random_device rd;
    // A random start per process (see fd_broker.h), leaving room to grow.
    next_id = 1 + (static_cast<uint32_t>(rd()) & 0x3fffffffU);
  }

  absl::Status StartServerLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  // Lowers export `id`'s active count by `count`, and forgets a withdrawn
  // export whose last import went.
  void ReleaseImportsLocked(uint32_t id, int32_t count)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  void Serve();
  void HandleRequest(ServerConn& conn, const Request& req);
  void DropConn(ServerConn& conn);
  absl::StatusOr<Imported> FetchOnce(ClientConn& conn, int32_t pid, uint32_t id,
                                     ExportKind kind, bool* retry);
  std::shared_ptr<ClientConn> ConnTo(int32_t pid);

  const pid_t pid;
  mutable ascend::Mutex mu;
  uint32_t next_id ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint32_t, Export> exports ABSL_GUARDED_BY(mu);
  bool serving ABSL_GUARDED_BY(mu) = false;
  int listen_fd ABSL_GUARDED_BY(mu) = -1;
  int stop_fd ABSL_GUARDED_BY(mu) = -1;
  absl::flat_hash_map<int32_t, std::shared_ptr<ClientConn>> clients
      ABSL_GUARDED_BY(mu);
};

}  // namespace ascend::ipc

#endif  // ASCENDCL_DEVICE_BASE_FD_BROKER_IMPL_H_
