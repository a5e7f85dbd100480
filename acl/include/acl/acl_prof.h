/*
 * Profiling (CANN's acl_prof.h): collection of the task timeline into files,
 * msproftx marks and ranges, and the subscription to the operators of a
 * model. Defined by libmsprofiler.so (link it with libascendcl.so and
 * libprofapi.so); DESIGN.md §5.24 describes what is collected on the
 * simulator and the files written.
 *
 *   aclprofInit("./prof", 6);
 *   uint32_t devices[] = {0};
 *   aclprofConfig *cfg = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, NULL,
 *                                            ACL_PROF_TASK_TIME |
 *                                            ACL_PROF_MSPROFTX);
 *   aclprofStart(cfg);
 *   ... work on device 0 ...
 *   aclprofStop(cfg);           // writes ./prof/PROF_.../
 *   aclprofDestroyConfig(cfg);
 *   aclprofFinalize();
 *
 * Codes every function here may return, besides those named per function:
 * ACL_ERROR_INVALID_PARAM (100000) for a NULL or malformed argument. A call
 * that fails changes nothing. All functions are thread-safe.
 */
#ifndef ASCENDCL_ACL_ACL_PROF_H_
#define ASCENDCL_ACL_ACL_PROF_H_

#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What aclprofCreateConfig's dataTypeConfig asks to collect (bits). */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_API_STATS 0x400000000ULL
#define ACL_PROF_AICORE_SHAPE 0x800000000ULL

/* Older bounds of operator names and types in subscription data (kept for
 * old code; aclprofGetOpTypeLen / aclprofGetOpNameLen give the real size).
 * Here they are also the most a record keeps, terminator included. */
#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65

/* Dimensions an aclprofTensor carries (fixed: it sizes the struct). */
#ifndef ACL_PROF_TENSOR_DATA_SHAPE_LEN
#define ACL_PROF_TENSOR_DATA_SHAPE_LEN 8
#endif

/* AI Core counter groups. The simulator has no hardware counters: the
 * choice is validated and recorded, and no counter data is written. */
