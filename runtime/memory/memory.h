// The memory family (DESIGN.md §1.7, §5.5, §5.14, §5.15, §5.18): device and
// host allocations, memory kinds and their registry, synchronous and
// stream-ordered copies of every shape, fills, value waits and writes,
// cache maintenance, virtual memory and its sharing between processes.
//
//   Memory& memory = *Memory::Of(runtime);
//   ASCEND_ASSIGN_OR_RETURN(void* p, memory.Malloc(4096, policy));
//   ASCEND_RETURN_IF_ERROR(memory.MemcpyAsync(p, 4096, src, 4096,
//                                             ACL_MEMCPY_HOST_TO_DEVICE,
//                                             stream));
//
// Every asynchronous copy, fill and value task goes through the runtime's
// task path with the device range it writes; every synchronous write of
// device memory passes its access point first (runtime/task_path.h). The
// family reaches the core only through Runtime's public interface: where a
// pointer lives (Runtime::Locate), stream resolution and the device
// observers. The memory epoch value waits poll, and the checked access of
// built-in tasks to device memory, are the family's own (task_memory.cc).
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_RUNTIME_MEMORY_MEMORY_H_
#define ASCENDCL_RUNTIME_MEMORY_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "runtime/family.h"
#include "runtime/memory/memory_registry.h"
#include "runtime/memory/vmm.h"
#include "runtime/runtime.h"

namespace ascend::rt {

class Memory final : public Family {
 public:
  explicit Memory(Runtime& runtime);
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  ~Memory() override;

  // The family of `runtime`, or null when it was built without it.
  static Memory* Of(const Runtime& runtime);

  // --- Memory ----------------------------------------------------------------
  // Enum arguments must hold values of their enum (the ACL entry points
  // validate the caller's raw integers first). A null stream is the current
  // context's default stream.
  absl::StatusOr<void*> Malloc(size_t size, aclrtMemMallocPolicy policy);
  absl::Status Free(void* dev_ptr);
  absl::StatusOr<void*> MallocHost(size_t size);
  absl::Status FreeHost(void* host_ptr);
  absl::StatusOr<device::MemoryInfo> GetMemInfo(aclrtMemAttr attr);
  absl::Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count,
                      aclrtMemcpyKind kind);
  absl::Status MemcpyAsync(void* dst, size_t dest_max, const void* src,
                           size_t count, aclrtMemcpyKind kind, void* stream);
  absl::Status Memset(void* ptr, size_t max_count, int32_t value, size_t count);
  absl::Status MemsetAsync(void* ptr, size_t max_count, int32_t value,
                           size_t count, void* stream);
  absl::Status ValueWait(void* dev_addr, uint64_t value, uint32_t flag,
                         void* stream);
  absl::Status ValueWrite(void* dev_addr, uint64_t value, uint32_t flag,
                          void* stream);

  // --- Memory kinds (memory_kinds.cc; DESIGN.md §5.15) --------------------
  struct MallocOptions {
    uint16_t module_id = kAppModuleId;
    // The device the caller named (aclrtMallocConfig); it must be the
    // current one. Null: the current device.
    std::optional<int32_t> device_id;
    DeviceMemoryKind kind = DeviceMemoryKind::kDevice;
    uint64_t alignment = 512;
  };
  // A device allocation recorded with its kind, module and page size.
  // `raw_policy` may be any integer (out-of-range policies choose the page
  // size by size, as aclrtMallocWithCfg documents).
  absl::StatusOr<void*> MallocWith(uint64_t size, uint32_t raw_policy,
                                   const MallocOptions& options);
  // Memory addressable from host and device (size rounded up to 2 MiB).
  absl::StatusOr<void*> MallocManaged(uint64_t size);
  absl::StatusOr<aclrtPtrAttributes> PointerAttributes(const void* ptr);
  // The device allocation, or aclrtMallocHost block, holding `ptr`: its
  // start and size (aclrtMemGetAddressRange). 107000 for any other pointer.
  absl::StatusOr<std::pair<void*, uint64_t>> AllocationRange(const void* ptr);
  // aclrtMemP2PMap: validates that [ptr, ptr + size) is device memory of
  // another device than `peer` with peer access between them enabled. The
  // simulator's peer memory needs no page-table work: every device can
  // address every other's memory at once.
  absl::Status PrepareP2PMap(const void* ptr, uint64_t size, int32_t peer);
  // Whether every address is device memory of a type in `mem_type`
  // (ACL_RT_MEM_TYPE_* bits).
  absl::StatusOr<bool> CheckMemType(void* const* addrs, uint32_t count,
                                    uint32_t mem_type);
  absl::StatusOr<std::vector<ModuleUsage>> MemUsage(int32_t device_id);
  absl::Status ManagedAdvise(const void* ptr, uint64_t size,
                             aclrtMemManagedAdviseType advise,
                             const aclrtMemManagedLocation& location);
  absl::Status ManagedGetAttr(aclrtMemManagedRangeAttribute attribute,
                              const void* ptr, size_t size, void* data,
                              size_t data_size);
  absl::Status ManagedPrefetch(const void* const* ptrs, const size_t* sizes,
                               size_t count,
                               const aclrtMemManagedLocation* locations,
                               const size_t* location_starts,
                               size_t location_count, void* stream);
  absl::Status HostRegister(void* ptr, uint64_t size, uint32_t flags);
  absl::Status HostUnregister(void* ptr);
  absl::StatusOr<void*> HostDevicePointer(void* ptr);
  // Uncorrectable memory errors of an open device, and their repair.
  absl::StatusOr<std::vector<device::Allocation>> MemoryErrors(
      int32_t device_id);
  absl::Status RepairMemoryErrors(
      int32_t device_id, const std::vector<device::Allocation>& ranges);
  absl::Status InjectMemoryError(int32_t device_id, const void* ptr,
                                 uint64_t size);
  // Kinds, pages, modules and registrations of every allocation.
  const MemoryRegistry& registry() const { return registry_; }

