/*
 * securec.h: the "secure C" library CANN's programs and frameworks link
 * (libc_sec.so): bounds-checked memory, string, formatted-output and
 * formatted-input functions with the C11 Annex K names, plus Huawei's
 * snprintf_s / snprintf_truncated_s. This is ascendcl's own implementation,
 * written from the public semantics (DESIGN.md §5.25); link
 * -lc_sec (PREFIX/lib64/libc_sec.so) and include "securec.h".
 *
 * Rules every function follows:
 *  - A destination size (destMax) of 0, or above the limit of
 *    securectype.h (SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN), is ERANGE
 *    and touches nothing.
 *  - A NULL destination is EINVAL and touches nothing.
 *  - Any other violation resets the destination before returning, and the
 *    code says so (..._AND_RESET): the memory functions zero all destMax
 *    bytes (memset_s fills them with its value), the string functions store
 *    '\0' in strDest[0].
 *  - The formatted-output functions return the number of characters written
 *    (without the terminator) or -1; on -1 with a usable destination,
 *    strDest[0] is '\0'. "%n" is refused (-1).
 *  - The formatted-input functions return the number of fields assigned, or
 *    -1 (EOF) for NULL arguments or an input failure before the first
 *    conversion. %s, %c and %[ take a buffer and its size in characters (a
 *    size_t, of which the low 32 bits count, so an int works too); a field
 *    that does not fit (with its terminator, for %s and %[) leaves the
 *    buffer empty and ends the scan.
 *
 * Every function is thread-safe (strtok_s keeps its position in *context).
 */
#ifndef ASCENDCL_SECUREC_SECUREC_H_
#define ASCENDCL_SECUREC_SECUREC_H_

#include <errno.h>
#include <stdarg.h>

#include "securectype.h"

#ifndef SECUREC_DEFINED_ERRNO_TYPE
#define SECUREC_DEFINED_ERRNO_TYPE
#ifndef errno_t
typedef int errno_t;
#endif
#endif

/* Success. */
#ifndef EOK
#define EOK 0
#endif
/* A NULL argument; the destination could not be reset. */
#ifndef EINVAL
#define EINVAL 22
#endif
/* A NULL source or an unterminated destination; the destination was reset. */
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
/* destMax is 0 or too large; the destination could not be reset. */
#ifndef ERANGE
#define ERANGE 34
#endif
/* The data does not fit; the destination was reset. */
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
/* Source and destination overlap; the destination was reset. */
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

#ifndef SECUREC_API
#define SECUREC_API extern
#endif

#if defined(__GNUC__)
#define SECUREC_ATTRIBUTE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SECUREC_ATTRIBUTE(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string; *verNumber (if not NULL) gets its number. */
SECUREC_API const char *GetHwSecureCVersion(unsigned short *verNumber);

/* --- Memory --------------------------------------------------------------
 * memset_s: fills count bytes of dest with (unsigned char)c. count > destMax:
 * fills all destMax bytes, ERANGE_AND_RESET. */
SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
/* memcpy_s: copies count bytes. NULL src: EINVAL_AND_RESET; count > destMax:
 * ERANGE_AND_RESET; overlapping ranges (dest != src): EOVERLAP_AND_RESET;
 * count 0 or dest == src: EOK and nothing copied. */
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src,
                             size_t count);
/* memmove_s: memcpy_s for ranges that may overlap. */
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src,
                              size_t count);
SECUREC_API errno_t wmemcpy_s(wchar_t *dest, size_t destMax, const wchar_t *src,
                              size_t count);
SECUREC_API errno_t wmemmove_s(wchar_t *dest, size_t destMax,
                               const wchar_t *src, size_t count);

/* --- Strings -------------------------------------------------------------
 * strcpy_s: copies strSrc and its terminator. NULL strSrc: EINVAL_AND_RESET;
 * strlen(strSrc) >= destMax: ERANGE_AND_RESET; overlap: EOVERLAP_AND_RESET;
 * strDest == strSrc: EOK. */
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
/* strncpy_s: copies at most count characters and always terminates. count
 * above SECUREC_STRING_MAX_LEN: ERANGE_AND_RESET; count 0: strDest is ""
 * (EOK); the copied characters plus the terminator must fit
 * (ERANGE_AND_RESET). */
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc,
                              size_t count);
