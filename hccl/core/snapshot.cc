#include "hccl/core/snapshot.h"

#include <map>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "hccl/core/comm.h"
#include "hccl/core/log.h"

namespace ascend::hccl {
namespace {

struct Saved {
  Counters counters;
  int async_error = HCCL_SUCCESS;
  bool suspended = false;
};

struct Backups {
  std::mutex mu;
  std::map<uint64_t, Saved> by_comm;  // the last Backup's, per communicator
};
Backups& TheBackups() {
  static Backups* b = new Backups;
  return *b;
}

uint32_t OnBackupPost(int32_t device, void*) {
  try {
    Backups& b = TheBackups();
    std::lock_guard<std::mutex> lock(b.mu);
    for (const auto& c : CommTable::Get().OnDevice(device)) {
      Saved s;
      s.counters = c->transport->Save();
      s.async_error = c->async_error.load();
      s.suspended = c->suspended.load();
      b.by_comm[c->id] = s;
    }
    return 0;
  } catch (...) {
    LogError("HcclSnapshot", "out of host memory recording communicators");
    return 1;
  }
}

uint32_t OnRestorePost(int32_t device, void*) {
  try {
    Backups& b = TheBackups();
    std::lock_guard<std::mutex> lock(b.mu);
    for (const auto& c : CommTable::Get().OnDevice(device)) {
      auto it = b.by_comm.find(c->id);
      if (it == b.by_comm.end()) continue;  // made after the Backup: as is
      const Saved& s = it->second;
      c->transport->Load(s.counters);
      c->suspended = s.suspended;
      // Lost connections stay lost: Restore brings memory back, not peers.
      if (s.async_error == HCCL_SUCCESS && !c->transport->lost()) {
        c->async_error = HCCL_SUCCESS;
      }
      LogInfo("HcclSnapshot", "communicator " + c->name + " rank " +
                                  std::to_string(c->rank) +
                                  " restored at collective " +
                                  std::to_string(s.counters.collectives));
    }
    return 0;
  } catch (...) {
    LogError("HcclSnapshot", "out of host memory restoring communicators");
    return 1;
  }
}

}  // namespace

void RegisterSnapshotCallbacks() {
  static std::once_flag once;
  std::call_once(once, [] {
    const aclError a = aclrtSnapShotCallbackRegister(
        ACL_RT_SNAPSHOT_BACKUP_POST, &OnBackupPost, nullptr);
    const aclError b = aclrtSnapShotCallbackRegister(
        ACL_RT_SNAPSHOT_RESTORE_POST, &OnRestorePost, nullptr);
    if (a != ACL_SUCCESS || b != ACL_SUCCESS) {
      LogWarning("HcclSnapshot",
                 "registering the snapshot stage callbacks failed (" +
                     std::to_string(a) + ", " + std::to_string(b) + ")");
    }
  });
}

}  // namespace ascend::hccl
