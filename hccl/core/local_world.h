// The in-process transport: every rank of the communicator is a thread of
// this process (CANN's examples: a thread per device), so an operation
// reads its peers' buffers directly, as the simulated devices' memory is
// host memory. Same semantics as the Gloo transport, no copies through
// sockets.
//
// A collective waits until every rank's task reached it (matched by the
// order the ranks ran their collectives in), checks that they agree, then
// each rank computes its share — a slice of the result, written to every
// rank's output — and the task ends when every share is written. Small
// operations are computed whole by the rank that arrives last (one wait
// instead of two). Sends and receives pair by the order of the sends and
// receives between two ranks; a receive copies straight from the sender's
// buffer, and the send ends once it was copied.
#ifndef ASCENDCL_HCCL_CORE_LOCAL_WORLD_H_
#define ASCENDCL_HCCL_CORE_LOCAL_WORLD_H_

#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "hccl/core/transport.h"

namespace ascend::hccl {

class LocalWorld {
 public:
  explicit LocalWorld(uint32_t size);
  uint32_t size() const { return size_; }

  Outcome Run(uint32_t rank, const OpView& op, Millis timeout);
  void Abort(uint32_t rank, const Outcome& why);
  void Reset(uint32_t rank);
  Counters Save(uint32_t rank) const;
  void Load(uint32_t rank, const Counters& c);

 private:
  struct Instance {
    std::vector<const OpView*> ops;  // per rank, while its task runs
    uint32_t arrived = 0;
    uint32_t done = 0;
    uint32_t left = 0;
    bool ready = false;
    bool failed = false;
    Outcome failure;
  };
  struct Posted {
    uint64_t seq;
    const void* buf;
    uint64_t bytes;
    int state;  // kPosted, kTaken, kConsumed, kFailed
    Outcome failure;
  };

  Outcome Collective(uint32_t rank, const OpView& op, Millis timeout);
  Outcome PointToPoint(uint32_t rank, const OpView& op, Millis timeout);
  // Why the instance cannot complete now (a peer aborted), or ok.
  Outcome Blocked(const Instance& in) const;

  const uint32_t size_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, Instance> instances_;
  std::vector<uint64_t> collectives_;    // per rank
  std::vector<Outcome> aborted_;         // per rank; ok: not aborted
  std::vector<std::list<Posted>> mail_;  // [src * size + dst]
  std::vector<uint64_t> sent_;           // [src * size + dst]
  std::vector<uint64_t> received_;       // [src * size + dst]
};

// One rank's view of a LocalWorld.
class LocalTransport : public Transport {
 public:
  LocalTransport(std::shared_ptr<LocalWorld> world, uint32_t rank)
      : world_(std::move(world)), rank_(rank) {}
  Outcome Run(const OpView& op, Millis timeout) override {
    return world_->Run(rank_, op, timeout);
  }
  void Abort(const Outcome& why) override { world_->Abort(rank_, why); }
  void Reset() override { world_->Reset(rank_); }
  bool lost() const override { return false; }
  Counters Save() const override { return world_->Save(rank_); }
  void Load(const Counters& c) override { world_->Load(rank_, c); }

 private:
  std::shared_ptr<LocalWorld> world_;
  uint32_t rank_;
};

// The collectives' arithmetic over the ranks' operations (local_ops.cc).
// Checks that the ranks agree (counts, types, roots, matrices): a
// description of the disagreement, or "".
std::string Disagreement(const std::vector<const OpView*>& ops);
// Whether the operation is small enough for one rank to compute whole.
bool ComputeWhole(const std::vector<const OpView*>& ops);
// Rank r's share of the collective (every share together is the whole).
void ComputeShare(const std::vector<const OpView*>& ops, uint32_t r);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_LOCAL_WORLD_H_