/* strcat_s: appends strSrc. strDest not terminated within destMax:
 * EINVAL_AND_RESET; the result does not fit, or strDest == strSrc:
 * ERANGE_AND_RESET; overlap: EOVERLAP_AND_RESET. */
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
/* strncat_s: appends at most count characters of strSrc; codes as strcat_s,
 * count above SECUREC_STRING_MAX_LEN: ERANGE_AND_RESET. */
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc,
                              size_t count);
/* strtok_s: the next token of strToken (or, when NULL, of *context) split at
 * any character of strDelimit, or NULL when none is left or strDelimit /
 * context (or both strToken and *context) is NULL. */
SECUREC_API char *strtok_s(char *strToken, const char *strDelimit,
                           char **context);
/* gets_s: reads one line of stdin, at most destMax - 1 characters of it
 * (the rest stays in stdin), without its newline; NULL (buffer[0] '\0') at
 * the end of input before any character, on a read error, or for a NULL
 * buffer or a bad destMax. */
SECUREC_API char *gets_s(char *buffer, size_t destMax);
SECUREC_API errno_t wcscpy_s(wchar_t *strDest, size_t destMax,
                             const wchar_t *strSrc);
SECUREC_API errno_t wcsncpy_s(wchar_t *strDest, size_t destMax,
                              const wchar_t *strSrc, size_t count);
SECUREC_API errno_t wcscat_s(wchar_t *strDest, size_t destMax,
                             const wchar_t *strSrc);
SECUREC_API errno_t wcsncat_s(wchar_t *strDest, size_t destMax,
                              const wchar_t *strSrc, size_t count);
SECUREC_API wchar_t *wcstok_s(wchar_t *strToken, const wchar_t *strDelimit,
                              wchar_t **context);

/* --- Formatted output ----------------------------------------------------
 * sprintf_s / vsprintf_s: the whole output must fit with its terminator,
 * else strDest is "" and -1. */
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format,
                          ...) SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format,
                           va_list argList) SECUREC_ATTRIBUTE(3, 0);
/* snprintf_s / vsnprintf_s: writes at most count characters. With
 * count < destMax a longer output is cut to count characters, terminated,
 * and -1 is returned; with count >= destMax an output that does not fit
 * destMax leaves strDest "" and -1. count above SECUREC_STRING_MAX_LEN - 1:
 * -1. */
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count,
                           const char *format, ...) SECUREC_ATTRIBUTE(4, 5);
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count,
                            const char *format, va_list argList)
    SECUREC_ATTRIBUTE(4, 0);
/* snprintf_truncated_s / vsnprintf_truncated_s: a longer output is cut to
 * destMax - 1 characters and that count is returned. */
SECUREC_API int snprintf_truncated_s(char *strDest, size_t destMax,
                                     const char *format, ...)
    SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsnprintf_truncated_s(char *strDest, size_t destMax,
                                      const char *format, va_list argList)
    SECUREC_ATTRIBUTE(3, 0);
SECUREC_API int swprintf_s(wchar_t *strDest, size_t destMax,
                           const wchar_t *format, ...);
SECUREC_API int vswprintf_s(wchar_t *strDest, size_t destMax,
                            const wchar_t *format, va_list argList);

/* --- Formatted input -----------------------------------------------------
 * Conversions: d i u o x X p n, a e f g (and upper case), s c [ with the
 * length modifiers hh h l ll j z t L, '*' to skip and a field width. */
SECUREC_API int sscanf_s(const char *buffer, const char *format, ...);
SECUREC_API int vsscanf_s(const char *buffer, const char *format,
                          va_list argList);
SECUREC_API int fscanf_s(FILE *stream, const char *format, ...);
SECUREC_API int vfscanf_s(FILE *stream, const char *format, va_list argList);
SECUREC_API int scanf_s(const char *format, ...);
SECUREC_API int vscanf_s(const char *format, va_list argList);

#ifdef __cplusplus
}
#endif

/* The "performance" spellings some callers use: the same functions. */
#define memset_sp(dest, destMax, c, count) memset_s(dest, destMax, c, count)
#define memcpy_sp(dest, destMax, src, count) memcpy_s(dest, destMax, src, count)
#define strcpy_sp(dest, destMax, src) strcpy_s(dest, destMax, src)
#define strncpy_sp(dest, destMax, src, count) \
  strncpy_s(dest, destMax, src, count)
#define strcat_sp(dest, destMax, src) strcat_s(dest, destMax, src)
#define strncat_sp(dest, destMax, src, count) \
  strncat_s(dest, destMax, src, count)

#endif /* ASCENDCL_SECUREC_SECUREC_H_ */
