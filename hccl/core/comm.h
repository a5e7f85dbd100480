// A communicator rank: what an HcclComm handle names (DESIGN.md §5.27).
// Handles are ids that are never reused, looked up in a process-wide
// table, so a destroyed or made-up handle is refused (HCCL_E_PARA) rather
// than followed; a queued task names its communicator by the same id.
#ifndef ASCENDCL_HCCL_CORE_COMM_H_
#define ASCENDCL_HCCL_CORE_COMM_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/core/config.h"
#include "hccl/core/transport.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

class LocalWorld;
class StoreServer;

// How the communicator was made (decides how it can be split).
enum class Origin { kRootInfo, kRankTable, kInitAll, kSubComm };

// Where ranks of other processes meet for sub-communicators: the job's
// rendezvous store and key.
struct Rendezvous {
  std::string ip;
  uint16_t port = 0;
  std::string job;  // key prefix of the communicator's job
};

struct Comm {
  uint64_t id = 0;
  uint32_t rank = 0;
  uint32_t size = 0;
  int32_t device = 0;
  std::string name;
  std::string job;  // the same on every rank of the communicator
  CommSettings settings;
  Origin origin = Origin::kRootInfo;
  Rendezvous rendezvous;              // empty for in-process worlds
  std::shared_ptr<LocalWorld> world;  // set for in-process worlds
  std::unique_ptr<Transport> transport;
  // A rank-table job's rank 0 forgets the job's keys when destroyed.
  StoreServer* table_server = nullptr;
  std::string table_prefix;

  std::atomic<bool> suspended{false};
  std::atomic<int> async_error{HCCL_SUCCESS};
  std::atomic<int> running{0};  // operations executing now

  // HcclCommSetMemoryRange and friends: base -> size; activated bases.
  std::mutex ranges_mu;
  std::map<uintptr_t, size_t> ranges;
  std::map<uintptr_t, size_t> active;

  // Records the first asynchronous failure.
  void Fail(HcclResult code) {
    int expected = HCCL_SUCCESS;
    async_error.compare_exchange_strong(expected, code);
  }
};

// The table of live communicators.
class CommTable {
 public:
  static CommTable& Get();

  // Adds c (given a fresh id) and returns its handle. HCCL_E_PARA when its
  // name belongs to a communicator of another job in this process.
  HcclResult Add(const char* api, std::shared_ptr<Comm> c, HcclComm* handle);
  std::shared_ptr<Comm> Find(HcclComm handle) const;
  std::shared_ptr<Comm> FindById(uint64_t id) const;
  // Removes it; returns it (null when it was not there).
  std::shared_ptr<Comm> Remove(HcclComm handle);
  // The communicator named `name`: the one on `device` when several ranks of
  // one communicator live here, else any.
  std::shared_ptr<Comm> FindByName(const std::string& name,
                                   int32_t device) const;
  // Whether a live communicator made from the rank table `prefix` has rank
  // `rank` in this process.
  bool HasTableRank(const std::string& prefix, uint32_t rank) const;
  std::vector<std::shared_ptr<Comm>> OnDevice(int32_t device) const;

 private:
  mutable std::mutex mu_;
  uint64_t next_ = 0x10000;
  std::map<uint64_t, std::shared_ptr<Comm>> comms_;
};

// Finds the communicator of a handle, or refuses: HCCL_E_PTR for NULL,
// HCCL_E_PARA for a handle that is no live communicator.
HcclResult Lookup(const char* api, HcclComm handle, std::shared_ptr<Comm>* out);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_COMM_H_
