#include "runtime/mbuf/mbuf.h"

#include <cstring>
#include <new>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"
#include "runtime/runtime.h"

namespace ascend::rt {

MbufPool* MbufPool::Of(const Runtime& runtime) {
  return runtime.family<MbufPool>();
}

FamilyRegistration MbufFamily() {
  return {"mbufs", &FamilyIndex<MbufPool>,
          [](Runtime&) -> std::unique_ptr<Family> {
            return std::make_unique<MbufPool>();
          }};
}

absl::StatusOr<MbufPool::Mbuf*> MbufPool::FindLocked(void* buf) const {
  auto it = mbufs_.find(buf);
  if (it == mbufs_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("0x", absl::Hex(reinterpret_cast<uintptr_t>(buf)),
                              " is not a live mbuf"));
  }
  return it->second.get();
}

void* MbufPool::InsertLocked(std::unique_ptr<Mbuf> mbuf) {
  void* handle = mbuf.get();
  mbufs_.emplace(handle, std::move(mbuf));
  return handle;
}

absl::StatusOr<void*> MbufPool::Alloc(size_t size) {
  if (size == 0 || size > kMaxSize) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("mbuf size ", size, " outside [1, 4 GiB]"));
  }
  auto region = std::make_shared<Region>();
  region->bytes.reset(new (std::nothrow) uint8_t[size]);
  if (region->bytes == nullptr) {
    return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                 absl::StrCat("cannot allocate an mbuf of ", size, " bytes"));
  }
  region->size = size;
  auto mbuf = std::make_unique<Mbuf>();
  mbuf->region = std::move(region);
  ascend::MutexLock lock(&mu_);
  return InsertLocked(std::move(mbuf));
}

absl::Status MbufPool::Free(void* buf) {
  std::vector<std::unique_ptr<Mbuf>> freed;  // released outside the lock
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  if ((*mbuf)->head != nullptr) {
    // Freed on its own, it leaves its chain.
    absl::StatusOr<Mbuf*> head = FindLocked((*mbuf)->head);
    if (head.ok()) {
      std::vector<void*>& chain = (*head)->chain;
      for (auto it = chain.begin(); it != chain.end(); ++it) {
        if (*it == buf) {
          chain.erase(it);
          break;
        }
      }
    }
  }
  for (void* member : (*mbuf)->chain) {
    auto it = mbufs_.find(member);
    if (it != mbufs_.end()) {
      freed.push_back(std::move(it->second));
      mbufs_.erase(it);
    }
  }
  auto it = mbufs_.find(buf);
  freed.push_back(std::move(it->second));
  mbufs_.erase(it);
  return absl::OkStatus();
}

absl::StatusOr<MbufPool::Data> MbufPool::GetData(void* buf) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  return Data{(*mbuf)->region->bytes.get(), (*mbuf)->region->size};
}

absl::StatusOr<size_t> MbufPool::GetDataLen(void* buf) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  return (*mbuf)->data_len;
}

absl::Status MbufPool::SetDataLen(void* buf, size_t len) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  if (len > (*mbuf)->region->size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("data length ", len, " exceeds the mbuf's ",
                              (*mbuf)->region->size, " bytes"));
  }
  (*mbuf)->data_len = len;
  return absl::OkStatus();
}

absl::Status MbufPool::GetUserData(void* buf, void* out, size_t size,
                                   size_t offset) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  std::memcpy(out, (*mbuf)->user_data + offset, size);
  return absl::OkStatus();
}

absl::Status MbufPool::SetUserData(void* buf, const void* in, size_t size,
                                   size_t offset) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  std::memcpy((*mbuf)->user_data + offset, in, size);
  return absl::OkStatus();
}

absl::StatusOr<void*> MbufPool::CopyRef(void* buf) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> mbuf = FindLocked(buf);
  if (!mbuf.ok()) return mbuf.status();
  auto copy = std::make_unique<Mbuf>();
  copy->region = (*mbuf)->region;
  copy->data_len = (*mbuf)->data_len;
  std::memcpy(copy->user_data, (*mbuf)->user_data, kUserDataSize);
  return InsertLocked(std::move(copy));
}

absl::Status MbufPool::Append(void* head, void* buf) {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> h = FindLocked(head);
  if (!h.ok()) return h.status();
  absl::StatusOr<Mbuf*> b = FindLocked(buf);
  if (!b.ok()) return b.status();
  if (head == buf || (*b)->head != nullptr || !(*b)->chain.empty()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the mbuf to append is the head, already in a chain, or "
                 "heads a chain of its own");
  }
  if ((*h)->head != nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "headBuf is itself a member of another chain");
  }
  if ((*h)->chain.size() + 1 >= kMaxChainLength) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("an mbuf chain holds at most ", kMaxChainLength,
                              " mbufs"));
  }
  (*h)->chain.push_back(buf);
  (*b)->head = head;
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> MbufPool::ChainLength(void* head) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> h = FindLocked(head);
  if (!h.ok()) return h.status();
  return static_cast<uint32_t>((*h)->chain.size() + 1);
}

absl::StatusOr<void*> MbufPool::ChainAt(void* head, uint32_t index) const {
  ascend::MutexLock lock(&mu_);
  absl::StatusOr<Mbuf*> h = FindLocked(head);
  if (!h.ok()) return h.status();
  if (index == 0) return head;
  if (index > (*h)->chain.size()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("index ", index, " past the chain's ",
                              (*h)->chain.size() + 1, " mbufs"));
  }
  return (*h)->chain[index - 1];
}

size_t MbufPool::size() const {
  ascend::MutexLock lock(&mu_);
  return mbufs_.size();
}

}  // namespace ascend::rt
