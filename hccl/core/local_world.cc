#include "hccl/core/local_world.h"

#include <cstring>
#include <string>

#include "hccl/core/dtype.h"
#include "hccl/core/netif.h"

namespace ascend::hccl {
namespace {

enum PostState { kPosted = 0, kTaken = 1, kConsumed = 2, kFailed = 3 };

// Waits are sliced so that aborts and deadlines are seen promptly without
// relying on every path notifying.
constexpr auto kSlice = std::chrono::milliseconds(20);

Clock::time_point DeadlineAfter(Millis timeout) {
  if (timeout >= kForever) return Clock::time_point::max();
  return Clock::now() + timeout;
}

std::string Seconds(Millis t) {
  return std::to_string(static_cast<double>(t.count()) / 1000.0) + " s";
}

struct Transfer {
  bool send;
  uint32_t peer;
  void* buf;
  uint64_t bytes;
};

std::vector<Transfer> TransfersOf(const OpView& op) {
  std::vector<Transfer> t;
  const OpHeader& h = *op.h;
  const size_t es = ElementSize(op.dtype());
  if (op.kind() == OpKind::kSend) {
    t.push_back({true, h.root, op.send(), h.count * es});
  } else if (op.kind() == OpKind::kRecv) {
    t.push_back({false, h.root, op.recv(), h.count * es});
  } else {
    for (uint32_t i = 0; i < h.items; ++i) {
      const OpItem& it = op.items[i];
      t.push_back(
          {it.type == HCCL_SEND, it.peer, reinterpret_cast<void*>(it.buf),
           it.count * ElementSize(static_cast<HcclDataType>(it.dtype))});
    }
  }
  return t;
}

}  // namespace

LocalWorld::LocalWorld(uint32_t size)
    : size_(size),
      collectives_(size, 0),
      aborted_(size),
      mail_(size_t{size} * size),
      sent_(size_t{size} * size, 0),
      received_(size_t{size} * size, 0) {}

Outcome LocalWorld::Run(uint32_t rank, const OpView& op, Millis timeout) {
  if (IsCollective(op.kind())) return Collective(rank, op, timeout);
  return PointToPoint(rank, op, timeout);
}

Outcome LocalWorld::Blocked(const Instance& in) const {
  for (uint32_t q = 0; q < size_; ++q) {
    if (in.ops[q] == nullptr && !aborted_[q].ok()) {
      return Outcome::Remote("rank " + std::to_string(q) +
                             " left the communicator: " + aborted_[q].why);
    }
  }
  return Outcome::Ok();
}

Outcome LocalWorld::Collective(uint32_t rank, const OpView& op,
                               Millis timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!aborted_[rank].ok()) return aborted_[rank];
  const uint64_t seq = collectives_[rank]++;
  Instance& in = instances_[seq];
  if (in.ops.empty()) in.ops.assign(size_, nullptr);
  auto leave = [&](Outcome result) {
    in.ops[rank] = nullptr;
    if (++in.left == size_) instances_.erase(seq);
    return result;
  };
  if (in.failed) return leave(in.failure);
  in.ops[rank] = &op;
  if (++in.arrived == size_) {
    const std::string bad = Disagreement(in.ops);
    if (!bad.empty()) {
      in.failed = true;
      in.failure = Outcome::Mismatch(std::string(KindName(op.kind())) +
                                     ": the ranks disagree: " + bad);
      cv_.notify_all();
      return leave(in.failure);
    }
    in.ready = true;
    cv_.notify_all();
    if (ComputeWhole(in.ops)) {
      // Every other rank waits for this one: compute without the lock.
      lock.unlock();
      for (uint32_t r = 0; r < size_; ++r) ComputeShare(in.ops, r);
      lock.lock();
      in.done = size_;
      cv_.notify_all();
      return leave(Outcome::Ok());
    }
  }
  const Clock::time_point deadline = DeadlineAfter(timeout);
  while (!in.ready && !in.failed) {
    if (!aborted_[rank].ok()) {
      in.failed = true;
      in.failure =
          Outcome::Remote("rank " + std::to_string(rank) +
                          " left the communicator: " + aborted_[rank].why);
      cv_.notify_all();
      return leave(aborted_[rank]);
    }
    Outcome blocked = Blocked(in);
    if (!blocked.ok()) {
      in.failed = true;
      in.failure = blocked;
      cv_.notify_all();
      break;
    }
    if (Clock::now() >= deadline) {
      std::string missing;
      for (uint32_t q = 0; q < size_; ++q) {
        if (in.ops[q] == nullptr) {
          missing += (missing.empty() ? "" : ", ") + std::to_string(q);
        }
      }
      in.failed = true;
      in.failure = Outcome::Timeout(
          std::string(KindName(op.kind())) + ": rank(s) " + missing +
          " did not arrive within HCCL_EXEC_TIMEOUT (" + Seconds(timeout) +
          ")");
      cv_.notify_all();
      break;
    }
    cv_.wait_until(lock, std::min(deadline, Clock::now() + kSlice));
  }
  if (in.failed) return leave(in.failure);
  if (in.done < size_ && !ComputeWhole(in.ops)) {
    lock.unlock();
    ComputeShare(in.ops, rank);
    lock.lock();
    if (++in.done == size_) cv_.notify_all();
  }
  // Peers still write this rank's output (or read its input): wait for them.
  // Shares are plain memory work, so no deadline is needed here.
  while (in.done < size_) cv_.wait(lock);
  return leave(Outcome::Ok());
}

