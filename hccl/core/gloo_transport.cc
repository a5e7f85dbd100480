#include "hccl/core/gloo_transport.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

#include "gloo/allgather.h"
#include "gloo/allgatherv.h"
#include "gloo/allreduce.h"
#include "gloo/alltoall.h"
#include "gloo/alltoallv.h"
#include "gloo/barrier.h"
#include "gloo/broadcast.h"
#include "gloo/common/error.h"
#include "gloo/reduce.h"
#include "gloo/rendezvous/context.h"
#include "gloo/rendezvous/prefix_store.h"
#include "gloo/scatter.h"
#include "gloo/transport/tcp/device.h"
#include "gloo/transport/unbound_buffer.h"
#include "gloo/types.h"
#include "hccl/core/dtype.h"
#include "hccl/core/reduce.h"

namespace ascend::hccl {
namespace {

// Gloo's slot prefixes 1-8 are its collectives'; sends and receives use
// their own, with the pair's sequence number as the tag.
constexpr uint8_t kP2PSlotPrefix = 0x48;

std::chrono::milliseconds GlooTimeout(Millis t) {
  // Gloo adds the timeout to a clock: keep "forever" far but finite.
  return t >= kForever ? std::chrono::hours(24 * 365) : t;
}

// Gloo's templates take the element type only for its size.
template <typename F>
void BySize(size_t es, F&& f) {
  switch (es) {
    case 1:
      f(static_cast<uint8_t*>(nullptr));
      break;
    case 2:
      f(static_cast<uint16_t*>(nullptr));
      break;
    case 4:
      f(static_cast<uint32_t*>(nullptr));
      break;
    default:
      f(static_cast<uint64_t*>(nullptr));
      break;
  }
}

gloo::AllreduceOptions::Func ReduceFunc(HcclDataType type, HcclReduceOp op) {
  PairwiseFn fn = Pairwise(type, op);
  return [fn](void* dst, const void* a, const void* b, size_t n) {
    fn(dst, a, b, n);
  };
}

char* Ptr(uint64_t base, uint64_t elements, size_t es) {
  return reinterpret_cast<char*>(base) + elements * es;
}

// Whether displs place counts back to back from 0, in rank order.
bool Packed(const uint64_t* counts, const uint64_t* displs, uint32_t n) {
  uint64_t at = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (displs[i] != at) return false;
    at += counts[i];
  }
  return true;
}

// Gloo writes to sockets that a lost peer closed: the kernel then sends the
// writing thread SIGPIPE, whose default action ends the process. While it
// works in Gloo a thread keeps SIGPIPE blocked (Gloo sees EPIPE and fails
// the operation), and takes any SIGPIPE left pending before unblocking it.
// Gloo's own loop thread, started with the device, inherits the mask.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    if (sigismember(&old_, SIGPIPE) == 1) return;  // blocked before: as was
    sigset_t pending;
    const timespec zero{0, 0};
    while (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      if (sigtimedwait(&pipe_, nullptr, &zero) < 0) break;
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
};

Outcome FromException(const std::exception& e, bool io) {
  const std::string what = e.what();
  if (what.find("imed out") != std::string::npos) {
    return Outcome::Timeout("peers did not answer within HCCL_EXEC_TIMEOUT: " +
                            what);
  }
  if (io) return Outcome::Remote("a peer was lost: " + what);
  return Outcome::Internal("Gloo refused the operation: " + what);
}

}  // namespace

std::unique_ptr<GlooTransport> GlooTransport::Connect(
    gloo::rendezvous::Store& store, const std::string& prefix, uint32_t rank,
    uint32_t size, std::shared_ptr<gloo::transport::Device> device,
    const NetAddress& address, Millis timeout, std::string* why) {
  SigpipeBlocked no_sigpipe;
  try {
    if (device == nullptr) {
      gloo::transport::tcp::attr attr;
      attr.hostname = address.ip;
      attr.ai_family = address.family;
      device = gloo::transport::tcp::CreateDevice(attr);
    }
    auto context = std::make_shared<gloo::rendezvous::Context>(
        static_cast<int>(rank), static_cast<int>(size));
    context->setTimeout(GlooTimeout(timeout));
    gloo::rendezvous::PrefixStore scoped(prefix, store);
    context->connectFullMesh(scoped, device);
    return std::unique_ptr<GlooTransport>(
        new GlooTransport(std::move(context), std::move(device), rank, size));
  } catch (const std::exception& e) {
    *why = e.what();
    return nullptr;
  }
}

