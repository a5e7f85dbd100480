/*
 * securectype.h: the limits and helper macros of the secure C library
 * (securec.h), as CANN's toolkit ships them under include/.
 *
 * The byte and character limits below bound every destMax / count argument:
 * a larger value is a runtime-constraint violation (ERANGE), which catches
 * negative sizes passed through size_t. Part of ascendcl's own
 * implementation of the library (libc_sec.so); see securec.h.
 */
#ifndef ASCENDCL_SECUREC_SECURECTYPE_H_
#define ASCENDCL_SECUREC_SECURECTYPE_H_

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* The largest destMax / count of the memory functions (2 GiB - 1). */
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif

/* The largest destMax / count of the string functions, in characters. */
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif

/* The same limits counted in wide characters. */
#ifndef SECUREC_WCHAR_MEM_MAX_LEN
#define SECUREC_WCHAR_MEM_MAX_LEN (SECUREC_MEM_MAX_LEN / sizeof(wchar_t))
#endif
#ifndef SECUREC_WCHAR_STRING_MAX_LEN
#define SECUREC_WCHAR_STRING_MAX_LEN (SECUREC_STRING_MAX_LEN / sizeof(wchar_t))
#endif

/* snprintf_truncated_s / vsnprintf_truncated_s are provided. */
#ifndef SECUREC_SNPRINTF_TRUNCATED
#define SECUREC_SNPRINTF_TRUNCATED 1
#endif

/* Branch hints some callers use. */
#ifndef SECUREC_LIKELY
#if defined(__GNUC__)
#define SECUREC_LIKELY(x) __builtin_expect(!!(x), 1)
#define SECUREC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SECUREC_LIKELY(x) (x)
#define SECUREC_UNLIKELY(x) (x)
#endif
#endif

#endif /* ASCENDCL_SECUREC_SECURECTYPE_H_ */