typedef enum {
  ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
  ACL_AICORE_PIPE_UTILIZATION = 1,
  ACL_AICORE_MEMORY_BANDWIDTH = 2,
  ACL_AICORE_L0B_AND_WIDTH = 3,
  ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
  ACL_AICORE_MEMORY_UB = 5,
  ACL_AICORE_L2_CACHE = 6,
  ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
  ACL_AICORE_MEMORY_ACCESS = 8,
  ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

/* aclprofGetStepTimestamp: the beginning or the end of an iteration. */
typedef enum { ACL_STEP_START = 0, ACL_STEP_END = 1 } aclprofStepTag;

/* What a subscription record describes. */
typedef enum {
  ACL_SUBSCRIBE_OP = 0,
  ACL_SUBSCRIBE_SUBGRAPH = 1,
  ACL_SUBSCRIBE_OP_THREAD = 2,
  ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

/* aclprofGetOpAttriValue's attributes. */
typedef enum {
  ACL_SUBSCRIBE_ATTRI_THREADID = 0,
  ACL_SUBSCRIBE_ATTRI_NONE
} aclprofSubscribeOpAttri;

/* aclprofSetConfig's keys. */
typedef enum {
  ACL_PROF_ARGS_MIN = 0,
  ACL_PROF_STORAGE_LIMIT = 1,
  ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
  ACL_PROF_LLC_MODE = 4,
  ACL_PROF_SYS_IO_FREQ = 5,
  ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
  ACL_PROF_DVPP_FREQ = 7,
  ACL_PROF_HOST_SYS = 8,
  ACL_PROF_HOST_SYS_USAGE = 9,
  ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
  ACL_PROF_LOW_POWER_FREQ = 11,
  ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
  ACL_PROF_SYS_CPU_FREQ = 13,
  ACL_PROF_OPTYPE = 14,
  ACL_PROF_NTS_METRICS = 15,
  ACL_PROF_PATH = 16,
  ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

/* aclprofEventAttributes.messageType. */
typedef enum { ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0 } aclprofMessageType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

/* Tensor information of aclprofRangePushEx. A program that defined these
 * three structs itself defines ACL_PROF_TENSOR_INFO_DEFINED first. The
 * layout does not change; later versions only append to
 * aclprofEventAttributes and raise ACL_PROF_EVENT_ATTR_VERSION. */
#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED

#define ACL_PROF_EVENT_ATTR_VERSION 1

typedef struct aclprofTensor {
  uint32_t type;     /* 0: input, 1: output */
  uint32_t format;   /* aclFormat */
  uint32_t dataType; /* aclDataType */
  uint32_t shapeDim; /* dimensions used in shape, at most 8 */
  uint32_t shape[ACL_PROF_TENSOR_DATA_SHAPE_LEN];
} aclprofTensor;

typedef struct aclprofTensorInfo {
  uint64_t opNameId; /* aclprofStr2Id of the operator's name */
  uint64_t opTypeId; /* and of its type */
  uint32_t resv;
  uint32_t tensorNum;
  uint32_t kernelType;
  uint32_t blockNums;
  void *stream;
  aclprofTensor *tensors; /* tensorNum of them */
} aclprofTensorInfo;

typedef struct aclprofEventAttributes {
  uint16_t version; /* ACL_PROF_EVENT_ATTR_VERSION */
  uint16_t size;    /* sizeof(aclprofEventAttributes) */
  uint32_t messageType;
  union Message {
    aclprofTensorInfo *tensorInfo;
  } message;
} aclprofEventAttributes;

#endif /* ACL_PROF_TENSOR_INFO_DEFINED */

/* --- Collection --------------------------------------------------------- */

/* Sets the directory (created if missing; relative to the working
 * directory) under which each aclprofStart..aclprofStop writes a PROF_*
 * folder. length: strlen(profilerResultPath), 1..4095.
 * ACL_ERROR_REPEAT_INITIALIZE (100002): already initialised;
 * ACL_ERROR_INVALID_FILE (100003): the directory cannot be created or
 * written; ACL_ERROR_PROF_API_CONFLICT (148047): a model subscription is in
 * progress. */
MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath,
                                   size_t length);

/* Ends what aclprofInit began; a collection still started is stopped (its
 * files written) first. ACL_ERROR_PROF_NOT_RUN (100043): not initialised;
 * ACL_ERROR_PROF_API_CONFLICT (148047): a subscription is in progress. */
MSVP_PROF_API aclError aclprofFinalize();

/* Starts collecting what profilerConfig asks on its devices. The task
 * timeline (ACL_PROF_TASK_TIME, _L0, _L2, _L3) and msproftx
 * (ACL_PROF_MSPROFTX) are collected; the other kinds are accepted and named
 * as not collected in the output (no hardware counters or sampled system
 * data on the simulator). ACL_ERROR_PROF_NOT_RUN (100043): aclprofInit not
 * called; ACL_ERROR_PROF_ALREADY_RUN (100042): a device of the config (or
 * the host, for a config without devices) is already being collected;
 * ACL_ERROR_PROF_MODULES_UNSUPPORTED (200007): dataTypeConfig has a bit
 * this header does not define; ACL_ERROR_PROF_API_CONFLICT (148047): a
 * subscription is in progress. */
MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig);

/* Makes a collection config. deviceIdList: deviceNums distinct device ids
 * (deviceNums 0 only with ACL_PROF_MSPROFTX: host data alone);
 * aicoreEvents must be NULL. Returns NULL (and logs why) for a bad
 * argument: NULL list with deviceNums > 0, more than 64 devices, an id that
 * is not a device, a repeated id, an aicoreMetrics outside the enum. */
MSVP_PROF_API aclprofConfig *aclprofCreateConfig(
    uint32_t *deviceIdList, uint32_t deviceNums,
    aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents *aicoreEvents,
    uint64_t dataTypeConfig);

/* Frees a config (a collection it started goes on). */
MSVP_PROF_API aclError
aclprofDestroyConfig(const aclprofConfig *profilerConfig);

/* Stops the collection profilerConfig started (same devices, same
 * dataTypeConfig) and writes its files. Tasks still queued or running are
 * not part of it: synchronize first. ACL_ERROR_PROF_NOT_RUN (100043): not
 * initialised, or nothing started on these devices;
 * ACL_ERROR_INVALID_PROFILING_CONFIG (100010): the config differs from the
 * one that started the collection of its devices;
 * ACL_ERROR_PROF_API_CONFLICT (148047): a subscription is in progress;
 * ACL_ERROR_INVALID_FILE (100003): the files could not be written (the
 * collection is stopped all the same). */
MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig);