  // --- Virtual memory management (vmm.h; DESIGN.md §5.18) -------------------
  Vmm& vmm() { return vmm_; }

  // --- 2-D, batch, offset and descriptor copies, 32-bit fills, cache
  // maintenance (memcpy_ext.cc; DESIGN.md §5.14) ------------------------------
  // Enum arguments hold values of their enum (the ACL layer validates the
  // caller's integers); `stream` is used when `async`.
  absl::Status Memcpy2d(void* dst, size_t dpitch, const void* src,
                        size_t spitch, size_t width, size_t height,
                        aclrtMemcpyKind kind, bool async, void* stream);
  // The arrays of aclrtMemcpyBatch*, already checked non-NULL.
  struct BatchCopy {
    void** dsts;
    const size_t* dest_maxs;
    void** srcs;
    const size_t* sizes;
    size_t count;
    const aclrtMemcpyBatchAttr* attrs;
    const size_t* attr_indexes;
    size_t num_attrs;
  };
  // One validation pass over every copy, then one copy (sync) or one task
  // (async). `*fail_index` (when non-null) is left at SIZE_MAX unless a
  // specific copy is at fault, then it is that copy's index.
  absl::Status MemcpyBatch(const BatchCopy& batch, bool async, void* stream,
                           size_t* fail_index);
  absl::Status MemcpyAsyncWithCondition(void* dst, size_t dest_max,
                                        const void* src, size_t count,
                                        aclrtMemcpyKind kind, void* stream);
  absl::Status MemcpyAsyncWithOffset(void** dst, size_t dest_max,
                                     size_t dst_offset, const void** src,
                                     size_t count, size_t src_offset,
                                     void* stream);
  absl::Status SetMemcpyDesc(void* desc, void* src, void* dst, size_t count);
  absl::Status MemcpyAsyncWithDesc(void* desc, void* stream);
  absl::Status MemsetD32(void* ptr, size_t mem_size, uint32_t value, size_t n,
                         bool async, void* stream);
  // aclrtMemFlush / aclrtMemInvalidate: the range check of a no-op.
  absl::Status CheckCacheRange(const void* ptr, size_t size);
  absl::Status CmoAsync(void* src, size_t size, aclrtCmoType type,
                        uint32_t barrier_id, void* stream);
  absl::Status SetCmoDesc(void* desc, void* src, size_t size);
  absl::Status CmoAsyncWithDesc(void* desc, aclrtCmoType type, void* stream);
  absl::Status CmoWaitBarrier(const aclrtBarrierTaskInfo& info, void* stream);

  // --- Task memory and the memory epoch (task_memory.cc) --------------------
  // Built-in task memory access (kernels, models, built-in tasks, device
  // writes): 107000 unless [ptr, ptr + bytes) lies in a live allocation of
  // `device_id`.
  absl::Status CheckTaskMemory(const void* ptr, uint64_t bytes,
                               int32_t device_id, absl::string_view what);
  absl::StatusOr<std::vector<uint8_t>> ReadTaskMemory(const void* ptr,
                                                      uint64_t bytes,
                                                      int32_t device_id,
                                                      absl::string_view what);
  absl::Status WriteTaskMemory(void* ptr, const std::vector<uint8_t>& data,
                               int32_t device_id, absl::string_view what);
  // Bumps the memory epoch so value waits re-check (after a task wrote
  // device memory).
  void MemoryWritten();
  // The memory epoch now, and a wait of at most `timeout` for it to move
  // past `seen` (value waits poll with it).
  uint64_t MemoryEpoch();
  void AwaitMemoryWrite(uint64_t seen, absl::Duration timeout);

