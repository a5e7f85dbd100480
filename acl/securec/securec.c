/* libc_sec.so: the functions of securec.h (see there). */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "securec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int Overlap(const void *a, size_t a_len, const void *b, size_t b_len) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return x < y + b_len && y < x + a_len;
}

/* The destination checks every function starts with; EOK when it passes. */
static errno_t CheckDest(const void *dest, size_t destMax, size_t max) {
  if (destMax == 0 || destMax > max) return ERANGE;
  if (dest == NULL) return EINVAL;
  return EOK;
}

errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
  errno_t bad = CheckDest(dest, destMax, SECUREC_MEM_MAX_LEN);
  if (bad != EOK) return bad;
  if (count > destMax) {
    memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  memset(dest, c, count);
  return EOK;
}

static errno_t Copy(void *dest, size_t destMax, const void *src, size_t count,
                    int overlap_ok) {
  errno_t bad = CheckDest(dest, destMax, SECUREC_MEM_MAX_LEN);
  if (bad != EOK) return bad;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (!overlap_ok && Overlap(dest, count, src, count)) {
    memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  memmove(dest, src, count);
  return EOK;
}

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  return Copy(dest, destMax, src, count, 0);
}

errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
  return Copy(dest, destMax, src, count, 1);
}

/* Writes n bytes of src after the first `at` bytes of dest, terminated. */
static errno_t PutString(char *dest, size_t destMax, size_t at, const char *src,
                         size_t n) {
  if (at + n + 1 > destMax) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (Overlap(dest, destMax, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  memcpy(dest + at, src, n);
  dest[at + n] = '\0';
  return EOK;
}

static errno_t StringOp(char *dest, size_t destMax, const char *src,
                        size_t count, int append) {
  errno_t bad = CheckDest(dest, destMax, SECUREC_STRING_MAX_LEN);
  if (bad != EOK) return bad;
  if (src == NULL) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  size_t at = 0;
  if (append) {
    at = strnlen(dest, destMax);
    if (at == destMax) { /* no terminator within destMax */
      dest[0] = '\0';
      return EINVAL_AND_RESET;
    }
  }
  return PutString(dest, destMax, at, src, strnlen(src, count));
}

errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc) {
  return StringOp(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN, 0);
}

errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc,
                  size_t count) {
  return StringOp(strDest, destMax, strSrc, count, 0);
}

errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc) {
  return StringOp(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN, 1);
}

errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc,
                  size_t count) {
  return StringOp(strDest, destMax, strSrc, count, 1);
}

int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format,
                va_list argList) {
  if (CheckDest(strDest, destMax, SECUREC_STRING_MAX_LEN) != EOK) return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  /* What may be written: count characters, and the terminator in destMax. */
  size_t room = count < destMax ? count + 1 : destMax;
  int n = vsnprintf(strDest, room, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return (size_t)n < room ? n : -1;
}

int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format,
               ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

int vsprintf_s(char *strDest, size_t destMax, const char *format,
               va_list argList) {
  if (CheckDest(strDest, destMax, SECUREC_STRING_MAX_LEN) != EOK) return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  int n = vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || (size_t)n >= destMax) {
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

int sprintf_s(char *strDest, size_t destMax, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}
