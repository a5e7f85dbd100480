// The integrity checksum used for device memory: one function, shared by the
// device backends (Device::Checksum) and by the snapshot (which hashes its
// host copies), so both sides of a transfer can be compared.
//
//   uint64_t sum = Checksum(data, size);
//
//   // The same value, computed while copying (one pass over the source):
//   uint64_t sent = CopyAndChecksum(dst, src, size);
//
//   // Or piece by piece (every piece but the last a multiple of kBlockBytes):
//   ChecksumState state;
//   state.Update(first_piece, 64 * 1024);
//   uint64_t sum = state.Finish(last_piece, last_size);
//
// 64-bit. Eight 64-bit lanes take 64-byte stripes: each 8-byte word is added
// to its neighbour lane and, xored with a per-position key, folded into its
// own lane as the product of its two 32-bit halves. After every 1 KiB block
// the lanes are scrambled by a bijective xor-shift-multiply (so block order
// matters); the end mixes the lanes, the length and the tail. Any change of
// a single 8-byte word changes its neighbour lane by a non-zero amount that
// no later step can cancel, so a flipped byte is always visible in the lanes
// (and in the result barring a 2^-64 collision of the final mix). Not
// cryptographic: it detects corruption, it does not resist tampering.
//
// Speed: with AVX2 (chosen at run time) about 1 KiB in ~60 cycles, tens of
// GB/s per core on data in cache, so a copy verified piece by piece runs at
// memory speed. aarch64 hosts use a NEON kernel (checked bit for bit against
// the portable one under qemu by //device:checksum_aarch64_test; its speed has
// not been measured on hardware); elsewhere a portable scalar loop computes the
// same values.
#ifndef ASCENDCL_DEVICE_CHECKSUM_H_
#define ASCENDCL_DEVICE_CHECKSUM_H_

#include <cstddef>
#include <cstdint>

namespace ascend::device {

inline constexpr size_t kChecksumBlockBytes = 1024;

uint64_t Checksum(const void* data, size_t size);

// Copies `size` bytes from `src` to `dst` (which must not overlap) and
// returns Checksum(src, size) of the bytes as they were read.
uint64_t CopyAndChecksum(void* dst, const void* src, size_t size);

// Incremental form of Checksum.
class ChecksumState {
 public:
  ChecksumState();

  // Absorbs `size` bytes; `size` must be a multiple of kChecksumBlockBytes.
  void Update(const void* data, size_t size);
  // The same, also copying the bytes to `dst` (no overlap) in the same pass.
  void CopyUpdate(void* dst, const void* src, size_t size);
  // Absorbs the last `size` bytes (any size) and returns the checksum of all
  // the bytes absorbed. The state must not be used afterwards.
  uint64_t Finish(const void* data, size_t size);
  uint64_t CopyFinish(void* dst, const void* src, size_t size);

 private:
  uint64_t lanes_[8];
  uint64_t length_ = 0;
};

namespace internal {
// Makes every checksum in the process use the portable kernel instead of the
// vector one (tests compare the two; not thread-safe).
void ForcePortableChecksumForTesting(bool force);
// The kernel checksums use now: "avx2", "neon" or "portable".
const char* ChecksumKernelForTesting();
}  // namespace internal

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_CHECKSUM_H_
