// HCCL's operations (hccl/hccl.h): each checks its arguments in CANN's
// order and with CANN's codes (the parameter tables and 约束说明 of
// hicann/hccl docs/zh/api_ref/comm_op_interface), then queues one task on
// the stream (core/launch.h). A count of 0 queues nothing, before any
// other check, as CANN's operations return early.
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "hccl/core/comm.h"
#include "hccl/core/dtype.h"
#include "hccl/core/group.h"
#include "hccl/core/launch.h"
#include "hccl/core/log.h"
#include "hccl/core/op.h"
#include "hccl/hccl.h"

namespace ascend::hccl {
namespace {

#define HCCL_REQUIRE_PTR(p, name) \
  HCCL_REQUIRE((p) != nullptr, HCCL_E_PTR, std::string(name) + " is NULL")

// The communicator's state allows a new operation: HCCL_E_SUSPENDING, or
// its earlier asynchronous failure.
HcclResult Usable(const char* api, const Comm& c) {
  if (c.suspended) {
    return Refuse(api, HCCL_E_SUSPENDING, "the communicator is suspended");
  }
  const int earlier = c.async_error.load();
  if (earlier != HCCL_SUCCESS) {
    return Refuse(api, static_cast<HcclResult>(earlier),
                  "the communicator failed earlier (HcclGetCommAsyncError)");
  }
  return HCCL_SUCCESS;
}

HcclResult RootInRange(const char* api, const Comm& c, uint32_t root,
                       const char* name) {
  if (root >= c.size) {
    return Refuse(api, HCCL_E_PARA,
                  std::string(name) + " " + std::to_string(root) +
                      " is not a rank of a communicator of " +
                      std::to_string(c.size));
  }
  return HCCL_SUCCESS;
}

// Collectives queue at once, also inside a group (of collectives only).
HcclResult Queue(const char* api, const Comm& c, const OpBuilder& op,
                 aclrtStream stream) {
  HCCL_RETURN_IF_ERROR(Usable(api, c));
  if (GroupActive()) {
    HCCL_RETURN_IF_ERROR(GroupNote(api, GroupUse::kCollective));
  }
  return Submit(api, op.Finish(), stream);
}

// count elements per rank, over n ranks: HCCL_E_PARA past the maximum.
HcclResult CheckCountOf(const char* api, uint64_t count, uint32_t n,
                        HcclDataType type) {
  HCCL_RETURN_IF_ERROR(CheckCount(api, count, type));
  return CheckCount(api, count > kMaxCount / n ? kMaxCount + 1 : count * n,
                    type);
}

uint64_t Sum(const uint64_t* v, uint32_t n) {
  return std::accumulate(v, v + n, uint64_t{0});
}

// A send or receive: queued, or kept for the group's end.
HcclResult Transfer(const char* api, HcclSendRecvType type, void* buf,
                    uint64_t count, HcclDataType dt, uint32_t peer,
                    HcclComm comm, aclrtStream stream) {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(api, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckCount(api, count, dt));
  HCCL_RETURN_IF_ERROR(CheckType(api, dt, TypeUse::kMove));
  HCCL_RETURN_IF_ERROR(
      RootInRange(api, *c, peer, type == HCCL_SEND ? "destRank" : "srcRank"));
  if (peer == c->rank) {
    return Refuse(api, HCCL_E_NOT_SUPPORT,
                  std::string(type == HCCL_SEND ? "destRank" : "srcRank") +
                      " cannot be this rank itself");
  }
  HCCL_RETURN_IF_ERROR(Usable(api, *c));
  if (GroupActive()) {
    HCCL_RETURN_IF_ERROR(GroupNote(api, GroupUse::kPointToPoint));
    GroupDeferTransfer(comm, stream,
                       HcclSendRecvItem{type, buf, count, dt, peer});
    return HCCL_SUCCESS;
  }
  OpBuilder op(type == HCCL_SEND ? OpKind::kSend : OpKind::kRecv, c->id);
  op.header().dtype = dt;
  op.header().count = count;
  op.header().root = peer;
  (type == HCCL_SEND ? op.header().send_buf : op.header().recv_buf) =
      reinterpret_cast<uint64_t>(buf);
  return Submit(api, op.Finish(), stream);
}

}  // namespace
}  // namespace ascend::hccl