 private:
  // How a validated copy runs: the direction the pointers make, and the
  // devices holding each side (null for host memory).
  struct CopyRoute {
    aclrtMemcpyKind actual = ACL_MEMCPY_HOST_TO_HOST;
    std::shared_ptr<device::Device> to;
    std::shared_ptr<device::Device> from;
  };
  class CmoBarriers;
  // The descriptors aclrtSetMemcpyDesc and aclrtCmoSetDesc write into device
  // memory the caller provides, and the *WithDesc tasks read when they run
  // (memcpy_ext.cc): where `desc` lies when `size` bytes from it are live
  // device memory, else 107000 naming `what`.
  absl::StatusOr<Runtime::Location> LocateDescriptor(void* desc, size_t size,
                                                     absl::string_view what);
  // Writes the `size` bytes at `value` as the descriptor at `desc`.
  absl::Status WriteDescriptor(void* desc, const void* value, size_t size,
                               absl::string_view what);
  // The one copy check (stale pointers, peer access, both extents inside
  // their allocations; the direction comes from the pointers, whatever
  // `kind` says: DESIGN.md §5.22); `open` (when given)
  // saves collecting the open devices again for each copy of a batch.
  absl::StatusOr<CopyRoute> RouteCopy(
      const void* dst, uint64_t dst_extent, const void* src,
      uint64_t src_extent,
      const std::vector<std::shared_ptr<device::Device>>* open = nullptr);
  // RouteCopy of pointers already located.
  absl::StatusOr<CopyRoute> RouteLocated(Runtime::Location to, const void* dst,
                                         uint64_t dst_extent,
                                         Runtime::Location from,
                                         const void* src, uint64_t src_extent);
  // 207000 for an async copy within host memory (by kind or by pointers).
  absl::Status RefuseAsyncHostToHost(const char* api, aclrtMemcpyKind kind,
                                     aclrtMemcpyKind actual);
  // The capture modes' check of an async copy with a pageable host side
  // (HostOp::kPageableCopy); nothing for other copies.
  absl::Status CheckPageableCopy(const char* api, aclrtMemcpyKind actual,
                                 const void* dst, const void* src,
                                 uint64_t count);
  // Performs one copy along a route (the device's copy path, with its
  // faults); a DMA failure is 507033. Does not bump the memory epoch.
  absl::Status RunCopy(const CopyRoute& route, void* dst, const void* src,
                       size_t count);
  bool IsPinnedHost(const void* ptr, uint64_t size) const;
  std::shared_ptr<CmoBarriers> Barriers();

  absl::StatusOr<ManagedLocation> CheckManagedLocation(
      const aclrtMemManagedLocation& location, bool for_prefetch) const;
  // The copy as a task; `actual` (when given) receives the direction the
  // pointers make.
  absl::StatusOr<std::function<absl::Status()>> PrepareCopy(
      void* dst, size_t dest_max, const void* src, size_t count,
      aclrtMemcpyKind kind, aclrtMemcpyKind* actual = nullptr);
  absl::StatusOr<std::function<absl::Status()>> PrepareMemset(void* ptr,
                                                              size_t max_count,
                                                              int32_t value,
                                                              size_t count);
  // The live device word (8 bytes) at `dev_addr` a value task uses; 107000
  // naming `what` otherwise.
  absl::StatusOr<Runtime::Location> ValueWord(const void* dev_addr,
                                              const char* what) const;
  absl::Status WaitForValue(const Runtime::Location& where, uint64_t addr,
                            uint64_t value, uint32_t flag,
                            const Stream& stream);

  // A device opening's allocation records go with it.
  void OnDeviceClose(int32_t device_id) override;

  Runtime& runtime_;
  mutable ascend::Mutex mu_;
  // aclrtMallocHost blocks and their sizes.
  absl::flat_hash_map<const void*, size_t> host_allocations_
      ABSL_GUARDED_BY(mu_);
  std::shared_ptr<CmoBarriers> cmo_barriers_ ABSL_GUARDED_BY(mu_);
  // Its own lock; AddDevice runs inside Runtime::WhileOpen (the core's lock
  // first) and DropDevice inside OnDeviceClose (the same).
  MemoryRegistry registry_;
  Vmm vmm_;
  ascend::Mutex epoch_mu_;
  uint64_t memory_epoch_ ABSL_GUARDED_BY(epoch_mu_) = 0;
};

// How the memory family is added to a runtime (runtime/process/families.cc).
FamilyRegistration MemoryFamily();

// Whether [ptr, ptr + size) lies inside the live allocation `where` found
// (Runtime::Locate; task_memory.cc).
bool RangeInAllocation(const Runtime::Location& where, const void* ptr,
                       uint64_t size);
// ACL_ERROR_RT_PARAM_INVALID naming `what` when `where` is a stale device
// pointer (see Runtime::Location), else OK.
absl::Status RejectStale(const Runtime::Location& where, const void* ptr,
                         absl::string_view what);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MEMORY_MEMORY_H_
