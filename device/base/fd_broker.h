// ascend::ipc::FdBroker: hands file descriptors (a memfd with an IPC event's
// or notify's shared page, device memory) from one process to another on the
// same machine, with a pid whitelist and import counting.
//
// Mechanism. Each process has one broker (an immortal singleton: it is
// leaked on purpose, so process exit never waits for it or runs its
// destructor). The first Publish binds a unix SOCK_SEQPACKET socket in the
// abstract namespace, "\0aclsim-broker-<pid namespace>-<pid>" (abstract
// names are per network namespace, pids per pid namespace: a sandbox or
// container sharing the first but not the second must not collide; an
// importer also checks with SO_PEERCRED that the listener is the pid it
// asked for), and starts a server thread
// that polls the listening socket, its client connections and an eventfd
// (the stop signal, used only when a forked child abandons its parent's
// broker). An abstract name needs no file and vanishes with the process, so
// a dead process leaves nothing behind, and a connect to a dead (or never
// publishing) pid fails: kUnavailable.
//
// An importer connects once per exporting pid and keeps that connection
// while the process lives; the exporter learns the importer's pid from
// SO_PEERCRED (it cannot be forged) and answers a fetch with the export's
// metadata and a dup of the fd (SCM_RIGHTS). The exporter counts, per
// connection, the fetches not released yet: an explicit Release lowers the
// count, and a connection that closes (the importer died or abandoned it)
// releases everything it held. ActiveImports sums those counts.
//
// Export ids start at a random value per process and grow by one (never 0,
// never reused in the process), so an id of a dead process whose pid was
// reused is almost surely unknown to the new process: kNotFound.
//
// Every call returns a status; nothing throws or aborts; system calls are
// retried on EINTR. A process's own exports may be fetched through the same
// path (the server thread answers its own process). Limits: metadata up to
// kMaxMetadata bytes, a reply must come within kReplyTimeout.
#ifndef ASCENDCL_DEVICE_BASE_FD_BROKER_H_
#define ASCENDCL_DEVICE_BASE_FD_BROKER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ascend::ipc {

enum class ExportKind : uint32_t {
  kMemory = 1,
  kPhysicalMemory = 2,
  kEvent = 3,
  kNotify = 4,
};

// What a Fetch returns. `fd` belongs to the caller (close it).
struct Imported {
  int fd = -1;
  std::string metadata;
  int32_t owner_pid = 0;
};

class FdBroker {
 public:
  static constexpr size_t kMaxMetadata = 4096;
  static constexpr absl::Duration kReplyTimeout = absl::Seconds(10);

  // The process's broker (created at the first call, never destroyed).
  static FdBroker& Get();

  FdBroker(const FdBroker&) = delete;
  FdBroker& operator=(const FdBroker&) = delete;

  // --- Exporter side -------------------------------------------------------
  // Publishes a dup of `fd` (the caller keeps `fd`) with opaque `metadata`.
  // `check_pid`: only whitelisted pids (and this process) may fetch it.
  // kInvalidArgument: bad fd or metadata too long; kInternal: the socket or
  // the server thread could not be set up.
  absl::StatusOr<uint32_t> Publish(ExportKind kind, int fd,
                                   std::string metadata, bool check_pid);
  // Adds `pids` to export `id`'s whitelist. kNotFound: no such export.
  absl::Status AllowPids(uint32_t id, absl::Span<const int32_t> pids);
  // Closes the export's dup; later fetches fail with kNotFound (as do
  // Exists, AllowPids and a second Withdraw). Imports already made stay
  // valid (they hold their own fds), and ActiveImports keeps counting them
  // until they are released: the exporter learns when the last importer of
  // withdrawn memory lets go.
  absl::Status Withdraw(uint32_t id);
  bool Exists(uint32_t id) const;
  // Fetches of `id` that succeeded and that their importer has neither
  // released nor outlived. 0 for an unknown id.
  int32_t ActiveImports(uint32_t id) const;

  // --- Importer side -------------------------------------------------------
  // Fetches export `id` of process `pid`, which must be of `kind`.
  // kNotFound: no such export; kPermissionDenied: not whitelisted;
  // kUnavailable: no such process or it runs no broker (or no reply in
  // time); kInvalidArgument: the export is of another kind.
  absl::StatusOr<Imported> Fetch(int32_t pid, uint32_t id, ExportKind kind);
  // Tells process `pid` this process stopped using one import of `id`.
  // Best effort: a dead exporter needs no telling.
  void Release(int32_t pid, uint32_t id);

  // Whether process `pid` is alive (kill(pid, 0) does not say ESRCH).
  static bool ProcessAlive(int32_t pid);

 private:
  struct Impl;
  FdBroker();
  std::atomic<Impl*> impl_;  // leaked with the broker
};

}  // namespace ascend::ipc

#endif  // ASCENDCL_DEVICE_BASE_FD_BROKER_H_