using namespace ascend::hccl;  // NOLINT: the C entry points below

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count,
                         HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                         aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckCount(__func__, count, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kReduce));
  HCCL_RETURN_IF_ERROR(CheckReduce(__func__, dataType, op));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, sendBuf, dataType, "sendBuf"));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, recvBuf, dataType, "recvBuf"));
  OpBuilder b(OpKind::kAllReduce, c->id);
  b.header().dtype = dataType;
  b.header().reduce = op;
  b.header().count = count;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType,
                         uint32_t root, HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(buf, "buf");
  HCCL_REQUIRE_PTR(stream, "stream");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(RootInRange(__func__, *c, root, "root"));
  HCCL_RETURN_IF_ERROR(CheckCount(__func__, count, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kMove));
  OpBuilder b(OpKind::kBroadcast, c->id);
  b.header().dtype = dataType;
  b.header().count = count;
  b.header().root = root;
  b.header().send_buf = b.header().recv_buf = reinterpret_cast<uint64_t>(buf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                             HcclDataType dataType, HcclReduceOp op,
                             HcclComm comm, aclrtStream stream) try {
  if (recvCount == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckCountOf(__func__, recvCount, c->size, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kReduce));
  HCCL_RETURN_IF_ERROR(CheckReduce(__func__, dataType, op));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, sendBuf, dataType, "sendBuf"));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, recvBuf, dataType, "recvBuf"));
  OpBuilder b(OpKind::kReduceScatter, c->id);
  b.header().dtype = dataType;
  b.header().reduce = op;
  b.header().count = b.header().recv_count = recvCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts,
                              const void* sendDispls, void* recvBuf,
                              uint64_t recvCount, HcclDataType dataType,
                              HcclReduceOp op, HcclComm comm,
                              aclrtStream stream) try {
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendCounts, "sendCounts");
  HCCL_REQUIRE_PTR(sendDispls, "sendDispls");
  HCCL_REQUIRE(recvCount == 0 || recvBuf != nullptr, HCCL_E_PTR,
               "recvBuf is NULL with recvCount > 0");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  const auto* counts = static_cast<const uint64_t*>(sendCounts);
  const auto* displs = static_cast<const uint64_t*>(sendDispls);
  const uint64_t total = Sum(counts, c->size);
  if (total == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE(sendBuf != recvBuf, HCCL_E_PARA,
               "sendBuf and recvBuf must differ");
  HCCL_REQUIRE(recvCount == counts[c->rank], HCCL_E_PARA,
               "recvCount " + std::to_string(recvCount) +
                   " differs from sendCounts[rank] " +
                   std::to_string(counts[c->rank]));
  for (uint32_t i = 0; i < c->size; ++i) {
    HCCL_RETURN_IF_ERROR(CheckCount(__func__, counts[i] + displs[i], dataType));
  }
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kReduceScatterV));
  HCCL_RETURN_IF_ERROR(CheckReduce(__func__, dataType, op));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, sendBuf, dataType, "sendBuf"));
  if (recvBuf != nullptr) {
    HCCL_RETURN_IF_ERROR(CheckAligned(__func__, recvBuf, dataType, "recvBuf"));
  }
  OpBuilder b(OpKind::kReduceScatterV, c->id);
  b.header().dtype = dataType;
  b.header().reduce = op;
  b.header().count = b.header().recv_count = recvCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  b.AddWords(counts, c->size);
  b.AddWords(displs, c->size);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                       HcclDataType dataType, uint32_t root, HcclComm comm,
                       aclrtStream stream) try {
  if (recvCount == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE_PTR(stream, "stream");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(RootInRange(__func__, *c, root, "root"));
  // 约束说明: only the root's sendBuf may not be NULL.
  HCCL_REQUIRE(c->rank != root || sendBuf != nullptr, HCCL_E_PTR,
               "sendBuf is NULL on the root");
  HCCL_RETURN_IF_ERROR(CheckCountOf(__func__, recvCount, c->size, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kMove));
  OpBuilder b(OpKind::kScatter, c->id);
  b.header().dtype = dataType;
  b.header().root = root;
  b.header().count = b.header().recv_count = recvCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount,
                         HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) try {
  if (sendCount == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE_PTR(stream, "stream");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckCountOf(__func__, sendCount, c->size, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kMove));
  OpBuilder b(OpKind::kAllGather, c->id);
  b.header().dtype = dataType;
  b.header().count = sendCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf,
                          const void* recvCounts, const void* recvDispls,
                          HcclDataType dataType, HcclComm comm,
                          aclrtStream stream) try {
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(recvCounts, "recvCounts");
  HCCL_REQUIRE_PTR(recvDispls, "recvDispls");
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE(sendCount == 0 || sendBuf != nullptr, HCCL_E_PTR,
               "sendBuf is NULL with sendCount > 0");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  const auto* counts = static_cast<const uint64_t*>(recvCounts);
  const auto* displs = static_cast<const uint64_t*>(recvDispls);
  if (Sum(counts, c->size) == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE(sendBuf != recvBuf, HCCL_E_PARA,
               "sendBuf and recvBuf must differ");
  HCCL_REQUIRE(sendCount == counts[c->rank], HCCL_E_PARA,
               "sendCount " + std::to_string(sendCount) +
                   " differs from recvCounts[rank] " +
                   std::to_string(counts[c->rank]));
  for (uint32_t i = 0; i < c->size; ++i) {
    HCCL_RETURN_IF_ERROR(CheckCount(__func__, counts[i] + displs[i], dataType));
  }
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kMove));
  OpBuilder b(OpKind::kAllGatherV, c->id);
  b.header().dtype = dataType;
  b.header().count = sendCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  b.AddWords(counts, c->size);
  b.AddWords(displs, c->size);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType,
                    uint32_t destRank, HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(stream, "stream");
  return Transfer(__func__, HCCL_SEND, sendBuf, count, dataType, destRank, comm,
                  stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType,
                    uint32_t srcRank, HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE_PTR(stream, "stream");
  return Transfer(__func__, HCCL_RECV, recvBuf, count, dataType, srcRank, comm,
                  stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix,
                          HcclDataType sendType, const void* recvBuf,
                          HcclDataType recvType, HcclComm comm,
                          aclrtStream stream) try {
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendCountMatrix, "sendCountMatrix");
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE(sendBuf == nullptr || sendBuf != recvBuf, HCCL_E_PARA,
               "sendBuf and recvBuf must differ");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, sendType, TypeUse::kMove));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, recvType, TypeUse::kMove));
  HCCL_REQUIRE(ElementSize(sendType) == ElementSize(recvType), HCCL_E_PARA,
               "sendType and recvType differ in size");
  const auto* m = static_cast<const uint64_t*>(sendCountMatrix);
  const uint32_t n = c->size;
  uint64_t sends = 0;
  uint64_t recvs = 0;
  for (uint32_t i = 0; i < n; ++i) {
    sends += m[size_t{c->rank} * n + i];
    recvs += m[size_t{i} * n + c->rank];
  }
  HCCL_RETURN_IF_ERROR(CheckCount(__func__, sends, sendType));
  HCCL_RETURN_IF_ERROR(CheckCount(__func__, recvs, recvType));
  HCCL_REQUIRE(sends == 0 || sendBuf != nullptr, HCCL_E_PTR,
               "sendBuf is NULL while this rank sends");
  HCCL_REQUIRE(recvs == 0 || recvBuf != nullptr, HCCL_E_PTR,
               "recvBuf is NULL while this rank receives");
  OpBuilder b(OpKind::kAlltoAllVC, c->id);
  b.header().dtype = sendType;
  b.header().recv_dtype = recvType;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  b.AddWords(m, size_t{n} * n);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts,
                         const void* sdispls, HcclDataType sendType,
                         const void* recvBuf, const void* recvCounts,
                         const void* rdispls, HcclDataType recvType,
                         HcclComm comm, aclrtStream stream) try {
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendCounts, "sendCounts");
  HCCL_REQUIRE_PTR(sdispls, "sdispls");
  HCCL_REQUIRE_PTR(recvCounts, "recvCounts");
  HCCL_REQUIRE_PTR(rdispls, "rdispls");
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE(sendBuf == nullptr || sendBuf != recvBuf, HCCL_E_PARA,
               "sendBuf and recvBuf must differ (no in-place AlltoAllV)");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, sendType, TypeUse::kMove));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, recvType, TypeUse::kMove));
  HCCL_REQUIRE(ElementSize(sendType) == ElementSize(recvType), HCCL_E_PARA,
               "sendType and recvType differ in size");
  const uint32_t n = c->size;
  const auto* sc = static_cast<const uint64_t*>(sendCounts);
  const auto* sd = static_cast<const uint64_t*>(sdispls);
  const auto* rc = static_cast<const uint64_t*>(recvCounts);
  const auto* rd = static_cast<const uint64_t*>(rdispls);
  for (uint32_t i = 0; i < n; ++i) {
    HCCL_RETURN_IF_ERROR(CheckCount(__func__, sc[i] + sd[i], sendType));
    HCCL_RETURN_IF_ERROR(CheckCount(__func__, rc[i] + rd[i], recvType));
  }
  HCCL_REQUIRE(Sum(sc, n) == 0 || sendBuf != nullptr, HCCL_E_PTR,
               "sendBuf is NULL while sendCounts are not all 0");
  HCCL_REQUIRE(Sum(rc, n) == 0 || recvBuf != nullptr, HCCL_E_PTR,
               "recvBuf is NULL while recvCounts are not all 0");
  OpBuilder b(OpKind::kAlltoAllV, c->id);
  b.header().dtype = sendType;
  b.header().recv_dtype = recvType;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  b.AddWords(sc, n);
  b.AddWords(sd, n);
  b.AddWords(rc, n);
  b.AddWords(rd, n);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount,
                        HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType,
                        HcclComm comm, aclrtStream stream) try {
  if (sendCount == 0 && recvCount == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE(sendCount == recvCount, HCCL_E_PARA,
               "sendCount and recvCount must be equal");
  HCCL_REQUIRE(sendType == recvType, HCCL_E_PARA,
               "sendType and recvType must be equal");
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE(sendBuf != recvBuf, HCCL_E_PARA,
               "sendBuf and recvBuf must differ");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(CheckCountOf(__func__, recvCount, c->size, recvType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, recvType, TypeUse::kMove));
  OpBuilder b(OpKind::kAlltoAll, c->id);
  b.header().dtype = b.header().recv_dtype = sendType;
  b.header().count = b.header().recv_count = sendCount;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count,
                      HcclDataType dataType, HcclReduceOp op, uint32_t root,
                      HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendBuf, "sendBuf");
  HCCL_REQUIRE_PTR(recvBuf, "recvBuf");
  HCCL_REQUIRE_PTR(stream, "stream");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_RETURN_IF_ERROR(RootInRange(__func__, *c, root, "root"));
  HCCL_RETURN_IF_ERROR(CheckCount(__func__, count, dataType));
  HCCL_RETURN_IF_ERROR(CheckType(__func__, dataType, TypeUse::kReduce));
  HCCL_RETURN_IF_ERROR(CheckReduce(__func__, dataType, op));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, sendBuf, dataType, "sendBuf"));
  HCCL_RETURN_IF_ERROR(CheckAligned(__func__, recvBuf, dataType, "recvBuf"));
  OpBuilder b(OpKind::kReduce, c->id);
  b.header().dtype = dataType;
  b.header().reduce = op;
  b.header().root = root;
  b.header().count = count;
  b.header().send_buf = reinterpret_cast<uint64_t>(sendBuf);
  b.header().recv_buf = reinterpret_cast<uint64_t>(recvBuf);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum,
                             HcclComm comm, aclrtStream stream) try {
  if (itemNum == 0) return HCCL_SUCCESS;
  HCCL_REQUIRE_PTR(stream, "stream");
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(sendRecvInfo, "sendRecvInfo");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE(!GroupActive(), HCCL_E_NOT_SUPPORT,
               "HcclBatchSendRecv cannot be called inside a group");
  OpBuilder b(OpKind::kBatchSendRecv, c->id);
  for (uint32_t i = 0; i < itemNum; ++i) {
    const HcclSendRecvItem& it = sendRecvInfo[i];
    const std::string at = "sendRecvInfo[" + std::to_string(i) + "]";
    // Read as an integer: a C caller may store any value in the enum.
    uint32_t type = 0;
    std::memcpy(&type, &it.sendRecvType, sizeof(type));
    HCCL_REQUIRE(type == HCCL_SEND || type == HCCL_RECV, HCCL_E_PARA,
                 at + ".sendRecvType is neither send nor recv");
    HCCL_RETURN_IF_ERROR(CheckCount(__func__, it.count, it.dataType));
    HCCL_RETURN_IF_ERROR(CheckType(__func__, it.dataType, TypeUse::kMove));
    HCCL_REQUIRE(it.count == 0 || it.buf != nullptr, HCCL_E_PTR,
                 at + ".buf is NULL");
    HCCL_RETURN_IF_ERROR(
        RootInRange(__func__, *c, it.remoteRank, "remoteRank"));
    HCCL_REQUIRE(it.remoteRank != c->rank, HCCL_E_NOT_SUPPORT,
                 at + ".remoteRank cannot be this rank itself");
    if (it.count == 0) continue;
    OpItem item{};
    item.type = type;
    item.dtype = static_cast<uint32_t>(it.dataType);
    item.buf = reinterpret_cast<uint64_t>(it.buf);
    item.count = it.count;
    item.peer = it.remoteRank;
    b.AddItem(item);
  }
  HCCL_RETURN_IF_ERROR(Usable(__func__, *c));
  return Submit(__func__, b.Finish(), stream);
}
HCCL_ENTRY_CATCH()

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) try {
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(stream, "stream");
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  OpBuilder b(OpKind::kBarrier, c->id);
  return Queue(__func__, *c, b, stream);
}
HCCL_ENTRY_CATCH()