GlooTransport::GlooTransport(std::shared_ptr<gloo::Context> context,
                             std::shared_ptr<gloo::transport::Device> device,
                             uint32_t rank, uint32_t size)
    : context_(std::move(context)),
      device_(std::move(device)),
      rank_(rank),
      size_(size),
      sent_(size, 0),
      received_(size, 0) {}

void GlooTransport::Abort(const Outcome& why) {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_ = why;
}

void GlooTransport::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_ = Outcome::Ok();
}

Counters GlooTransport::Save() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {collectives_, sent_, received_};
}

void GlooTransport::Load(const Counters& c) {
  std::lock_guard<std::mutex> lock(mu_);
  collectives_ = c.collectives;
  if (c.sent.size() == size_) sent_ = c.sent;
  if (c.received.size() == size_) received_ = c.received;
}

Outcome GlooTransport::Run(const OpView& op, Millis timeout) {
  uint32_t tag = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!aborted_.ok()) return aborted_;
    if (IsCollective(op.kind())) tag = static_cast<uint32_t>(collectives_++);
  }
  if (lost_) {
    return Outcome::Remote("the communicator's connections were lost earlier");
  }
  SigpipeBlocked no_sigpipe;
  try {
    if (IsCollective(op.kind())) return Collective(op, tag, timeout);
    return PointToPoint(op, timeout);
  } catch (const gloo::IoException& e) {
    lost_ = true;
    return FromException(e, true);
  } catch (const std::bad_alloc&) {
    return Outcome::Internal("out of host memory");
  } catch (const std::exception& e) {
    lost_ = true;
    return FromException(e, false);
  }
}

