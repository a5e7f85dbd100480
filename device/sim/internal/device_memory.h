// The host memory behind one simulated device: a window of address space
// reserved with mmap(PROT_NONE, MAP_NORESERVE), so a 64 GiB device costs
// nothing until its pages are touched, and a stray access to memory that is
// not allocated faults as it would on hardware. The bytes live in a sparse
// shared-memory file (memfd) mapped over the window, so the same physical
// memory can be mapped at other addresses of the device's virtual address
// window (which follows the memory window) and in other processes.
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
// byte outside the committed ranges reads as zero, except in ranges the
// owner keeps reserved after ForgetCommits (below), which it only hands back
// through a Commit of a put-back allocation. Release keeps the invariant by
// dropping the pages of chunks that become unused (MADV_DONTNEED: they read
// as zero when touched again) and zeroing the released bytes of chunks still
// in use.
//
// Like a device's memory, committed pages stay resident: ForgetCommits
// (device re-opened for a snapshot restore) keeps the pages and their
// contents, so putting the allocations back and refilling them costs no
// page faults; ZeroAll (memory-loss fault) zeroes the committed chunks in
// place.
//
// Thread safety: Commit, Release, ReleaseAll and ForgetCommits must be
// serialised by the owner (the device's lock, held exclusively). ZeroAll and
// the accessors may be called at any time from any thread.
#ifndef ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_
#define ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
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
  //
  // `va_capacity` more bytes (rounded up likewise) follow the window: the
  // device's virtual address space, where reservations are made and
  // physical memory is mapped (MapVa). They are never committed. Neither
  // window overlaps [`avoid_begin`, `avoid_end`) (the placed window).

  static absl::StatusOr<std::unique_ptr<DeviceMemory>> Reserve(
      uint64_t capacity, uint64_t va_capacity = 0, uint64_t avoid_begin = 0,
      uint64_t avoid_end = 0);

  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory();

  // The window's first address and its length (a multiple of kChunkSize).
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  // The virtual address window, right after the memory window.
  uint64_t va_base() const { return base_ + size_; }
  uint64_t va_size() const { return va_size_; }
  // Whether the memory is a file that other addresses and processes can
  // map (memfd): false only where the kernel refused one.
  bool shareable() const { return fd_ >= 0; }
  // The file (owned by this object; dup it to hand it out), or -1.
  int fd() const { return fd_; }

  // Maps [file_offset, file_offset + size) of `fd` (-1: this memory's own
  // file) at `va`, readable and writable, replacing what was mapped there.
  // Page-aligned arguments. On failure the range is left inaccessible.
  absl::Status MapVa(uint64_t va, uint64_t size, uint64_t file_offset,
                     int fd = -1);
  // Makes [va, va + size) inaccessible again (page-aligned).
  void UnmapVa(uint64_t va, uint64_t size);
  // Changes the protection of [va, va + size) (page-aligned, mapped by
  // MapVa) to `prot` (PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE).
  // kResourceExhausted when the kernel refuses; nothing changes then.
  static absl::Status ProtectVa(uint64_t va, uint64_t size, int prot);

  // Takes [va, va + size) (page-aligned) of the process's address space as
  // an inaccessible placeholder, at exactly that address, for a reservation
  // placed by its caller (the placed window, device.h): kAlreadyExists when
  // any of it is in use (another mapping, a sanitizer's shadow).
  static absl::Status PlaceAt(uint64_t va, uint64_t size);
  // Gives a range taken by PlaceAt back to the process.
  static void Unplace(uint64_t va, uint64_t size);

  // Makes [addr, addr + size) (inside the window, size > 0) readable and
  // writable. The bytes read as zero. kResourceExhausted when the kernel
  // refuses to change the protection; nothing changes then.
  absl::Status Commit(uint64_t addr, uint64_t size);
  // Undoes one Commit of the same range: zeroes it, and returns the pages of
  // chunks no longer used to the kernel, protected again.
  void Release(uint64_t addr, uint64_t size);
  // Drops every page and protects the whole window (device closed): every
  // earlier Commit is forgotten.
  void ReleaseAll();
  // ReleaseAll for memory that other processes may still map: instead of
  // dropping the pages, the window moves to a new, empty file (under the
  // same fd number, so fd() does not change), and the old file with its
  // contents stays with whoever still maps or holds it, freed by the kernel
  // when the last of them lets go, as a device frees physical memory that
  // another process imported only when that process releases it.
  // kUnimplemented without a file; kResourceExhausted when the kernel
  // refuses a new file or mapping (then the caller falls back to
  // ReleaseAll; nothing changed).
  absl::Status DetachAll();
  // Forgets every earlier Commit, keeping the pages, their contents and
  // their protection (device re-opened for a restore: the allocations are
  // put back right after). The owner must keep the ranges that were
  // committed out of fresh allocations (their bytes are not zero) until it
  // commits them again as put-backs; until then they stay accessible, and
  // a chunk they share with a later fresh range is dropped and protected
  // when that range is released.
  void ForgetCommits();
  // Makes every byte read as zero without changing what is accessible (the
  // memory-loss fault); committed chunks are repopulated at once where the
  // kernel allows (MADV_POPULATE_WRITE), so they stay resident like device
  // memory. Never blocks on the owner's lock.
  void ZeroAll();

  // The parts of [addr, addr + size) (inside the window) whose pages are
  // present or swapped out, as [begin, end) pairs in ascending order and
  // page-aligned: every byte outside them reads as zero, because it was
  // never touched or its page was dropped. Read from /proc/self/pagemap;
  // when that cannot be read, the whole range (nothing is claimed to be
  // zero). A page only ever read may count as present (it maps the zero
  // page): the answer errs towards "may hold data". Any thread.
  std::vector<std::pair<uint64_t, uint64_t>> PresentRanges(uint64_t addr,
                                                           uint64_t size) const;
  // A second mapping of the memory file, readable and writable wherever
  // the file is, at a distance from the window: Alias(addr) is where the
  // window's byte `addr` is. Writers that record what they write use it to
  // avoid the write-tracking fault of the window's pages (DESIGN.md §4.14).
  // Made on first use; null without a file or when the kernel refuses the
  // mapping. Any thread; the owner's lock (shared) keeps it valid.
  uint8_t* Alias(uint64_t addr);

  // Makes the page tables of [p, p + size), inside the window or the alias,
  // map their pages for writing (no fault per page: on a VM every fault is
  // an exit to the hypervisor), allocating pages the file does not hold yet:
  // one call, unless the range's first and last pages are mapped already
  // (then the range is taken as mapped; a page missing between them costs
  // a fault, nothing more). False where the kernel cannot (before Linux
  // 5.14).
  static bool PopulateForWrite(uint8_t* p, uint64_t size);
  // Writes `size` bytes at window address `addr` with write(2) into the
  // memory file, not through a mapping, and returns the checksum of what
  // the file then holds there, read back. nullopt where the bytes are not
  // in the file or the file refuses the write.
  std::optional<absl::StatusOr<uint64_t>> WriteFileAndChecksum(uint64_t addr,
                                                               const void* src,
                                                               uint64_t size);

  // Makes [addr, addr + size) (inside the window, accessible) read as zero,
  // returning its whole pages to the kernel and zeroing the partial pages
  // at either end.
  void Discard(uint64_t addr, uint64_t size);

 private:
  DeviceMemory(uint64_t base, uint64_t size, uint64_t va_size, int fd);

  // Makes [addr, addr + size) (page-aligned) read as zero and returns its
  // pages to the kernel.
  void DropPages(uint64_t addr, uint64_t size);
  std::vector<std::pair<uint64_t, uint64_t>> FileDataRanges(
      uint64_t addr, uint64_t size) const;

  uint32_t Users(uint64_t chunk) const {
    return chunk_users_[chunk].load(std::memory_order_relaxed);
  }
  void SetUsers(uint64_t chunk, uint32_t users) {
    chunk_users_[chunk].store(users, std::memory_order_relaxed);
  }
  void ForgetUsers();

  const uint64_t base_;
  const uint64_t size_;
  const uint64_t va_size_;
  const int fd_;
  std::atomic<uint8_t*> alias_{nullptr};
  std::atomic<bool> alias_failed_{false};
  // Number of committed ranges overlapping each chunk. Written only by the
  // owner's serialised calls; atomic so that ZeroAll may read it.
  std::unique_ptr<std::atomic<uint32_t>[]> chunk_users_;
};

}  // namespace ascend::device::sim::internal

#endif  // ASCENDCL_DEVICE_SIM_INTERNAL_DEVICE_MEMORY_H_
