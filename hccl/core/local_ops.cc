// The collectives of the in-process transport (local_world.h): each rank's
// share of an operation, given every rank's arguments. Shares split the
// work so that the ranks' threads run in parallel and every byte is read
// once and written once: AllReduce's rank r reduces slice r of every input
// and writes it to every output.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "hccl/core/dtype.h"
#include "hccl/core/local_world.h"
#include "hccl/core/reduce.h"

namespace ascend::hccl {
namespace {

using Ops = std::vector<const OpView*>;

// Operations writing at most this much (over all ranks) are computed whole
// by one rank: below it, waking the ranks costs more than the work.
constexpr uint64_t kWholeBytes = 256 * 1024;
// Operations writing at least this much are written past the cache.
constexpr uint64_t kStreamBytes = 64u << 20;

char* At(uint64_t base, uint64_t elements, size_t es) {
  return reinterpret_cast<char*>(base) + elements * es;
}

// Slice r of [0, count) in n slices, on 64-byte boundaries.
void Slice(uint64_t count, size_t es, uint32_t n, uint32_t r, uint64_t* begin,
           uint64_t* end) {
  const uint64_t align = std::max<uint64_t>(1, 64 / es);
  uint64_t per = (count + n - 1) / n;
  per = (per + align - 1) / align * align;
  *begin = std::min<uint64_t>(count, per * r);
  *end = std::min<uint64_t>(count, *begin + per);
}

// out[k] (for each k) = reduction of srcs over [begin, end), tile by tile.
void ReduceRange(HcclDataType type, HcclReduceOp op,
                 const std::vector<const char*>& srcs,
                 const std::vector<char*>& outs, uint64_t begin, uint64_t end,
                 bool stream) {
  const size_t es = ElementSize(type);
  const uint64_t tile = kTileBytes / es;
  alignas(64) char scratch[kTileBytes];
  std::vector<const void*> at(srcs.size());
  for (uint64_t i = begin; i < end; i += tile) {
    const uint64_t n = std::min(tile, end - i);
    for (size_t k = 0; k < srcs.size(); ++k) at[k] = srcs[k] + i * es;
    ReduceTile(type, op, scratch, at.data(), static_cast<int>(at.size()), n);
    for (char* out : outs) CopyOut(out + i * es, scratch, n * es, stream);
  }
}

// Bytes the operation writes over all ranks.
uint64_t TotalBytes(const Ops& ops) {
  const OpView& op = *ops[0];
  const OpHeader& h = *op.h;
  const uint64_t n = ops.size();
  const uint64_t es = ElementSize(op.dtype());
  uint64_t sum = 0;
  switch (op.kind()) {
    case OpKind::kAllReduce:
    case OpKind::kBroadcast:
    case OpKind::kAllGather:
    case OpKind::kAlltoAll:
      return h.count * es * n *
             (op.kind() == OpKind::kAllGather || op.kind() == OpKind::kAlltoAll
                  ? n
                  : 1);
    case OpKind::kReduce:
      return h.count * es;
    case OpKind::kReduceScatter:
    case OpKind::kScatter:
      return h.recv_count * es * n;
    case OpKind::kReduceScatterV:
      for (uint64_t r = 0; r < n; ++r) sum += op.words[r];
      return sum * es;
    case OpKind::kAllGatherV:
      for (uint64_t r = 0; r < n; ++r) sum += op.words[r];
      return sum * es * n;
    case OpKind::kAlltoAllV:
      for (const OpView* v : ops) {
        for (uint64_t r = 0; r < n; ++r) sum += v->words[r];
      }
      return sum * es;
    case OpKind::kAlltoAllVC:
      for (uint64_t i = 0; i < n * n; ++i) sum += op.words[i];
      return sum * es;
    default:
      return 0;
  }
}

bool SameArrays(const Ops& ops) {
  const OpView& a = *ops[0];
  for (const OpView* b : ops) {
    if (b->h->words != a.h->words ||
        std::memcmp(b->words, a.words, a.h->words * sizeof(uint64_t)) != 0) {
      return false;
    }
  }
  return true;
}

void Copy(char* dst, const char* src, uint64_t bytes, bool stream) {
  if (bytes == 0 || dst == src) return;
  CopyOut(dst, src, bytes, stream);
}

}  // namespace

std::string Disagreement(const Ops& ops) {
  const OpView& a = *ops[0];
  const uint32_t n = static_cast<uint32_t>(ops.size());
  for (uint32_t r = 0; r < n; ++r) {
    const OpHeader& h = *ops[r]->h;
    if (h.kind != a.h->kind) {
      return "rank 0 called " + std::string(KindName(a.kind())) + ", rank " +
             std::to_string(r) + " " + KindName(ops[r]->kind());
    }
    if (h.dtype != a.h->dtype) return "data types differ";
    if (h.count != a.h->count && a.kind() != OpKind::kAllGatherV &&
        a.kind() != OpKind::kReduceScatterV) {
      return "counts differ (rank 0: " + std::to_string(a.h->count) +
             ", rank " + std::to_string(r) + ": " + std::to_string(h.count) +
             ")";
    }
    if (h.reduce != a.h->reduce) return "reduce operations differ";
    if (h.root != a.h->root) return "roots differ";
  }
  switch (a.kind()) {
    case OpKind::kAllGatherV:
    case OpKind::kReduceScatterV:
    case OpKind::kAlltoAllVC:
      if (!SameArrays(ops)) return "count or offset arrays differ";
      break;
    case OpKind::kAlltoAllV:
      // Rank q's sendCounts[r] must be rank r's recvCounts[q].
      for (uint32_t q = 0; q < n; ++q) {
        for (uint32_t r = 0; r < n; ++r) {
          const uint64_t sent = ops[q]->words[r];
          const uint64_t expected = ops[r]->words[2 * n + q];
          if (sent != expected) {
            return "rank " + std::to_string(q) + " sends " +
                   std::to_string(sent) + " elements to rank " +
                   std::to_string(r) + ", which expects " +
                   std::to_string(expected);
          }
        }
      }
      break;
    default:
      break;
  }
  if (a.kind() == OpKind::kAllGatherV) {
    for (uint32_t r = 0; r < n; ++r) {
      if (ops[r]->h->count != a.words[r]) {
        return "rank " + std::to_string(r) + " sends " +
               std::to_string(ops[r]->h->count) +
               " elements, recvCounts says " + std::to_string(a.words[r]);
      }
    }
  }
  return "";
}

bool ComputeWhole(const Ops& ops) {
  return ops[0]->kind() == OpKind::kBarrier || TotalBytes(ops) <= kWholeBytes;
}

void ComputeShare(const Ops& ops, uint32_t r) {
  const OpView& me = *ops[r];
  const OpHeader& h = *me.h;
  const uint32_t n = static_cast<uint32_t>(ops.size());
  const HcclDataType type = me.dtype();
  const size_t es = ElementSize(type);
  const bool stream = TotalBytes(ops) >= kStreamBytes;
  uint64_t begin = 0;
  uint64_t end = 0;
  std::vector<const char*> srcs(n);
  std::vector<char*> outs;
  switch (me.kind()) {
    case OpKind::kAllReduce:
      Slice(h.count, es, n, r, &begin, &end);
      for (uint32_t q = 0; q < n; ++q) {
        srcs[q] = At(ops[q]->h->send_buf, 0, es);
        outs.push_back(At(ops[q]->h->recv_buf, 0, es));
      }
      ReduceRange(type, me.reduce(), srcs, outs, begin, end, stream);
      break;
    case OpKind::kReduce:
      Slice(h.count, es, n, r, &begin, &end);
      for (uint32_t q = 0; q < n; ++q) srcs[q] = At(ops[q]->h->send_buf, 0, es);
      outs.push_back(At(ops[h.root]->h->recv_buf, 0, es));
      ReduceRange(type, me.reduce(), srcs, outs, begin, end, stream);
      break;
    case OpKind::kReduceScatter:
      for (uint32_t q = 0; q < n; ++q) {
        srcs[q] = At(ops[q]->h->send_buf, uint64_t{r} * h.recv_count, es);
      }
      outs.push_back(At(h.recv_buf, 0, es));
      ReduceRange(type, me.reduce(), srcs, outs, 0, h.recv_count, stream);
      break;
    case OpKind::kReduceScatterV:
      // words: sendCounts[n], sendDispls[n] (the same on every rank).
      for (uint32_t q = 0; q < n; ++q) {
        srcs[q] = At(ops[q]->h->send_buf, me.words[n + r], es);
      }
      outs.push_back(At(h.recv_buf, 0, es));
      ReduceRange(type, me.reduce(), srcs, outs, 0, me.words[r], stream);
      break;
    case OpKind::kBroadcast: {
      Slice(h.count, es, n, r, &begin, &end);
      const char* src = At(ops[h.root]->h->send_buf, begin, es);
      for (uint32_t q = 0; q < n; ++q) {
        if (q == h.root) continue;
        Copy(At(ops[q]->h->send_buf, begin, es), src, (end - begin) * es,
             stream);
      }
      break;
    }
    case OpKind::kAllGather:
      for (uint32_t q = 0; q < n; ++q) {
        Copy(At(ops[q]->h->recv_buf, uint64_t{r} * h.count, es),
             At(h.send_buf, 0, es), h.count * es, stream);
      }
      break;
    case OpKind::kAllGatherV:
      // words: recvCounts[n], recvDispls[n].
      for (uint32_t q = 0; q < n; ++q) {
        Copy(At(ops[q]->h->recv_buf, me.words[n + r], es),
             At(h.send_buf, 0, es), me.words[r] * es, stream);
      }
      break;
    case OpKind::kScatter:
      Copy(At(h.recv_buf, 0, es),
           At(ops[h.root]->h->send_buf, uint64_t{r} * h.recv_count, es),
           h.recv_count * es, stream);
      break;
    case OpKind::kAlltoAll:
      for (uint32_t q = 0; q < n; ++q) {
        Copy(At(h.recv_buf, uint64_t{q} * h.count, es),
             At(ops[q]->h->send_buf, uint64_t{r} * h.count, es), h.count * es,
             stream);
      }
      break;
    case OpKind::kAlltoAllV:
      // words: sendCounts[n], sdispls[n], recvCounts[n], rdispls[n].
      for (uint32_t q = 0; q < n; ++q) {
        const OpView& from = *ops[q];
        Copy(At(h.recv_buf, me.words[3 * n + q], es),
             At(from.h->send_buf, from.words[n + r], es),
             me.words[2 * n + q] * es, stream);
      }
      break;
    case OpKind::kAlltoAllVC: {
      // words: the n x n matrix, row = sender.
      const uint64_t* m = me.words;
      uint64_t recv_at = 0;
      for (uint32_t q = 0; q < n; ++q) {
        uint64_t send_at = 0;
        for (uint32_t j = 0; j < r; ++j) send_at += m[size_t{q} * n + j];
        const uint64_t cnt = m[size_t{q} * n + r];
        Copy(At(h.recv_buf, recv_at, es), At(ops[q]->h->send_buf, send_at, es),
             cnt * es, stream);
        recv_at += cnt;
      }
      break;
    }
    default:
      break;
  }
  if (stream) FenceCopies();
}

}  // namespace ascend::hccl
