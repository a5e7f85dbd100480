// Helpers of the 2-D, batch and descriptor copies and the cache maintenance
// operations (memcpy_ext.cc, DESIGN.md §5.14) that need no runtime: the
// layout of the descriptors this runtime keeps in device memory, the extent
// of a pitched copy, the checks of a batch's attribute ranges, and a 32-bit
// pattern.
#ifndef ASCENDCL_RUNTIME_MEMORY_MEMCPY_EXT_H_
#define ASCENDCL_RUNTIME_MEMORY_MEMCPY_EXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"

namespace ascend::rt {

// A memory copy descriptor (aclrtSetMemcpyDesc) as this runtime lays it out
// in the device memory the caller provides: what the copy task reads when it
// runs. `magic` tells a written descriptor from zeroed or stray memory.
struct MemcpyDescriptor {
  static constexpr uint64_t kMagic = 0x4d43505944455343ULL;
  uint64_t src = 0;
  uint64_t dst = 0;
  uint64_t count = 0;
  uint64_t magic = 0;
};
// aclrtGetMemcpyDescSize: CANN's size for the Atlas A2/A3 parts (32 bytes).
inline constexpr size_t kMemcpyDescSize = 32;
static_assert(sizeof(MemcpyDescriptor) == kMemcpyDescSize,
              "the descriptor fills the documented size");

// A cache maintenance descriptor (aclrtCmoSetDesc): the device range.
struct CmoDescriptor {
  static constexpr uint64_t kMagic = 0x434d4f4445534352ULL;
  uint64_t src = 0;
  uint64_t size = 0;
  uint64_t magic = 0;
  uint64_t reserved = 0;
};
// aclrtCmoGetDescSize: CANN's size for the Atlas A2/A3 parts (32 bytes).
inline constexpr size_t kCmoDescSize = 32;
static_assert(sizeof(CmoDescriptor) == kCmoDescSize,
              "the descriptor fills the documented size");

// CANN's limits on a 2-D copy.
inline constexpr size_t kMaxMemcpy2dWidth = 5000000;
inline constexpr size_t kMaxMemcpy2dHeight = 5 * 1024 * 1024;

// The bytes a pitched region spans: (height - 1) * pitch + width, or nullopt
// when that overflows. height and width are non-zero.
std::optional<uint64_t> PitchedSpan(uint64_t pitch, uint64_t width,
                                    uint64_t height);

// The checks CANN makes of a batch's attribute ranges: at least one entry,
// no more entries than copies, the first range starting at copy 0 and each
// later one starting after the previous and before the end. 107000 naming
// the first violation.
absl::Status CheckBatchAttrRanges(const size_t* attr_indexes, size_t num_attrs,
                                  size_t count);

// Walks the copies of a batch in order, telling which attribute entry applies
// to each (the ranges passed CheckBatchAttrRanges).
class BatchAttrCursor {
 public:
  BatchAttrCursor(const size_t* attr_indexes, size_t num_attrs)
      : indexes_(attr_indexes), num_(num_attrs) {}
  // The entry for copy `i`; calls come with ascending i.
  size_t For(size_t i) {
    while (current_ + 1 < num_ && i >= indexes_[current_ + 1]) ++current_;
    return current_;
  }

 private:
  const size_t* indexes_;
  size_t num_;
  size_t current_ = 0;
};

// Writes `n` copies of `value` (host byte order, like a store of a uint32_t)
// at `out`, which need not be aligned.
void FillPattern32(void* out, uint32_t value, size_t n);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MEMORY_MEMCPY_EXT_H_
