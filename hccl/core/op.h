// One queued HCCL operation as the argument bytes of its kernel task
// (DESIGN.md §5.27): everything the task needs when it runs, copied at the
// call, so a captured operation replays after the caller's arrays are gone.
//
//   OpBuilder b(OpKind::kAllReduce, comm_id);
//   b.header().count = count; ...
//   std::vector<uint8_t> bytes = b.Finish();
//   OpView v;  if (OpView::Parse(bytes.data(), bytes.size(), &v)) ...
#ifndef ASCENDCL_HCCL_CORE_OP_H_
#define ASCENDCL_HCCL_CORE_OP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

enum class OpKind : uint32_t {
  kAllReduce = 0,
  kBroadcast,
  kReduceScatter,
  kReduceScatterV,
  kScatter,
  kAllGather,
  kAllGatherV,
  kSend,
  kRecv,
  kAlltoAllVC,
  kAlltoAllV,
  kAlltoAll,
  kReduce,
  kBatchSendRecv,
  kBarrier,
  kCount,  // not a kind
};

// The HCCL function name of a kind ("HcclAllReduce"): the kernel's name in
// the profiling timeline.
const char* KindName(OpKind kind);
// Whether every rank of the communicator takes part (not Send, Recv, batch).
bool IsCollective(OpKind kind);

struct OpHeader {
  uint32_t magic;
  uint32_t kind;     // OpKind
  uint64_t comm_id;  // the communicator's id (Comm::id)
  uint32_t dtype;    // data type (send type)
  uint32_t recv_dtype;
  uint32_t reduce;  // HcclReduceOp
  uint32_t root;    // root rank, or the peer of Send/Recv
  uint64_t count;   // elements: per the kind (see ops_api.cc)
  uint64_t recv_count;
  uint64_t send_buf;
  uint64_t recv_buf;
  uint32_t words;  // uint64_t words of arrays that follow the header
  uint32_t items;  // batch items that follow the arrays
};

struct OpItem {
  uint32_t type;  // HCCL_SEND or HCCL_RECV
  uint32_t dtype;
  uint64_t buf;
  uint64_t count;
  uint32_t peer;
  uint32_t reserved;
};

constexpr uint32_t kOpMagic = 0x4c434348;  // "HCCL"

class OpBuilder {
 public:
  OpBuilder(OpKind kind, uint64_t comm_id);
  OpHeader& header() { return header_; }
  // Appends n words read from `words` (a caller's uint64_t array).
  void AddWords(const void* words, size_t n);
  void AddItem(const OpItem& item);
  std::vector<uint8_t> Finish() const;

 private:
  OpHeader header_{};
  std::vector<uint64_t> words_;
  std::vector<OpItem> items_;
};

// A parsed operation; points into the bytes it was parsed from.
struct OpView {
  const OpHeader* h = nullptr;
  const uint64_t* words = nullptr;
  const OpItem* items = nullptr;

  OpKind kind() const { return static_cast<OpKind>(h->kind); }
  HcclDataType dtype() const { return static_cast<HcclDataType>(h->dtype); }
  HcclReduceOp reduce() const { return static_cast<HcclReduceOp>(h->reduce); }
  void* send() const { return reinterpret_cast<void*>(h->send_buf); }
  void* recv() const { return reinterpret_cast<void*>(h->recv_buf); }

  // False for bytes that are not an operation.
  static bool Parse(const void* bytes, size_t size, OpView* out);
};

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_OP_H_
