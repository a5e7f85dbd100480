// The memory functions of securec.h: memset_s, memcpy_s, memmove_s and their
// wide-character forms. The checks come first, in the order securec.h
// documents: the destination size, the pointers, the count, the overlap.
#include <cstdint>
#include <cstring>

#include "securec.h"
#include "securec/src/internal.h"

namespace ascend::securec {
namespace {

bool Overlap(const void* a, const void* b, size_t bytes) {
  const auto x = reinterpret_cast<uintptr_t>(a);
  const auto y = reinterpret_cast<uintptr_t>(b);
  return x < y ? y - x < bytes : x - y < bytes;
}

// Shared by memcpy_s (overlap refused) and memmove_s (overlap allowed);
// sizes in bytes, `limit` the largest valid destMax.
errno_t Copy(void* dest, size_t dest_max, const void* src, size_t count,
             size_t limit, bool allow_overlap) {
  if (dest_max == 0 || dest_max > limit) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, dest_max);
    return EINVAL_AND_RESET;
  }
  if (count > dest_max) {
    std::memset(dest, 0, dest_max);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (allow_overlap) {
    std::memmove(dest, src, count);
    return EOK;
  }
  if (Overlap(dest, src, count)) {
    std::memset(dest, 0, dest_max);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

}  // namespace
}  // namespace ascend::securec

using ascend::securec::Copy;

extern "C" {

SECUREC_EXPORT const char* GetHwSecureCVersion(unsigned short* verNumber) {
  // The interface level this implementation follows (5.x).
  if (verNumber != nullptr) *verNumber = 0x500;
  return "ascendcl securec 1.0 (interface 5.0)";
}

SECUREC_EXPORT errno_t memset_s(void* dest, size_t destMax, int c,
                                size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

SECUREC_EXPORT errno_t memcpy_s(void* dest, size_t destMax, const void* src,
                                size_t count) {
  return Copy(dest, destMax, src, count, SECUREC_MEM_MAX_LEN, false);
}

SECUREC_EXPORT errno_t memmove_s(void* dest, size_t destMax, const void* src,
                                 size_t count) {
  return Copy(dest, destMax, src, count, SECUREC_MEM_MAX_LEN, true);
}

// The wide forms count wide characters: the checks apply to the bytes (a
// count above destMax stays above it, whatever its byte size would be).
SECUREC_EXPORT errno_t wmemcpy_s(wchar_t* dest, size_t destMax,
                                 const wchar_t* src, size_t count) {
  if (destMax == 0 || destMax > SECUREC_WCHAR_MEM_MAX_LEN) return ERANGE;
  const size_t bytes = destMax * sizeof(wchar_t);
  return Copy(dest, bytes, src,
              count > destMax ? bytes + 1 : count * sizeof(wchar_t),
              SECUREC_MEM_MAX_LEN, false);
}

SECUREC_EXPORT errno_t wmemmove_s(wchar_t* dest, size_t destMax,
                                  const wchar_t* src, size_t count) {
  if (destMax == 0 || destMax > SECUREC_WCHAR_MEM_MAX_LEN) return ERANGE;
  const size_t bytes = destMax * sizeof(wchar_t);
  return Copy(dest, bytes, src,
              count > destMax ? bytes + 1 : count * sizeof(wchar_t),
              SECUREC_MEM_MAX_LEN, true);
}

}  // extern "C"
