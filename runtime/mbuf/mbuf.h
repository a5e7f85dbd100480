// Shared buffers (mbufs, aclrtAllocBuf and friends): a data region with a
// valid-data length, a 96-byte user-data region, reference copies that share
// the data region, and chains of mbufs. DESIGN.md §5.16.
//
// The simulator's device memory is host memory, so an mbuf's data region is
// host memory the runtime owns; it is not device memory of any device, needs
// no open device, and survives a snapshot's device-memory loss as it is.
//
// Each runtime owns one, its mbuf family (MbufPool::Of, DESIGN.md §1.4,
// §1.7).
//
//   MbufPool& pool = *MbufPool::Of(runtime);
//   ASCEND_ASSIGN_OR_RETURN(void* buf, pool.Alloc(4096));
//   ASCEND_RETURN_IF_ERROR(pool.SetDataLen(buf, 100));
#ifndef ASCENDCL_RUNTIME_MBUF_MBUF_H_
#define ASCENDCL_RUNTIME_MBUF_MBUF_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/base/mutex.h"
#include "runtime/family.h"

namespace ascend::rt {

class MbufPool final : public Family {
 public:
  // The family of `runtime`, or null when it was built without it.
  static MbufPool* Of(const Runtime& runtime);

  // Size of each mbuf's user-data region.
  static constexpr size_t kUserDataSize = 96;
  // Most mbufs in one chain, its head included.
  static constexpr uint32_t kMaxChainLength = 128;
  // Largest data region (4 GiB).
  static constexpr uint64_t kMaxSize = uint64_t{4} << 30;

  // Errors: 100000 for a zero or too large size; 207001 when out of memory.
  absl::StatusOr<void*> Alloc(size_t size);
  // Frees `buf` and every mbuf appended to its chain. A data region lives
  // until its last reference goes.
  absl::Status Free(void* buf);
  struct Data {
    void* ptr;
    size_t size;
  };
  absl::StatusOr<Data> GetData(void* buf) const;
  absl::StatusOr<size_t> GetDataLen(void* buf) const;
  // 107000 when len exceeds the data region.
  absl::Status SetDataLen(void* buf, size_t len);
  absl::Status GetUserData(void* buf, void* out, size_t size,
                           size_t offset) const;
  absl::Status SetUserData(void* buf, const void* in, size_t size,
                           size_t offset);
  // A new mbuf sharing `buf`'s data region (its valid-data length and user
  // data copied); free it like any mbuf.
  absl::StatusOr<void*> CopyRef(void* buf);
  // Appends `buf` (not in a chain, not heading one) to `head`'s chain.
  absl::Status Append(void* head, void* buf);
  absl::StatusOr<uint32_t> ChainLength(void* head) const;
  absl::StatusOr<void*> ChainAt(void* head, uint32_t index) const;
  // Live mbufs (tests).
  size_t size() const;

 private:
  struct Region {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
  };
  struct Mbuf {
    std::shared_ptr<Region> region;
    size_t data_len = 0;
    uint8_t user_data[kUserDataSize] = {};
    // Head only: the mbufs appended, in order.
    std::vector<void*> chain;
    // The head of the chain this mbuf was appended to, or null.
    void* head = nullptr;
  };
  absl::StatusOr<Mbuf*> FindLocked(void* buf) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void* InsertLocked(std::unique_ptr<Mbuf> mbuf)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable ascend::Mutex mu_;
  // Handles are the Mbuf objects' addresses, validated against this map.
  absl::flat_hash_map<void*, std::unique_ptr<Mbuf>> mbufs_ ABSL_GUARDED_BY(mu_);
};

// The mbuf family's registration (runtime/process/families.cc).
FamilyRegistration MbufFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MBUF_MBUF_H_
