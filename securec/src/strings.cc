// The string functions of securec.h (strcpy_s, strncpy_s, strcat_s,
// strncat_s, strtok_s, gets_s) and their wide-character forms, written once
// for both character types. Sizes and counts are in characters.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cwchar>

#include "securec.h"
#include "securec/src/internal.h"

namespace ascend::securec {
namespace {

// Whether [a, a + a_chars) and [b, b + b_chars) share a character.
template <typename C>
bool Overlap(const C* a, size_t a_chars, const C* b, size_t b_chars) {
  const auto x = reinterpret_cast<uintptr_t>(a);
  const auto y = reinterpret_cast<uintptr_t>(b);
  return x < y ? (y - x) / sizeof(C) < a_chars : (x - y) / sizeof(C) < b_chars;
}

// The checks every function starts with; EOK to go on.
template <typename C>
errno_t CheckArguments(C* dest, size_t dest_max, const C* src, size_t limit) {
  if (dest_max == 0 || dest_max > limit) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    dest[0] = C(0);
    return EINVAL_AND_RESET;
  }
  return EOK;
}

template <typename C>
errno_t Reset(C* dest, errno_t code) {
  dest[0] = C(0);
  return code;
}

template <typename C>
errno_t Copy(C* dest, size_t dest_max, const C* src, size_t limit) {
  if (errno_t bad = CheckArguments(dest, dest_max, src, limit)) return bad;
  const size_t length = BoundedLength(src, dest_max);
  if (length == dest_max) return Reset(dest, ERANGE_AND_RESET);
  if (dest == src) return EOK;
  if (Overlap(dest, length + 1, src, length + 1)) {
    return Reset(dest, EOVERLAP_AND_RESET);
  }
  std::memcpy(dest, src, (length + 1) * sizeof(C));
  return EOK;
}

template <typename C>
errno_t CopyN(C* dest, size_t dest_max, const C* src, size_t count,
              size_t limit) {
  if (errno_t bad = CheckArguments(dest, dest_max, src, limit)) return bad;
  if (count > limit) return Reset(dest, ERANGE_AND_RESET);
  if (count == 0) return Reset(dest, EOK);
  size_t length;
  if (count < dest_max) {
    length = BoundedLength(src, count);
  } else {
    length = BoundedLength(src, dest_max);
    if (length == dest_max) return Reset(dest, ERANGE_AND_RESET);
  }
  if (dest != src) {
    if (Overlap(dest, length + 1, src, length + 1)) {
      return Reset(dest, EOVERLAP_AND_RESET);
    }
    std::memcpy(dest, src, length * sizeof(C));
  }
  dest[length] = C(0);
  return EOK;
}

// strcat_s (count = limit + 1: no count) and strncat_s.
template <typename C>
errno_t Append(C* dest, size_t dest_max, const C* src, size_t count,
               size_t limit, bool counted) {
  if (errno_t bad = CheckArguments(dest, dest_max, src, limit)) return bad;
  if (counted && count > limit) return Reset(dest, ERANGE_AND_RESET);
  const size_t dest_length = BoundedLength(dest, dest_max);
  size_t room = dest_max - dest_length;
  if (counted && count < room) room = count;
  const size_t src_length = BoundedLength(src, room);
  const bool unterminated = dest_length == dest_max;
  if (dest != src &&
      Overlap(dest, dest_length + src_length + 1, src, src_length + 1)) {
    return Reset(dest, unterminated && dest + dest_length <= src
                           ? EINVAL_AND_RESET
                           : EOVERLAP_AND_RESET);
  }
  // With a count below the room, src_length <= count always fits.
  const bool fits = dest_length + src_length < dest_max;
  if (unterminated || !fits || dest == src) {
    return Reset(dest, unterminated ? EINVAL_AND_RESET : ERANGE_AND_RESET);
  }
  std::memcpy(dest + dest_length, src, src_length * sizeof(C));
  dest[dest_length + src_length] = C(0);
  return EOK;
}

template <typename C>
bool IsDelimiter(C c, const C* delimiters) {
  for (const C* d = delimiters; *d != C(0); ++d) {
    if (*d == c) return true;
  }
  return false;
}

template <typename C>
C* Token(C* text, const C* delimiters, C** context) {
  if (context == nullptr || delimiters == nullptr) return nullptr;
  C* at = text != nullptr ? text : *context;
  if (at == nullptr) return nullptr;
  while (*at != C(0) && IsDelimiter(*at, delimiters)) ++at;
  if (*at == C(0)) {
    *context = at;
    return nullptr;
  }
  C* token = at;
  while (*at != C(0) && !IsDelimiter(*at, delimiters)) ++at;
  if (*at != C(0)) {
    *at = C(0);
    ++at;
  }
  *context = at;
  return token;
}

}  // namespace
}  // namespace ascend::securec

