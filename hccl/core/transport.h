// How a rank's operations move bytes: the interface both transports
// implement — in-process ranks sharing memory (local_world.h) and ranks in
// other processes or hosts over Gloo (gloo_transport.h) — and the outcome
// of an operation: the communicator's asynchronous error and the code its
// stream reports.
#ifndef ASCENDCL_HCCL_CORE_TRANSPORT_H_
#define ASCENDCL_HCCL_CORE_TRANSPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/core/env.h"
#include "hccl/core/op.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

struct Outcome {
  HcclResult hccl = HCCL_SUCCESS;  // what HcclGetCommAsyncError says
  int32_t acl = 0;                 // what the stream's synchronize says
  std::string why;

  bool ok() const { return hccl == HCCL_SUCCESS; }
  static Outcome Ok() { return {}; }
  // Peers did not arrive within the exec timeout: ACL_ERROR_RT_WAIT_TIMEOUT,
  // as a notify wait that times out on this runtime.
  static Outcome Timeout(std::string why);
  // A peer was lost (its process ended, its connection broke, it destroyed
  // its communicator): ACL_ERROR_RT_SUSPECT_REMOTE_ERROR.
  static Outcome Remote(std::string why);
  // Ranks disagree about the operation: ACL_ERROR_RT_INTERNAL_ERROR.
  static Outcome Mismatch(std::string why);
  static Outcome Suspended(std::string why);
  static Outcome Internal(std::string why);
};

// Sequence numbers that pair a rank's operations with its peers': the
// collectives it ran, and per peer the sends and receives. Saved by a
// Backup and put back by a Restore (DESIGN.md §5.27).
struct Counters {
  uint64_t collectives = 0;
  std::vector<uint64_t> sent;      // per peer
  std::vector<uint64_t> received;  // per peer
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Runs `op` for this rank, blocking until it is done, failed, or its
  // peers did not arrive within `timeout`.
  virtual Outcome Run(const OpView& op, Millis timeout) = 0;
  // Fails this rank's waiting operation, and those that start later, with
  // `why` (destroy, suspend) until Reset.
  virtual void Abort(const Outcome& why) = 0;
  virtual void Reset() = 0;
  // Whether the connections to peers are gone for good (Gloo after a lost
  // peer): such a communicator cannot resume.
  virtual bool lost() const = 0;
  virtual Counters Save() const = 0;
  virtual void Load(const Counters& c) = 0;
};

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_TRANSPORT_H_
