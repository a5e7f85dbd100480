/*
 * acl_dump.h: the data dump's C API, CANN's names and values
 * (docs/zh/api_ref/18_dump_configuration.md). The functions live in
 * libascend_dump.so, which programs link beside libascendcl.so (which
 * exports them too, so the weak declarations below resolve even when a
 * linker drops libascend_dump.so as not needed); the dump
 * itself is configured with aclInit's config file or aclmdlInitDump /
 * aclmdlSetDump / aclmdlFinalizeDump (acl_rt.h). What this runtime dumps
 * on the simulator, and where, is DESIGN.md §5.25.
 *
 * Codes are aclError values (acl_base.h). Every function is thread-safe.
 */
#ifndef ASCENDCL_ACL_ACL_DUMP_H_
#define ASCENDCL_ACL_ACL_DUMP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#if defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER)
#define ACL_DUMP_API __declspec(dllexport)
#define ACL_DUMP_WEAK
#else
#define ACL_DUMP_API __attribute__((visibility("default")))
#define ACL_DUMP_WEAK __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/* One piece of a dump file handed to a registered callback instead of being
 * written: fileName is the absolute path the file would have had, offset
 * where the piece goes in it, isLastChunk 1 on the file's last piece; flag
 * is reserved (0). The callback's second argument is
 * sizeof(acldumpChunk) + bufLen. */
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  uint32_t bufLen;
  uint32_t isLastChunk;
  int64_t offset;
  int32_t flag;
  uint8_t dataBuf[];
} acldumpChunk;

/* Data dump files go to messageCallback instead of the disk, from the
 * thread of the stream that produced them (callbacks may run concurrently
 * for different streams; a non-zero answer drops the rest of that file).
 * flag must be 0 (no files besides the callback). NULL messageCallback or a
 * flag other than 0: ACL_ERROR_FAILURE (500001). A second registration while
 * one is registered succeeds and changes nothing (logged), as CANN's does.
 * The chunk is valid during the call only. */
ACL_DUMP_API aclError acldumpRegCallback(
    int32_t (*const messageCallback)(const acldumpChunk *, int32_t),
    int32_t flag);
/* Removes the callback (nothing when none is registered): later dumps go to
 * files again. */
ACL_DUMP_API void acldumpUnregCallback(void);

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/* Starts recording, for each operator executed (aclnn), one JSON file per
 * distinct signature (type, input and output data types, formats and
 * shapes) in directory path (created if missing). dumpType must include
 * ACL_OP_DUMP_OP_AICORE_ARGS. ACL_ERROR_FAILURE (500001): path NULL or
 * empty, dumpType without that bit, recording already started, a path that
 * cannot be created, is not a directory or is not readable and writable. */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType,
                                                const char *path);
/* Stops recording when dumpType includes ACL_OP_DUMP_OP_AICORE_ARGS;
 * succeeds (changing nothing) otherwise or when not recording. */
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
  AIC_ERR_BRIEF_DUMP = 1,  /* exception dump, light */
  AIC_ERR_NORM_DUMP = 2,   /* exception dump with the operator's tensors */
  AIC_ERR_DETAIL_DUMP = 3, /* exception dump with AI Core state */
  DATA_DUMP = 4,           /* model and single-operator data dump */
  OVERFLOW_DUMP = 5        /* dump of operators that overflowed */
} acldumpType;

/* Where dumps of dumpType go: DATA_DUMP and OVERFLOW_DUMP the configured
 * dump_path's time-stamped directory (<dump_path>/<YYYYmmddHHMMSS>), the
 * exception types <root>/extra-info/data-dump; the directory is created.
 * NULL when that kind of dump is not enabled or dumpType is not an
 * acldumpType. The string stays valid for the life of the process. */
ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT,
  ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
  ACL_DUMP_ADDR_PTR = 0, /* tensorAddr holds the data address */
  ACL_DUMP_ADDR_PTR_PTR, /* tensorAddr holds the address of that */
  ACL_DUMP_ADDR_RAW      /* tensorAddr is the data address */
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST,
  ACL_DUMP_PLACEMENT_END /* not a placement: the enumeration's end */
} acldumpTensorPlacement;

/* A tensor to dump: its role, byte size, aclFormat, aclDataType, address
 * (how to read it: addrType, placement), offset among the operator's
 * arguments, and shapes (shapeNum / originShapeNum valid dimensions). */
typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;
  int32_t format;
  int32_t dataType;
  int64_t *tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;
  uint32_t shapeNum;
  uint32_t originShapeNum;
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* Writes tensors of the current device to
 * <exception dump path>/<fileName>.custom.<YYYYmmddHHMMSSmmm> (a dump file;
 * userTag, when not NULL or empty, as its "user_tag" attribute); fileName
 * may name subdirectories, which are created. Exception dump must be
 * enabled (dump_scene, or the environment variable ASCEND_DUMP_SCENE).
 * ACL_ERROR_INVALID_PARAM (100000): fileName NULL, empty or with a ".."
 * segment, tensors NULL, tensorCount 0, a tensor with shapeNum or
 * originShapeNum above ACL_DUMP_MAX_SHAPE_NUM, a type outside
 * acldumpTensorType, addrType not ACL_DUMP_ADDR_RAW, placement not
 * ACL_DUMP_PLACEMENT_DEVICE, a NULL tensorAddr or a tensorSize of 0.
 * ACL_ERROR_FAILURE (500001): exception dump not enabled, no current
 * device, a tensor outside the device's live memory, or the file cannot be
 * written (none is left behind). */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError
acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                         const acldumpTensorInfo *tensors, size_t tensorCount);

/* Copies the exception dump directory of the current device,
 * <root>/extra-info/data-dump/<deviceId> (absolute, created), into path.
 * ACL_ERROR_INVALID_PARAM (100000): path NULL, maxLen below 2, or maxLen
 * too small for the path and its terminator. ACL_ERROR_FAILURE (500001):
 * exception dump not enabled, or no current device. */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError
acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_DUMP_H_ */
