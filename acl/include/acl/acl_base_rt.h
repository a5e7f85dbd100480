/*
 * Basic ACL types shared by every ACL header: aclError, the generic ACL error
 * codes, the visibility macro and small scalar types.
 *
 * Error-code numbering: 1000xx invalid input, 2000xx resource or feature,
 * 5000xx internal failure; runtime codes (ACL_ERROR_RT_*) are in
 * error_codes/rt_error_codes.h and are returned unchanged through ACL.
 */
#ifndef ASCENDCL_ACL_ACL_BASE_RT_H_
#define ASCENDCL_ACL_ACL_BASE_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif

#ifdef __GNUC__
#define ACL_DEPRECATED __attribute__((deprecated))
#else
#define ACL_DEPRECATED
#endif

typedef int aclError;
typedef uint16_t aclFloat16;

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;

static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;

static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* ---------------------------------------------------------------------------
 * Data types, CANN attributes, float16 conversion and the SoC name
 * (system information; implemented in acl/sysinfo). None of these needs
 * aclInit; all are callable from any thread.
 * ------------------------------------------------------------------------- */

typedef enum aclDataType {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33,
  ACL_HIFLOAT8 = 34,
  ACL_FLOAT8_E5M2 = 35,
  ACL_FLOAT8_E4M3FN = 36,
  ACL_FLOAT8_E8M0 = 37,
  ACL_FLOAT6_E3M2 = 38,
  ACL_FLOAT6_E2M3 = 39,
  ACL_FLOAT4_E2M1 = 40,
  ACL_FLOAT4_E1M2 = 41
} aclDataType;

typedef enum aclCannAttr {
  ACL_CANN_ATTR_UNDEFINED = -1,
  ACL_CANN_ATTR_INF_NAN = 0,    /* overflow yields Inf/NaN (no saturation) */
  ACL_CANN_ATTR_BF16 = 1,       /* bf16 computation */
  ACL_CANN_ATTR_JIT_COMPILE = 2 /* operators compiled just in time */
} aclCannAttr;

/* Bytes per element of dataType: 1 for INT8, UINT8, BOOL, HIFLOAT8 and the
 * FLOAT8 types; 2 for FLOAT16, BF16, INT16, UINT16; 4 for FLOAT, INT32,
 * UINT32, COMPLEX32; 8 for INT64, UINT64, DOUBLE, COMPLEX64; 16 for
 * COMPLEX128. 0 for types without a whole-byte element size (STRING, INT4,
 * UINT1, the FLOAT6 and FLOAT4 types), for ACL_DT_UNDEFINED and for values
 * that are not an aclDataType. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* IEEE 754 binary32 -> binary16, rounding to nearest, ties to even. Values
 * that round beyond 65504 become +-Inf; values below half the smallest
 * subnormal (2^-25) become +-0. NaN stays NaN with its sign and the top ten
 * bits of its payload (signalling NaNs are not quietened; a NaN whose top
 * payload bits are all zero gets the quiet bit). */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/* IEEE 754 binary16 -> binary32. Exact for every input (subnormals, +-0,
 * +-Inf); NaN keeps its sign and payload, so
 * aclFloatToFloat16(aclFloat16ToFloat(h)) == h for all 65536 values of h. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/* Name of the SoC the active device backend reports: the simulator's own
 * name ("Ascend910B_sim", or $ACLSIM_SOC_NAME when set), or the name the
 * Ascend driver reports for the npu backend. NULL when no backend is
 * available or it reports no name. Needs no aclInit. The string is owned by
 * the runtime and valid until the process exits. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/* The CANN attributes this runtime supports: *cannAttrList points to a
 * runtime-owned array of *num entries, valid until the process exits (never
 * NULL; do not free it). Exactly the attributes for which
 * aclGetCannAttribute reports 1 are listed: ACL_CANN_ATTR_INF_NAN (work on
 * simulated devices runs on the host CPU, whose arithmetic overflows to
 * Inf/NaN). BF16 and JIT_COMPILE are not supported: there is no operator
 * library and no operator compiler. Errors: ACL_ERROR_INVALID_PARAM (100000)
 * when either pointer is NULL. */
ACL_FUNC_VISIBILITY aclError
aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);

/* *value = 1 if cannAttr is supported, else 0. Errors: 100000 for a NULL
 * value or a cannAttr that is not one of the ACL_CANN_ATTR_* values above
 * (ACL_CANN_ATTR_UNDEFINED included). */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr,
                                                 int32_t *value);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_BASE_RT_H_ */