/* Sets one more collection parameter for the next aclprofStart (before
 * aclprofInit too). configLength: strlen(config), at most 256. Values:
 * ACL_PROF_PATH a directory (replaces aclprofInit's for later starts);
 * ACL_PROF_STORAGE_LIMIT "<n>MB", n >= 200; the frequencies in Hz, an
 * integer within 1..100 (SYS_HARDWARE_MEM, SYS_IO, DVPP, LOW_POWER) or
 * 1..50 (SYS_INTERCONNECTION, HOST_SYS_USAGE, SYS_CPU); ACL_PROF_HOST_SYS a
 * comma list of cpu, mem, disk, network, osrt; ACL_PROF_HOST_SYS_USAGE of
 * cpu, mem; ACL_PROF_LLC_MODE read, write, capacity or bandwidth;
 * ACL_PROF_OPTYPE, ACL_PROF_SYS_MEM_SERVICEFLOW, ACL_PROF_NTS_METRICS a
 * non-empty comma list. Sampled system data is not collected on the
 * simulator: the values are recorded in the output. 100000: configType
 * outside (ACL_PROF_ARGS_MIN, ACL_PROF_ARGS_MAX), configLength wrong, or an
 * invalid ACL_PROF_NTS_METRICS; ACL_ERROR_INVALID_PROFILING_CONFIG
 * (100010): any other invalid value; ACL_ERROR_PROF_ALREADY_RUN (100042):
 * a collection is started (set it before aclprofStart). */
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType,
                                        const char *config,
                                        size_t configLength);

/* --- Subscription to the operators of a model ---------------------------
 * A subscribed model's operators (each task an execution of the model runs,
 * DESIGN.md §5.24) are written, as they finish, to the write end of the
 * pipe given at aclprofCreateSubscribeConfig, as records of
 * aclprofGetOpDescSize bytes that the aclprofGetOp* functions read.
 * aclprofModelUnSubscribe writes what is pending (it waits for the pipe to
 * take it: keep reading) and closes that fd once no other subscription uses
 * it, so a reader sees end of file. */

/* modelId: a model runtime instance's id (aclmdlRIGetId), or a model id a
 * framework registered with MsprofSetDeviceIdByGeModelIdx.
 * ACL_ERROR_INVALID_MODEL_ID (100011): no such model;
 * ACL_ERROR_PROF_REPEAT_SUBSCRIBE (148046): already subscribed;
 * ACL_ERROR_INVALID_PROFILING_CONFIG (100010): another model of the same
 * device is subscribed with a different config;
 * ACL_ERROR_PROF_API_CONFLICT (148047): between aclprofInit and
 * aclprofFinalize; 100000: the config's fd is not open. */
MSVP_PROF_API aclError aclprofModelSubscribe(
    uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig);

/* ACL_ERROR_INVALID_MODEL_ID (100011): no such model;
 * ACL_ERROR_PROF_NOT_RUN (100043): the model is not subscribed. */
MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId);

/* timeInfoSwitch: 1 records start and end times, 0 leaves them 0;
 * aicoreMetrics: as aclprofCreateConfig's; fd: points to the pipe's write
 * end (an int). NULL for a NULL fd or an out-of-range switch or metric. */
MSVP_PROF_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(
    int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void *fd);

MSVP_PROF_API aclError aclprofDestroySubscribeConfig(
    const aclprofSubscribeConfig *profSubscribeConfig);

/* The size of one subscription record, in bytes. */
MSVP_PROF_API aclError aclprofGetOpDescSize(size_t *opDescSize);

