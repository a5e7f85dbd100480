// The transport for ranks in other processes or on other hosts: Gloo's TCP
// transport and its algorithms carry every byte (DESIGN.md §5.27). This
// layer maps HCCL's operations onto Gloo's (allreduce, reduce, broadcast,
// allgather(v), scatter, alltoall(v), barrier, and unbound buffers for
// sends and receives), supplies the reductions for every HCCL type, and
// packs or unpacks where HCCL's offsets differ from Gloo's packed layouts.
// ReduceScatter(V) is Gloo's allreduce followed by taking this rank's part.
#ifndef ASCENDCL_HCCL_CORE_GLOO_TRANSPORT_H_
#define ASCENDCL_HCCL_CORE_GLOO_TRANSPORT_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hccl/core/netif.h"
#include "hccl/core/transport.h"

namespace gloo {
class Context;
namespace transport {
class Device;
}
namespace rendezvous {
class Store;
}
}  // namespace gloo

namespace ascend::hccl {

class GlooTransport : public Transport {
 public:
  // Connects rank `rank` of `size` with its peers through `store` (keys
  // under `prefix`), on `device` (or a new TCP device bound to `address`
  // when null), waiting at most `timeout`. Null with *why set on failure.
  static std::unique_ptr<GlooTransport> Connect(
      gloo::rendezvous::Store& store, const std::string& prefix, uint32_t rank,
      uint32_t size, std::shared_ptr<gloo::transport::Device> device,
      const NetAddress& address, Millis timeout, std::string* why);

  Outcome Run(const OpView& op, Millis timeout) override;
  void Abort(const Outcome& why) override;
  void Reset() override;
  bool lost() const override { return lost_.load(); }
  Counters Save() const override;
  void Load(const Counters& c) override;

  const std::shared_ptr<gloo::transport::Device>& device() const {
    return device_;
  }

 private:
  GlooTransport(std::shared_ptr<gloo::Context> context,
                std::shared_ptr<gloo::transport::Device> device, uint32_t rank,
                uint32_t size);
  Outcome Collective(const OpView& op, uint32_t tag, Millis timeout);
  Outcome PointToPoint(const OpView& op, Millis timeout);

  std::shared_ptr<gloo::Context> context_;
  std::shared_ptr<gloo::transport::Device> device_;
  const uint32_t rank_;
  const uint32_t size_;
  std::atomic<bool> lost_{false};
  mutable std::mutex mu_;  // counters and the abort reason
  Outcome aborted_;
  uint64_t collectives_ = 0;
  std::vector<uint64_t> sent_;
  std::vector<uint64_t> received_;
};

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_GLOO_TRANSPORT_H_