using namespace ascend::securec;  // NOLINT: the C entry points below

extern "C" {

SECUREC_EXPORT errno_t strcpy_s(char* strDest, size_t destMax,
                                const char* strSrc) {
  return Copy(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN);
}

SECUREC_EXPORT errno_t strncpy_s(char* strDest, size_t destMax,
                                 const char* strSrc, size_t count) {
  return CopyN(strDest, destMax, strSrc, count, SECUREC_STRING_MAX_LEN);
}

SECUREC_EXPORT errno_t strcat_s(char* strDest, size_t destMax,
                                const char* strSrc) {
  return Append(strDest, destMax, strSrc, 0, SECUREC_STRING_MAX_LEN, false);
}

SECUREC_EXPORT errno_t strncat_s(char* strDest, size_t destMax,
                                 const char* strSrc, size_t count) {
  return Append(strDest, destMax, strSrc, count, SECUREC_STRING_MAX_LEN, true);
}

SECUREC_EXPORT char* strtok_s(char* strToken, const char* strDelimit,
                              char** context) {
  return Token(strToken, strDelimit, context);
}

SECUREC_EXPORT char* gets_s(char* buffer, size_t destMax) {
  if (buffer == nullptr || destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) {
    return nullptr;
  }
  size_t n = 0;
  int c = EOF;
  while (n + 1 < destMax && (c = std::getchar()) != EOF && c != '\n') {
    buffer[n++] = static_cast<char>(c);
  }
  buffer[n] = '\0';
  if (c == EOF && (n == 0 || std::ferror(stdin))) {
    buffer[0] = '\0';
    return nullptr;
  }
  return buffer;
}

SECUREC_EXPORT errno_t wcscpy_s(wchar_t* strDest, size_t destMax,
                                const wchar_t* strSrc) {
  return Copy(strDest, destMax, strSrc, SECUREC_WCHAR_STRING_MAX_LEN);
}

SECUREC_EXPORT errno_t wcsncpy_s(wchar_t* strDest, size_t destMax,
                                 const wchar_t* strSrc, size_t count) {
  return CopyN(strDest, destMax, strSrc, count, SECUREC_WCHAR_STRING_MAX_LEN);
}

SECUREC_EXPORT errno_t wcscat_s(wchar_t* strDest, size_t destMax,
                                const wchar_t* strSrc) {
  return Append(strDest, destMax, strSrc, 0, SECUREC_WCHAR_STRING_MAX_LEN,
                false);
}

SECUREC_EXPORT errno_t wcsncat_s(wchar_t* strDest, size_t destMax,
                                 const wchar_t* strSrc, size_t count) {
  return Append(strDest, destMax, strSrc, count, SECUREC_WCHAR_STRING_MAX_LEN,
                true);
}

SECUREC_EXPORT wchar_t* wcstok_s(wchar_t* strToken, const wchar_t* strDelimit,
                                 wchar_t** context) {
  return Token(strToken, strDelimit, context);
}

}  // extern "C"
