// State that IPC events and IPC notifies share between processes
// (DESIGN.md §5.17): one page of a memfd, passed to other processes by the
// fd broker (device/base/fd_broker.h) and mapped MAP_SHARED by each.
//
// The page holds an event's record counters or a notify's flag, and a
// change counter that every update bumps; a waiter sleeps on that counter
// with a process-shared futex (bounded by short slices, so a waiter also
// notices deadlines, cancellations and processes that died).
#ifndef ASCENDCL_RUNTIME_IPC_SYNC_H_
#define ASCENDCL_RUNTIME_IPC_SYNC_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace ascend::rt {

class SharedSyncPage {
 public:
  // A fresh zeroed page (memfd_create + mmap).
  static absl::StatusOr<std::shared_ptr<SharedSyncPage>> Create();
  // Maps the page behind `fd` (received from the broker); takes `fd`.
  // `owner_pid`/`export_id`: where it came from, released at destruction.
  static absl::StatusOr<std::shared_ptr<SharedSyncPage>> Import(
      int fd, int32_t owner_pid, uint32_t export_id);

  SharedSyncPage(const SharedSyncPage&) = delete;
  SharedSyncPage& operator=(const SharedSyncPage&) = delete;
  // Unmaps; an exporter withdraws its export, an importer releases its
  // import (the other processes keep their own mappings).
  ~SharedSyncPage();

  // --- Event state: records begun and the newest record completed. ---------
  uint64_t BeginRecord();
  void CompleteRecord(uint64_t seq);
  uint64_t recorded() const;
  uint64_t completed() const;
  // Whether a live process has a record begun and not completed (records
  // of processes that died will never complete).
  bool LivePending() const;
  // --- Notify state: a one-shot flag. --------------------------------------
  void SetSignaled(bool on);
  bool signaled() const;
  // Clears the flag if set; true when it was.
  bool TakeSignal();

  // The change counter, and a sleep until it differs from `seen` or
  // `until` passes (spurious returns are fine: callers re-check).
  uint32_t Changes() const;
  void WaitForChange(uint32_t seen, absl::Time until) const;

  // Where this page is published: the process and the broker export id
  // (0 while not published). An imported page reports its exporter.
  int32_t owner_pid() const { return owner_pid_; }
  uint32_t export_id() const {
    return export_id_.load(std::memory_order_acquire);
  }
  bool imported() const { return imported_; }
  // True while the exporting process lives (always true in the exporter).
  bool OwnerAlive() const;

  struct Layout;  // the page's contents (ipc_sync.cc)
  // Publishes the page under `kind` (an ipc::ExportKind) once; later calls
  // return the same id. `check_pid` as FdBroker::Publish.
  absl::StatusOr<uint32_t> Publish(uint32_t kind, bool check_pid);
  // An exporter withdraws its export now (its object was destroyed; tasks
  // still queued may keep the page itself alive a while): opens that come
  // later fail. A no-op for an imported or unpublished page.
  void Withdraw();

 private:
  static constexpr int kNoSlot = -2;     // not looked for yet
  static constexpr int kUntracked = -1;  // every slot taken by others
  SharedSyncPage(int fd, Layout* layout, int32_t owner_pid, uint32_t export_id,
                 bool imported);
  void Wake();
  // This process's recorder slot on the page (kUntracked when full).
  int RecorderSlot();

  const int fd_;
  Layout* const page_;
  const int32_t owner_pid_;
  std::atomic<uint32_t> export_id_;
  const bool imported_;
  std::atomic<int> slot_{kNoSlot};
};

// Handles and keys (DESIGN.md §5.17): where an exported object lives.
struct IpcAddress {
  int32_t pid = 0;
  uint32_t export_id = 0;
};
// aclrtIpcEventHandle's 64 bytes.
void EncodeEventHandle(const IpcAddress& address, char out[64]);
bool DecodeEventHandle(const char in[64], IpcAddress* address);
// An IPC notify's key (shorter than 65 bytes with its NUL).
std::string NotifyKey(const IpcAddress& address);
bool ParseNotifyKey(const char* key, IpcAddress* address);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_IPC_SYNC_H_
