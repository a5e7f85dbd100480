/*
 * The bounds-checked C functions of the secure C library CANN ships as
 * libc_sec.so (securec.h), as CANN's samples use them: the destination's
 * size travels with every copy, fill and format, and a call that would
 * overrun it fails instead. Defined by libc_sec.so (DESIGN.md §5.24).
 *
 *   char name[16];
 *   if (strcpy_s(name, sizeof name, input) != EOK) ...
 *   memset_s(buffer, sizeof buffer, 0, sizeof buffer);
 *
 * Codes: EOK (0); EINVAL for a NULL destination; ERANGE for a destination
 * size of 0 or above SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN. The
 * *_AND_RESET codes say the destination was cleared (the whole of a memory
 * destination filled with 0, memset_s filling it with c; a string
 * destination made "") because of a NULL source (EINVAL_AND_RESET), a
 * source that does not fit (ERANGE_AND_RESET) or overlapping buffers
 * (EOVERLAP_AND_RESET). The formatting functions return the characters
 * written, or -1 (the destination then holds "" for sprintf_s, or what fit
 * for snprintf_s). Thread-safe.
 */
#ifndef ASCENDCL_SECUREC_H_
#define ASCENDCL_SECUREC_H_

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

typedef int errno_t;

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#define EINVAL_AND_RESET (22 | 128)
#define ERANGE_AND_RESET (34 | 128)
#define EOVERLAP_AND_RESET (54 | 128)

#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src,
                             size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src,
                              size_t count);
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
/* Copies at most count characters of strSrc, then a terminator. */
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc,
                              size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc,
                              size_t count);
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format,
                          ...) __attribute__((format(printf, 3, 4)));
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format,
                           va_list argList)
    __attribute__((format(printf, 3, 0)));
/* Writes at most count characters (and a terminator); -1 when the output
 * was cut, by count or by destMax. */
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count,
                           const char *format, ...)
    __attribute__((format(printf, 4, 5)));
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count,
                            const char *format, va_list argList)
    __attribute__((format(printf, 4, 0)));

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_SECUREC_H_ */
