// What the securec sources share: the export marker and the string-length
// helper both character widths use.
#ifndef ASCENDCL_SECUREC_SRC_INTERNAL_H_
#define ASCENDCL_SECUREC_SRC_INTERNAL_H_

#include <cstddef>

// The library's public functions (libc_sec.so exports only these).
#define SECUREC_EXPORT __attribute__((visibility("default")))

namespace ascend::securec {

// The length of `s`, looking at no more than `max` characters (max when no
// terminator is among them).
template <typename CharT>
size_t BoundedLength(const CharT* s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != CharT(0)) ++n;
  return n;
}

}  // namespace ascend::securec

#endif  // ASCENDCL_SECUREC_SRC_INTERNAL_H_