Outcome LocalWorld::PointToPoint(uint32_t rank, const OpView& op,
                                 Millis timeout) {
  const std::vector<Transfer> transfers = TransfersOf(op);
  const Clock::time_point deadline = DeadlineAfter(timeout);
  std::unique_lock<std::mutex> lock(mu_);
  if (!aborted_[rank].ok()) return aborted_[rank];
  // Post every send first, so that no receive of the batch waits for a
  // send of the same batch.
  std::vector<std::pair<size_t, std::list<Posted>::iterator>> mine;
  for (const Transfer& t : transfers) {
    if (!t.send) continue;
    const size_t key = size_t{rank} * size_ + t.peer;
    auto& box = mail_[key];
    box.push_back({sent_[key]++, t.buf, t.bytes, kPosted, Outcome::Ok()});
    mine.emplace_back(key, std::prev(box.end()));
  }
  if (!mine.empty()) cv_.notify_all();
  Outcome result = Outcome::Ok();
  for (const Transfer& t : transfers) {
    if (t.send || !result.ok()) continue;
    const size_t key = size_t{t.peer} * size_ + rank;
    const uint64_t seq = received_[key]++;
    for (;;) {
      auto& box = mail_[key];
      auto it = box.begin();
      while (it != box.end() && it->seq != seq) ++it;
      if (it != box.end() && it->state == kPosted) {
        if (it->bytes != t.bytes) {
          it->state = kFailed;
          it->failure =
              Outcome::Mismatch("HcclSend of " + std::to_string(it->bytes) +
                                " bytes met a "
                                "receive of " +
                                std::to_string(t.bytes) + " bytes");
          result = it->failure;
          cv_.notify_all();
          break;
        }
        it->state = kTaken;
        lock.unlock();
        if (t.bytes != 0) std::memcpy(t.buf, it->buf, t.bytes);
        lock.lock();
        it->state = kConsumed;
        cv_.notify_all();
        break;
      }
      if (!aborted_[rank].ok()) {
        result = aborted_[rank];
        break;
      }
      if (!aborted_[t.peer].ok()) {
        result =
            Outcome::Remote("rank " + std::to_string(t.peer) +
                            " left the communicator: " + aborted_[t.peer].why);
        break;
      }
      if (Clock::now() >= deadline) {
        result =
            Outcome::Timeout("HcclRecv from rank " + std::to_string(t.peer) +
                             ": no matching send within HCCL_EXEC_TIMEOUT (" +
                             Seconds(timeout) + ")");
        break;
      }
      cv_.wait_until(lock, std::min(deadline, Clock::now() + kSlice));
    }
  }
  // Sends end when their receiver copied them.
  for (auto& [key, it] : mine) {
    for (;;) {
      if (it->state == kConsumed) break;
      if (it->state == kFailed) {
        if (result.ok()) result = it->failure;
        break;
      }
      if (it->state == kPosted) {
        Outcome stop = Outcome::Ok();
        if (!result.ok()) {
          stop = result;
        } else if (!aborted_[rank].ok()) {
          stop = aborted_[rank];
        } else if (Clock::now() >= deadline) {
          stop = Outcome::Timeout(
              "HcclSend: no matching receive within HCCL_EXEC_TIMEOUT (" +
              Seconds(timeout) + ")");
        }
        if (!stop.ok()) {
          // Withdrawn: a receive arriving later waits for a new send.
          it->state = kFailed;
          if (result.ok()) result = stop;
          break;
        }
      }
      cv_.wait_until(lock, std::min(deadline, Clock::now() + kSlice));
    }
  }
  // Forget this rank's finished sends (receivers never touch them again).
  for (auto& [key, it] : mine) mail_[key].erase(it);
  return result;
}

void LocalWorld::Abort(uint32_t rank, const Outcome& why) {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_[rank] = why;
  cv_.notify_all();
}

void LocalWorld::Reset(uint32_t rank) {
  std::lock_guard<std::mutex> lock(mu_);
  aborted_[rank] = Outcome::Ok();
}

Counters LocalWorld::Save(uint32_t rank) const {
  std::lock_guard<std::mutex> lock(mu_);
  Counters c;
  c.collectives = collectives_[rank];
  for (uint32_t q = 0; q < size_; ++q) {
    c.sent.push_back(sent_[size_t{rank} * size_ + q]);
    c.received.push_back(received_[size_t{q} * size_ + rank]);
  }
  return c;
}

void LocalWorld::Load(uint32_t rank, const Counters& c) {
  std::lock_guard<std::mutex> lock(mu_);
  collectives_[rank] = c.collectives;
  for (uint32_t q = 0; q < size_ && q < c.sent.size(); ++q) {
    sent_[size_t{rank} * size_ + q] = c.sent[q];
    received_[size_t{q} * size_ + rank] = c.received[q];
  }
}

}  // namespace ascend::hccl
