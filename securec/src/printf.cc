// The formatted-output functions of securec.h. The C library formats; these
// functions add the argument checks, refuse "%n", and apply the truncation
// rules of each function (securec.h).
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <cwchar>

#include "securec.h"
#include "securec/src/internal.h"

namespace ascend::securec {
namespace {

// Whether `format` has a %n conversion (with any flags, width, precision or
// length): the library never writes through an argument of the caller's.
template <typename C>
bool HasCountConversion(const C* format) {
  static const char kModifiers[] = "-+ #0123456789.*'hlLqjztI";
  for (const C* p = format; *p != C(0); ++p) {
    if (*p != C('%')) continue;
    ++p;
    while (*p != C(0) && static_cast<unsigned long>(*p) < 128 &&
           std::strchr(kModifiers, static_cast<char>(*p)) != nullptr) {
      ++p;
    }
    if (*p == C('n')) return true;
    if (*p == C(0)) return false;
  }
  return false;
}

// True (and strDest reset where it can be) when the arguments are unusable.
template <typename C>
bool BadArguments(C* dest, size_t dest_max, const C* format, size_t limit) {
  const bool usable = dest != nullptr && dest_max > 0 && dest_max <= limit;
  if (usable && format != nullptr && !HasCountConversion(format)) return false;
  if (usable) dest[0] = C(0);
  return true;
}

int Fail(char* dest) {
  dest[0] = '\0';
  return -1;
}

}  // namespace
}  // namespace ascend::securec

using ascend::securec::BadArguments;
using ascend::securec::Fail;

extern "C" {

SECUREC_EXPORT int vsprintf_s(char* strDest, size_t destMax, const char* format,
                              va_list argList) {
  if (BadArguments(strDest, destMax, format, SECUREC_STRING_MAX_LEN)) {
    return -1;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || static_cast<size_t>(n) >= destMax) return Fail(strDest);
  return n;
}

SECUREC_EXPORT int sprintf_s(char* strDest, size_t destMax, const char* format,
                             ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int vsnprintf_s(char* strDest, size_t destMax, size_t count,
                               const char* format, va_list argList) {
  if (BadArguments(strDest, destMax, format, SECUREC_STRING_MAX_LEN)) {
    return -1;
  }
  if (count > SECUREC_STRING_MAX_LEN - 1) return Fail(strDest);
  if (destMax > count) {
    // Cut to count characters: the cut string stays, the result says -1.
    const int n = std::vsnprintf(strDest, count + 1, format, argList);
    if (n < 0) return Fail(strDest);
    return static_cast<size_t>(n) > count ? -1 : n;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || static_cast<size_t>(n) >= destMax) return Fail(strDest);
  return n;
}

SECUREC_EXPORT int snprintf_s(char* strDest, size_t destMax, size_t count,
                              const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int vsnprintf_truncated_s(char* strDest, size_t destMax,
                                         const char* format, va_list argList) {
  if (BadArguments(strDest, destMax, format, SECUREC_STRING_MAX_LEN)) {
    return -1;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0) return Fail(strDest);
  if (static_cast<size_t>(n) >= destMax) return static_cast<int>(destMax - 1);
  return n;
}

SECUREC_EXPORT int snprintf_truncated_s(char* strDest, size_t destMax,
                                        const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_truncated_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

SECUREC_EXPORT int vswprintf_s(wchar_t* strDest, size_t destMax,
                               const wchar_t* format, va_list argList) {
  if (BadArguments(strDest, destMax, format, SECUREC_WCHAR_STRING_MAX_LEN)) {
    return -1;
  }
  // vswprintf answers -1 when the output does not fit.
  const int n = std::vswprintf(strDest, destMax, format, argList);
  if (n < 0 || static_cast<size_t>(n) >= destMax) {
    strDest[0] = L'\0';
    return -1;
  }
  return n;
}

SECUREC_EXPORT int swprintf_s(wchar_t* strDest, size_t destMax,
                              const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vswprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