Outcome GlooTransport::Collective(const OpView& op, uint32_t tag,
                                  Millis timeout) {
  const OpHeader& h = *op.h;
  const HcclDataType type = op.dtype();
  const size_t es = ElementSize(type);
  const auto t = GlooTimeout(timeout);
  const uint32_t n = size_;
  switch (op.kind()) {
    case OpKind::kBarrier: {
      gloo::BarrierOptions o(context_);
      o.setTag(tag);
      o.setTimeout(t);
      gloo::barrier(o);
      return Outcome::Ok();
    }
    case OpKind::kAllReduce: {
      gloo::AllreduceOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        if (h.send_buf != h.recv_buf) {
          o.setInput(reinterpret_cast<T*>(h.send_buf), h.count);
        }
        o.setOutput(reinterpret_cast<T*>(h.recv_buf), h.count);
      });
      o.setReduceFunction(ReduceFunc(type, op.reduce()));
      o.setTag(tag);
      o.setTimeout(t);
      gloo::allreduce(o);
      return Outcome::Ok();
    }
    case OpKind::kReduce: {
      // Gloo uses every rank's output as scratch: only the root's is HCCL's.
      std::vector<char> scratch;
      char* out = op.recv() != nullptr && rank_ == h.root
                      ? static_cast<char*>(op.recv())
                      : (scratch.resize(h.count * es), scratch.data());
      gloo::ReduceOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        if (h.send_buf != reinterpret_cast<uint64_t>(out)) {
          o.setInput(reinterpret_cast<T*>(h.send_buf), h.count);
        }
        o.setOutput(reinterpret_cast<T*>(out), h.count);
      });
      o.setRoot(static_cast<int>(h.root));
      o.setReduceFunction(ReduceFunc(type, op.reduce()));
      o.setTag(tag);
      o.setTimeout(t);
      gloo::reduce(o);
      return Outcome::Ok();
    }
    case OpKind::kReduceScatter:
    case OpKind::kReduceScatterV: {
      // Pack every rank's part (V: at its offset), allreduce, keep ours.
      const bool v = op.kind() == OpKind::kReduceScatterV;
      std::vector<uint64_t> counts(n, h.recv_count);
      std::vector<uint64_t> displs(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (v) counts[i] = op.words[i];
        displs[i] = v ? op.words[n + i] : uint64_t{i} * h.recv_count;
      }
      const uint64_t total =
          std::accumulate(counts.begin(), counts.end(), uint64_t{0});
      std::vector<char> packed(total * es);
      uint64_t at = 0;
      uint64_t mine = 0;
      for (uint32_t i = 0; i < n; ++i) {
        if (i == rank_) mine = at;
        std::memcpy(packed.data() + at * es, Ptr(h.send_buf, displs[i], es),
                    counts[i] * es);
        at += counts[i];
      }
      gloo::AllreduceOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setOutput(reinterpret_cast<T*>(packed.data()), total);
      });
      o.setReduceFunction(ReduceFunc(type, op.reduce()));
      o.setTag(tag);
      o.setTimeout(t);
      if (total != 0) gloo::allreduce(o);
      std::memcpy(op.recv(), packed.data() + mine * es, counts[rank_] * es);
      return Outcome::Ok();
    }
    case OpKind::kBroadcast: {
      gloo::BroadcastOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setOutput(reinterpret_cast<T*>(h.send_buf), h.count);
      });
      o.setRoot(static_cast<int>(h.root));
      o.setTag(tag);
      o.setTimeout(t);
      gloo::broadcast(o);
      return Outcome::Ok();
    }
    case OpKind::kAllGather: {
      gloo::AllgatherOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setInput(reinterpret_cast<T*>(h.send_buf), h.count);
        o.setOutput(reinterpret_cast<T*>(h.recv_buf), h.count * n);
      });
      o.setTag(tag);
      o.setTimeout(t);
      gloo::allgather(o);
      return Outcome::Ok();
    }
    case OpKind::kAllGatherV: {
      const uint64_t* counts = op.words;
      const uint64_t* displs = op.words + n;
      const bool packed = Packed(counts, displs, n);
      const uint64_t total = std::accumulate(counts, counts + n, uint64_t{0});
      std::vector<char> tmp(packed ? 0 : total * es);
      char* out = packed ? static_cast<char*>(op.recv()) : tmp.data();
      gloo::AllgathervOptions o(context_);
      std::vector<size_t> elements(counts, counts + n);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setInput(reinterpret_cast<T*>(h.send_buf), h.count);
        o.setOutput(reinterpret_cast<T*>(out), elements);
      });
      o.setTag(tag);
      o.setTimeout(t);
      gloo::allgatherv(o);
      if (!packed) {
        uint64_t at = 0;
        for (uint32_t i = 0; i < n; ++i) {
          std::memcpy(Ptr(h.recv_buf, displs[i], es), tmp.data() + at * es,
                      counts[i] * es);
          at += counts[i];
        }
      }
      return Outcome::Ok();
    }
    case OpKind::kScatter: {
      gloo::ScatterOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        if (rank_ == h.root) {
          std::vector<T*> parts;
          for (uint32_t i = 0; i < n; ++i) {
            parts.push_back(reinterpret_cast<T*>(
                Ptr(h.send_buf, uint64_t{i} * h.recv_count, es)));
          }
          o.setInputs(parts, h.recv_count);
        }
        o.setOutput(reinterpret_cast<T*>(h.recv_buf), h.recv_count);
      });
      o.setRoot(static_cast<int>(h.root));
      o.setTag(tag);
      o.setTimeout(t);
      gloo::scatter(o);
      return Outcome::Ok();
    }
    case OpKind::kAlltoAll: {
      gloo::AlltoallOptions o(context_);
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setInput(reinterpret_cast<T*>(h.send_buf), h.count * n);
        o.setOutput(reinterpret_cast<T*>(h.recv_buf), h.count * n);
      });
      o.setTag(tag);
      o.setTimeout(t);
      gloo::alltoall(o);
      return Outcome::Ok();
    }
    case OpKind::kAlltoAllV:
    case OpKind::kAlltoAllVC: {
      std::vector<uint64_t> scount(n), sdispl(n), rcount(n), rdispl(n);
      if (op.kind() == OpKind::kAlltoAllV) {
        for (uint32_t i = 0; i < n; ++i) {
          scount[i] = op.words[i];
          sdispl[i] = op.words[n + i];
          rcount[i] = op.words[2 * n + i];
          rdispl[i] = op.words[3 * n + i];
        }
      } else {
        // Row = sender: this rank sends row rank_, receives column rank_.
        uint64_t s = 0;
        uint64_t r = 0;
        for (uint32_t i = 0; i < n; ++i) {
          scount[i] = op.words[size_t{rank_} * n + i];
          rcount[i] = op.words[size_t{i} * n + rank_];
          sdispl[i] = s;
          rdispl[i] = r;
          s += scount[i];
          r += rcount[i];
        }
      }
      const uint64_t stotal =
          std::accumulate(scount.begin(), scount.end(), uint64_t{0});
      const uint64_t rtotal =
          std::accumulate(rcount.begin(), rcount.end(), uint64_t{0});
      const bool spacked = Packed(scount.data(), sdispl.data(), n);
      const bool rpacked = Packed(rcount.data(), rdispl.data(), n);
      std::vector<char> sbuf(spacked ? 0 : stotal * es);
      std::vector<char> rbuf(rpacked ? 0 : rtotal * es);
      if (!spacked) {
        uint64_t at = 0;
        for (uint32_t i = 0; i < n; ++i) {
          std::memcpy(sbuf.data() + at * es, Ptr(h.send_buf, sdispl[i], es),
                      scount[i] * es);
          at += scount[i];
        }
      }
      // Gloo wants a buffer even where nothing moves.
      char dummy[8];
      char* in = spacked ? static_cast<char*>(op.send()) : sbuf.data();
      char* out = rpacked ? static_cast<char*>(op.recv()) : rbuf.data();
      if (in == nullptr || stotal == 0) in = dummy;
      if (out == nullptr || rtotal == 0) out = dummy;
      gloo::AlltoallvOptions o(context_);
      std::vector<int64_t> se(scount.begin(), scount.end());
      std::vector<int64_t> re(rcount.begin(), rcount.end());
      BySize(es, [&](auto* tp) {
        using T = std::remove_pointer_t<decltype(tp)>;
        o.setInput(reinterpret_cast<T*>(in), se);
        o.setOutput(reinterpret_cast<T*>(out), re);
      });
      o.setTag(tag);
      o.setTimeout(t);
      gloo::alltoallv(o);
      if (!rpacked) {
        uint64_t at = 0;
        for (uint32_t i = 0; i < n; ++i) {
          std::memcpy(Ptr(h.recv_buf, rdispl[i], es), rbuf.data() + at * es,
                      rcount[i] * es);
          at += rcount[i];
        }
      }
      return Outcome::Ok();
    }
    default:
      return Outcome::Internal("unknown operation");
  }
}

