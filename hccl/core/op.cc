#include "hccl/core/op.h"

#include <cstring>

namespace ascend::hccl {

const char* KindName(OpKind kind) {
  switch (kind) {
    case OpKind::kAllReduce:
      return "HcclAllReduce";
    case OpKind::kBroadcast:
      return "HcclBroadcast";
    case OpKind::kReduceScatter:
      return "HcclReduceScatter";
    case OpKind::kReduceScatterV:
      return "HcclReduceScatterV";
    case OpKind::kScatter:
      return "HcclScatter";
    case OpKind::kAllGather:
      return "HcclAllGather";
    case OpKind::kAllGatherV:
      return "HcclAllGatherV";
    case OpKind::kSend:
      return "HcclSend";
    case OpKind::kRecv:
      return "HcclRecv";
    case OpKind::kAlltoAllVC:
      return "HcclAlltoAllVC";
    case OpKind::kAlltoAllV:
      return "HcclAlltoAllV";
    case OpKind::kAlltoAll:
      return "HcclAlltoAll";
    case OpKind::kReduce:
      return "HcclReduce";
    case OpKind::kBatchSendRecv:
      return "HcclBatchSendRecv";
    case OpKind::kBarrier:
      return "HcclBarrier";
    default:
      return "Hccl";
  }
}

bool IsCollective(OpKind kind) {
  return kind != OpKind::kSend && kind != OpKind::kRecv &&
         kind != OpKind::kBatchSendRecv;
}

OpBuilder::OpBuilder(OpKind kind, uint64_t comm_id) {
  header_.magic = kOpMagic;
  header_.kind = static_cast<uint32_t>(kind);
  header_.comm_id = comm_id;
}

void OpBuilder::AddWords(const void* words, size_t n) {
  const size_t at = words_.size();
  words_.resize(at + n);
  if (n != 0) std::memcpy(&words_[at], words, n * sizeof(uint64_t));
}

void OpBuilder::AddItem(const OpItem& item) { items_.push_back(item); }

std::vector<uint8_t> OpBuilder::Finish() const {
  OpHeader h = header_;
  h.words = static_cast<uint32_t>(words_.size());
  h.items = static_cast<uint32_t>(items_.size());
  std::vector<uint8_t> bytes(sizeof(OpHeader) +
                             words_.size() * sizeof(uint64_t) +
                             items_.size() * sizeof(OpItem));
  uint8_t* p = bytes.data();
  std::memcpy(p, &h, sizeof(h));
  p += sizeof(h);
  if (!words_.empty()) {
    std::memcpy(p, words_.data(), words_.size() * sizeof(uint64_t));
    p += words_.size() * sizeof(uint64_t);
  }
  if (!items_.empty()) {
    std::memcpy(p, items_.data(), items_.size() * sizeof(OpItem));
  }
  return bytes;
}

bool OpView::Parse(const void* bytes, size_t size, OpView* out) {
  if (bytes == nullptr || size < sizeof(OpHeader)) return false;
  // The runtime copies argument bytes to storage aligned for any type.
  const auto* h = static_cast<const OpHeader*>(bytes);
  if (h->magic != kOpMagic ||
      h->kind >= static_cast<uint32_t>(OpKind::kCount)) {
    return false;
  }
  const size_t need = sizeof(OpHeader) + size_t{h->words} * sizeof(uint64_t) +
                      size_t{h->items} * sizeof(OpItem);
  if (size < need) return false;
  const auto* base = static_cast<const uint8_t*>(bytes);
  out->h = h;
  out->words = reinterpret_cast<const uint64_t*>(base + sizeof(OpHeader));
  out->items = reinterpret_cast<const OpItem*>(
      base + sizeof(OpHeader) + size_t{h->words} * sizeof(uint64_t));
  return true;
}

}  // namespace ascend::hccl