/* The records in opInfo[0, opInfoLen): opInfoLen must be a multiple of the
 * record size, each record one this library wrote. */
MSVP_PROF_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen,
                                       uint32_t *opNumber);

/* Bytes needed for the type (resp. name) of record `index`, terminator
 * included. */
MSVP_PROF_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen,
                                           uint32_t index, size_t *opTypeLen);
/* Copies it, cut to opTypeLen - 1 bytes, always terminated. */
MSVP_PROF_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen,
                                        uint32_t index, char *opType,
                                        size_t opTypeLen);
MSVP_PROF_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen,
                                           uint32_t index, size_t *opNameLen);
MSVP_PROF_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen,
                                        uint32_t index, char *opName,
                                        size_t opNameLen);

/* Start, end (CLOCK_MONOTONIC, microseconds) and duration of record
 * `index`; 0 for bad input or a subscription without time info. */
MSVP_PROF_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen,
                                         uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen,
                                       uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpDuration(const void *opInfo,
                                            size_t opInfoLen, uint32_t index);

/* The model of record `index`; 0 for bad input. */
MSVP_PROF_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen,
                                       uint32_t index);

/* ACL_SUBSCRIBE_OP for an operator; ACL_SUBSCRIBE_NONE for bad input. */
MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo,
                                                      size_t opInfoLen,
                                                      uint32_t index);

/* ACL_SUBSCRIBE_ATTRI_THREADID: the submitting thread's id, in decimal, in
 * a buffer of the calling thread valid until its next call. NULL for bad
 * input or another attribute. */
MSVP_PROF_API const char *aclprofGetOpAttriValue(const void *opInfo,
                                                 size_t opInfoLen,
                                                 uint32_t index,
                                                 aclprofSubscribeOpAttri attri);

/* --- Iterations --------------------------------------------------------- */

/* Marks the start (once) or the end (once, after the start) of the
 * iteration stepInfo stands for: a host record and a mark on `stream`'s
 * timeline while a collection runs. 100000: NULL stepInfo, a tag outside
 * the enum, a repeated tag, an end before the start; the codes of
 * ascendclTimelineMark for the stream. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo,
                                               aclprofStepTag tag,
                                               aclrtStream stream);
MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo();
MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo);

/* --- msproftx -------------------------------------------------------------
 * Host-side marks and ranges, recorded while a collection with
 * ACL_PROF_MSPROFTX is started (else ACL_ERROR_PROF_NOT_RUN, 100043, and
 * aclprofCreateStamp returns NULL). A stamp is this library's object;
 * passing anything else is 100000. */

MSVP_PROF_API void *aclprofCreateStamp();
MSVP_PROF_API void aclprofDestroyStamp(void *stamp);
/* A range on the calling thread's stack: aclprofPop ends the latest. */
MSVP_PROF_API aclError aclprofPush(void *stamp);
/* 100000 when the calling thread has pushed nothing. */
MSVP_PROF_API aclError aclprofPop();
/* A range that may end on another thread: *rangeId names it. */
MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);
/* 100000 for an id that names no range started and not stopped. */
MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);
/* The stamp's message: msgLen bytes of msg, msgLen below 128. */
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg,
                                                   uint32_t msgLen);
/* An instant. */
MSVP_PROF_API aclError aclprofMark(void *stamp);
/* An instant on the host and, at its place in stream order, on `stream`.
 * msgLen: strlen(msg), 1..127; a NULL stream is the default stream. */
MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen,
                                     aclrtStream stream);
/* A 64-bit id of message (the same for the same text in a process);
 * UINT64_MAX for NULL. */
MSVP_PROF_API uint64_t aclprofStr2Id(const char *message);
/* Begins a range carrying an operator's tensor information (copied): attr
 * with messageType ACL_PROF_MESSAGE_TYPE_TENSOR_INFO, version >= 1, a
 * tensorInfo whose tensorNum tensors have shapeDim <= 8. */
MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes *attr);
/* Ends the calling thread's latest aclprofRangePushEx range; 100000 when
 * there is none. */
MSVP_PROF_API aclError aclprofRangePop();

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_PROF_H_ */