Outcome GlooTransport::PointToPoint(const OpView& op, Millis timeout) {
  struct Transfer {
    bool send;
    uint32_t peer;
    void* buf;
    uint64_t bytes;
    uint64_t seq;
    std::unique_ptr<gloo::transport::UnboundBuffer> ub;
  };
  std::vector<Transfer> transfers;
  const OpHeader& h = *op.h;
  if (op.kind() == OpKind::kSend || op.kind() == OpKind::kRecv) {
    const bool send = op.kind() == OpKind::kSend;
    transfers.push_back({send, h.root, send ? op.send() : op.recv(),
                         h.count * ElementSize(op.dtype()), 0, nullptr});
  } else {
    for (uint32_t i = 0; i < h.items; ++i) {
      const OpItem& it = op.items[i];
      transfers.push_back(
          {it.type == HCCL_SEND, it.peer, reinterpret_cast<void*>(it.buf),
           it.count * ElementSize(static_cast<HcclDataType>(it.dtype)), 0,
           nullptr});
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (Transfer& t : transfers) {
      t.seq = t.send ? sent_[t.peer]++ : received_[t.peer]++;
    }
  }
  const auto deadline = Clock::now() + GlooTimeout(timeout);
  char dummy[8];
  // Post every transfer, then wait for each: none waits for another.
  for (Transfer& t : transfers) {
    void* buf = t.bytes == 0 || t.buf == nullptr ? dummy : t.buf;
    t.ub = context_->createUnboundBuffer(buf, t.bytes);
    const uint64_t slot =
        gloo::Slot::build(kP2PSlotPrefix, static_cast<uint32_t>(t.seq));
    if (t.send) {
      t.ub->send(static_cast<int>(t.peer), slot);
    } else {
      t.ub->recv(static_cast<int>(t.peer), slot);
    }
  }
  for (Transfer& t : transfers) {
    const auto left =
        std::max(std::chrono::milliseconds(1),
                 std::chrono::duration_cast<std::chrono::milliseconds>(
                     deadline - Clock::now()));
    if (t.send) {
      t.ub->waitSend(left);
    } else {
      t.ub->waitRecv(left);
    }
  }
  return Outcome::Ok();
}

}  // namespace ascend::hccl
