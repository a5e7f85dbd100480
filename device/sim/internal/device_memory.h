// The host memory behind one simulated device: a window of address space
// reserved with mmap(PROT_NONE, MAP_NORESERVE), so a 64 GiB device costs
// nothing until its pages are touched, and a stray access to memory that is
// not allocated faults as it would on hardware.
//
//   ASSIGN_OR_RETURN(auto memory, DeviceMemory::Reserve(64ull << 30));
//   RETURN_IF_ERROR(memory->Commit(addr, size));   // allocation: readable
//   memory->Release(addr, size);                   // free: zeroed, protected
//
// Protection is tracked per 2 MiB chunk: a chunk is read/write while at least
// one committed range overlaps it and PROT_NONE (its pages returned to the
// kernel) otherwise. Coarse chunks keep the number of kernel mappings small
// however fragmented the device gets (small allocations never split
// mappings).
//
// Invariant that makes fresh allocations zero-filled without a memset: every
// byte outside the committed ranges reads as zero. Release keeps it by
// dropping the pages of chunks that become unused (MADV_DONTNEED: they read
// as zero when touched again) and zeroing the released bytes of chunks still
// in use.
//
// Thread safety: Commit, Release and ReleaseAll must be serialised by the
// owner (the device's lock, held exclusively). ZeroAll and the accessors may
// be called at any time from any thread.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::device::sim::internal {

class DeviceMemory {
 public:
  static constexpr uint64_t kChunkSize = uint64_t{2} << 20;

  // Reserves at least `capacity` bytes (rounded up to kChunkSize), aligned to
  // kChunkSize. kInvalidArgument for 0; kResourceExhausted when the address
  // space cannot be reserved.
  static absl::StatusOr<std::unique_ptr<DeviceMemory>> Reserve(
      uint64_t capacity);

  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory();

  // The window's first address and its length (a multiple of kChunkSize).
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }

  // Makes [addr, addr + size) (inside the window, size > 0) readable and
  // writable. The bytes read as zero. kResourceExhausted when the kernel
  // refuses to change the protection; nothing changes then.
  absl::Status Commit(uint64_t addr, uint64_t size);
  // Undoes one Commit of the same range: zeroes it, and returns the pages of
  // chunks no longer used to the kernel, protected again.
  void Release(uint64_t addr, uint64_t size);
  // Drops every page and protects the whole window (device closed or
  // re-opened): every earlier Commit is forgotten.
  void ReleaseAll();
  // Makes every byte read as zero without changing what is accessible (the
  // memory-loss fault). Never blocks on the owner's lock.
  void ZeroAll();

 private:
  DeviceMemory(uint64_t base, uint64_t size);

  const uint64_t base_;
  const uint64_t size_;
  // Number of committed ranges overlapping each chunk.
  std::vector<uint32_t> chunk_users_;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_
