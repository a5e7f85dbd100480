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

/* ACL_DEPRECATED with a message naming the replacement. */
#if defined(__GNUC__) || defined(__clang__)
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED_MESSAGE(message)
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
 * name ("Ascend910B1", or $ACLSIM_SOC_NAME when set), or the name the
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

/* ---------------------------------------------------------------------------
 * Handle types of the wider runtime surface. All are opaque: the runtime
 * creates and owns what they point to.
 * ------------------------------------------------------------------------- */

typedef void *aclrtStream;
typedef void *aclrtContext;
typedef void *aclrtEvent;
typedef void *aclrtNotify;
typedef void *aclmdlRITask;
typedef void *aclrtCntNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;
typedef void *aclrtTaskGrp;
/* A host-side (pointer, size) pair describing a buffer; see
 * aclCreateDataBuffer. */
typedef struct aclDataBuffer aclDataBuffer;

/* Further generic codes: models, operators, queues, subscriptions,
 * profiling and dump. This runtime returns only those its functions'
 * comments name. */
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

/* Tensor memory layouts. This runtime has no operators, so it only carries
 * the values through. */
typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47,
  ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
  ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
  ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
  ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
  ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
} aclFormat;

/* Severity of an aclAppLog message. */
typedef enum {
  ACL_DEBUG = 0,
  ACL_INFO = 1,
  ACL_WARNING = 2,
  ACL_ERROR = 3
} aclLogLevel;

/* Where a model's or operator's memory lives. */
typedef enum {
  ACL_MEMTYPE_DEVICE = 0,
  ACL_MEMTYPE_HOST = 1,
  ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2
} aclMemType;

/* System parameters of aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt. */
typedef enum {
  ACL_OPT_DETERMINISTIC = 0,
  ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
  ACL_OPT_STRONG_CONSISTENCY ACL_DEPRECATED = 2, /* ACL_OPT_DETERMINISTIC 2 */
  ACL_OPT_ENABLE_KERNEL_EARLY_START = 3
} aclSysParamOpt;

/* Device properties of aclGetDeviceCapability. */
typedef enum {
  ACL_DEVICE_INFO_UNDEFINED = -1,
  ACL_DEVICE_INFO_AI_CORE_NUM = 0,
  ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
  ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/* ---------------------------------------------------------------------------
 * Data buffers: host-side descriptors of a (pointer, size) pair, used to
 * hand buffers to model and operator calls. Implemented in acl/api; none
 * needs aclInit, and the runtime never reads or frees the memory described.
 * ------------------------------------------------------------------------- */

/* A new descriptor of data and size (any values, NULL and 0 included).
 * Returns NULL only when the descriptor cannot be allocated. Release it with
 * aclDestroyDataBuffer. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
/* Frees the descriptor (not the memory it describes).
 * Errors: ACL_ERROR_INVALID_PARAM (100000) for NULL. */
ACL_FUNC_VISIBILITY aclError
aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
/* Points the descriptor at data and size.
 * Errors: 100000 for a NULL dataBuffer. */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer,
                                                 void *data, size_t size);
/* The described pointer; NULL for a NULL dataBuffer. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);
/* The described size truncated to 32 bits; 0 for NULL. Use
 * aclGetDataBufferSizeV2. */
ACL_DEPRECATED_MESSAGE("use aclGetDataBufferSizeV2")
ACL_FUNC_VISIBILITY uint32_t
aclGetDataBufferSize(const aclDataBuffer *dataBuffer);
/* The described size; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t
aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/* ---------------------------------------------------------------------------
 * Application logging and device properties
 * ------------------------------------------------------------------------- */

/* Writes one line, printf-formatted from fmt, to the runtime's log (glog,
 * stderr) as "func: text" at the caller's file and line: ACL_ERROR as ERROR,
 * ACL_WARNING as WARNING, ACL_INFO as INFO, ACL_DEBUG as INFO shown only at
 * debug level. What shows follows ASCEND_GLOBAL_LOG_LEVEL as for the
 * runtime's own lines (by default ERROR only), also before aclInit. NULL
 * func and file are allowed; a NULL fmt or a logLevel outside aclLogLevel
 * writes nothing. Callable from any thread; never fails. */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func,
                                   const char *file, uint32_t line,
                                   const char *fmt, ...);

/* aclAppLog with the calling function, file and line filled in. */
#define ACL_APP_LOG(level, fmt, ...) \
  aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* Writes a hardware figure of the simulated chip to *value: AI Cores (24),
 * vector cores (48) or L2 bytes (192 MiB) (DESIGN.md §5.12).
 * ACL_ERROR_INVALID_PARAM (100000): value NULL, deviceId not below the
 * device count, or deviceInfo not one of those three. */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId,
                                                    aclDeviceInfo deviceInfo,
                                                    int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_BASE_RT_H_ */
