/*
 * The lower-level profiling interface of libprofapi.so (CANN's
 * profiling/aprof_pub.h): what frameworks and libraries use to report their
 * own data into a collection, to learn when collection starts and stops,
 * and to register their models. The functions of CANN's header this
 * library defines are declared here, with the types and constants they
 * take; DESIGN.md §5.24 says where reported data lands.
 *
 *   static int32_t OnCommand(uint32_t type, void *data, uint32_t len) {
 *     const struct MsprofCommandHandle *c = data;  // len == sizeof *c
 *     if (c->type == PROF_COMMANDHANDLE_TYPE_START) enabled = c->profSwitch;
 *     return MSPROF_ERROR_NONE;
 *   }
 *   MsprofRegisterCallback(MY_MODULE, OnCommand);
 *   struct MsprofApi api = {...};  // level, type, begin/end from
 *   MsprofReportApi(0, &api);      // MsprofSysCycleTime()
 *
 * Return values: MSPROF_ERROR_NONE (0) for success, else an MsprofErrorCode
 * (MSPROF_ERROR_CONFIG_INVALID for a bad argument). Thread-safe.
 */
#ifndef APROF_PUB_H
#define APROF_PUB_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

typedef void *VOID_PTR;
#define MSPROF_REPORT_DATA_MAGIC_NUM 0x5A5AU
#define MSPROF_EVENT_FLAG 0xFFFFFFFFFFFFFFFFULL
#define MSPROF_COMPACT_INFO_DATA_LENGTH 40
#define PATH_LEN_MAX 1023
#define PARAM_LEN_MAX 4095
#define MSPROF_MAX_DEV_NUM 64
#define MSPROF_GE_TENSOR_DATA_SHAPE_LEN 8
#define MSPROF_GE_TENSOR_DATA_NUM 5

/* Report levels: who reports (MsprofApi.level and friends). */
#define MSPROF_REPORT_PYTORCH_LEVEL 30000U
#define MSPROF_REPORT_PTA_LEVEL 25000U
#define MSPROF_REPORT_TX_LEVEL 20500U
#define MSPROF_REPORT_ACL_LEVEL 20000U
#define MSPROF_REPORT_MODEL_LEVEL 15000U
#define MSPROF_REPORT_NODE_LEVEL 10000U
#define MSPROF_REPORT_AICPU_LEVEL 6000U
#define MSPROF_REPORT_HCCL_NODE_LEVEL 5500U
#define MSPROF_REPORT_RUNTIME_LEVEL 5000U
#define MSPROF_REPORT_PROF_LEVEL 4500U
#define MSPROF_REPORT_DPU_LEVEL 4000U
#define MSPROF_REPORT_AIC_LEVEL 3000U

/* Type bases of the ACL level. */
#define MSPROF_REPORT_ACL_OP_BASE_TYPE 0x010000U
#define MSPROF_REPORT_ACL_MODEL_BASE_TYPE 0x020000U
#define MSPROF_REPORT_ACL_RUNTIME_BASE_TYPE 0x030000U
#define MSPROF_REPORT_ACL_OTHERS_BASE_TYPE 0x040000U
#define MSPROF_REPORT_ACL_NN_BASE_TYPE 0x050000U

/* Types of the node level. */
#define MSPROF_REPORT_NODE_BASIC_INFO_TYPE 0U
#define MSPROF_REPORT_NODE_TENSOR_INFO_TYPE 1U
#define MSPROF_REPORT_NODE_LAUNCH_TYPE 5U

/* The switch bits of MsprofCommandHandle.profSwitch (the same bits as
 * acl_prof.h's ACL_PROF_*). */
#define PROF_ACL_API_MASK 0x00000001ULL
#define PROF_TASK_TIME_L1_MASK 0x00000002ULL
#define PROF_AICORE_METRICS_MASK 0x00000004ULL
#define PROF_AICPU_TRACE_MASK 0x00000008ULL
#define PROF_L2CACHE_MASK 0x00000010ULL
#define PROF_HCCL_TRACE_MASK 0x00000020ULL
#define PROF_TRAINING_TRACE_MASK 0x00000040ULL
#define PROF_MSPROFTX_MASK 0x00000080ULL
#define PROF_RUNTIME_API_MASK 0x00000100ULL
#define PROF_TASK_FRAMEWORK_MASK 0x00000200ULL
#define PROF_FWK_SCHEDULE_L0_MASK 0x00000200ULL
#define PROF_GE_API_L0_MASK 0x00000200ULL
#define PROF_TASK_TSFW_MASK 0x00000400ULL
#define PROF_TASK_TIME_MASK 0x00000800ULL
#define PROF_TASK_MEMORY_MASK 0x00001000ULL
#define PROF_TASK_TIME_L2_MASK 0x00002000ULL
#define PROF_OP_ATTR_MASK 0x00004000ULL
#define PROF_TASK_TIME_L3_MASK 0x00008000ULL
#define PROF_AICORE_SHAPE_MASK 0x800000000ULL
#define PROF_MODEL_EXECUTE_MASK 0x0000001000000ULL
#define PROF_FWK_SCHEDULE_L1_MASK 0x0000001000000ULL
#define PROF_GE_API_L1_MASK 0x0000001000000ULL

#define MSPROF_OPTIONS_DEF_LEN_MAX (2048U)

enum MsprofErrorCode {
  MSPROF_ERROR_NONE = 0,
  MSPROF_ERROR_MEM_NOT_ENOUGH,
  MSPROF_ERROR_GET_ENV,
  MSPROF_ERROR_CONFIG_INVALID,
  MSPROF_ERROR_ACL_JSON_OFF,
  MSPROF_ERROR,
  MSPROF_ERROR_UNINITIALIZE,
};

/* MsprofInit's dataType: where the collection options come from. */
enum MsprofCtrlCallbackType {
  MSPROF_CTRL_INIT_ACL_ENV = 0,
  MSPROF_CTRL_INIT_ACL_JSON = 1,
  MSPROF_CTRL_INIT_GE_OPTIONS = 2,
  MSPROF_CTRL_FINALIZE = 3,
  MSPROF_CTRL_INIT_HELPER = 4,
  MSPROF_CTRL_INIT_PURE_CPU = 5,
  MSPROF_CTRL_INIT_AICPU = 6,
  MSPROF_CTRL_INIT_DYNA = 0xFF,
};

/* MsprofCommandHandle.type: what a registered callback is told. */
enum MsprofCommandHandleType {
  PROF_COMMANDHANDLE_TYPE_INIT = 0,
  PROF_COMMANDHANDLE_TYPE_START,
  PROF_COMMANDHANDLE_TYPE_STOP,
  PROF_COMMANDHANDLE_TYPE_FINALIZE,
  PROF_COMMANDHANDLE_TYPE_MODEL_SUBSCRIBE,
  PROF_COMMANDHANDLE_TYPE_MODEL_UNSUBSCRIBE,
  PROF_COMMANDHANDLE_TYPE_MAX
};

enum ProfCtrlType {
  PROF_CTRL_INVALID = 0,
  PROF_CTRL_SWITCH,
  PROF_CTRL_REPORTER,
  PROF_CTRL_STEPINFO,
  PROF_CTRL_BUTT
};

enum MsprofReportBatchType { MSPROF_BATCH_ADDITIONAL_INFO = 0 };

/* MsprofCheckOpSwitch's type. */
enum MsprofOpSwitchType { MSPROF_OPTYPE = 0 };

struct MsprofCommandHandleParams {
  uint32_t pathLen;
  uint32_t storageLimit; /* MB */
  uint32_t profDataLen;
  char path[PATH_LEN_MAX + 1];
  char profData[PARAM_LEN_MAX + 1];
};

/* What a callback registered with MsprofRegisterCallback receives. */
struct MsprofCommandHandle {
  uint64_t profSwitch; /* collected kinds (ACL_PROF_* bits) */
  uint64_t profSwitchHi;
  uint32_t devNums;
  uint32_t devIdList[MSPROF_MAX_DEV_NUM];
  uint32_t modelId; /* for the subscription types */
  uint32_t type;    /* MsprofCommandHandleType */
  uint32_t cacheFlag;
  struct MsprofCommandHandleParams params;
};

#pragma pack(1)
/* MsprofInit's data for MSPROF_CTRL_INIT_GE_OPTIONS. */
struct MsprofGeOptions {
  char jobId[MSPROF_OPTIONS_DEF_LEN_MAX];
  char options[MSPROF_OPTIONS_DEF_LEN_MAX];
};

struct MsprofNodeBasicInfo {
  uint64_t opName; /* hash ids (MsprofGetHashId) */
  uint32_t taskType;
  uint64_t opType;
  uint32_t blockDim;
  uint32_t opFlag;
};
#pragma pack()

struct MsprofKernelInfo {
  uint16_t numBlocks;
  uint16_t argsSize;
  uint8_t ratio : 3;
  uint8_t schedMode : 2;
  uint8_t rsv : 3;
  uint8_t reserved[11];
};

struct MsprofModelInfo {
  uint32_t modelId;
  uint8_t rsv[12];
};

struct MsprofRuntimeTrack {
  uint16_t deviceId;
  uint16_t streamId;
  uint32_t taskId;
  uint64_t taskType;
  uint64_t kernelName;
  union {
    struct MsprofKernelInfo kernelInfo;
    struct MsprofModelInfo modelInfo;
  } extInfo;
};

struct MsprofMemcpyInfo {
  uint64_t bytes;
  uint16_t copyKind;
  uint16_t deviceId;
  uint32_t streamId;
};

/* MsprofReportApi: a span of a host API. */
struct MsprofApi {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t reserve;
  uint64_t beginTime; /* MsprofSysCycleTime() */
  uint64_t endTime;
  uint64_t itemId;
};

/* MsprofReportEvent: one point of a host event (requestId pairs them). */
struct MsprofEvent {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t requestId;
  uint64_t timeStamp;
#ifdef __cplusplus
  uint64_t eventFlag = MSPROF_EVENT_FLAG;
#else
  uint64_t eventFlag;
#endif
  uint64_t itemId;
};

/* MsprofReportCompactInfo: a small fixed-size record. */
struct MsprofCompactInfo {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  union {
    uint8_t info[MSPROF_COMPACT_INFO_DATA_LENGTH];
    struct MsprofRuntimeTrack runtimeTrack;
    struct MsprofNodeBasicInfo nodeBasicInfo;
    struct MsprofMemcpyInfo memcpyInfo;
  } data;
};

/* MsprofReportAdditionalInfo: a larger record. */
#define MSPROF_ADDTIONAL_INFO_DATA_LENGTH (232)
struct MsprofAdditionalInfo {
#ifdef __cplusplus
  uint16_t magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
#else
  uint16_t magicNumber;
#endif
  uint16_t level;
  uint32_t type;
  uint32_t threadId;
  uint32_t dataLen;
  uint64_t timeStamp;
  uint8_t data[MSPROF_ADDTIONAL_INFO_DATA_LENGTH];
};

/* A module's switch callback: type is PROF_CTRL_SWITCH and data a
 * struct MsprofCommandHandle of len bytes. */
typedef int32_t (*ProfCommandHandle)(uint32_t type, void *data, uint32_t len);

typedef int32_t (*MsprofReporterCallback)(uint32_t moduleId, uint32_t type,
                                          void *data, uint32_t len);

/* Starts a collection from options (MsprofFinalize ends it): dataType
 * MSPROF_CTRL_INIT_ACL_JSON, data the JSON text of acl.json's "profiler"
 * object (or a whole acl.json); MSPROF_CTRL_INIT_GE_OPTIONS, data a struct
 * MsprofGeOptions whose options member holds that JSON;
 * MSPROF_CTRL_INIT_ACL_ENV, data NULL: the JSON in the environment
 * variable PROFILING_OPTIONS. Keys: "output" (directory, default "./"),
 * "task_time" and "msproftx" ("on"/"off"), "aic_metrics" (ignored: no
 * counters). Every device is collected. MSPROF_ERROR_CONFIG_INVALID for
 * other types, bad JSON or a collection already running through
 * aclprofInit. */
MSVP_PROF_API int32_t MsprofInit(uint32_t dataType, void *data,
                                 uint32_t dataLen);

/* Ends what MsprofInit started, writing its files. */
MSVP_PROF_API int32_t MsprofFinalize(void);

/* Registers `handle` to be told (PROF_CTRL_SWITCH) of every init, start,
 * stop, finalize, subscription and unsubscription; it is told at once of
 * collections already started. */
MSVP_PROF_API int32_t MsprofRegisterCallback(uint32_t moduleId,
                                             ProfCommandHandle handle);

/* Report host data into the collections started now (ignored, returning
 * MSPROF_ERROR_NONE, when none is): a span, an event, compact and
 * additional records (batch: a multiple of the record size). */
MSVP_PROF_API int32_t MsprofReportApi(uint32_t nonPersistantFlag,
                                      const struct MsprofApi *api);
MSVP_PROF_API int32_t MsprofReportEvent(uint32_t nonPersistantFlag,
                                        const struct MsprofEvent *event);
MSVP_PROF_API int32_t MsprofReportCompactInfo(uint32_t nonPersistantFlag,
                                              const VOID_PTR data,
                                              uint32_t length);
MSVP_PROF_API int32_t MsprofReportAdditionalInfo(uint32_t nonPersistantFlag,
                                                 const VOID_PTR data,
                                                 uint32_t length);
MSVP_PROF_API int32_t MsprofReportBatchAdditionalInfo(
    uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length);

/* The most bytes one batch report takes (0 for an unknown type). */
MSVP_PROF_API size_t MsprofGetBatchReportMaxSize(uint32_t type);

/* Names a (level, type) pair for the output, and describes its data. */
MSVP_PROF_API int32_t MsprofRegTypeInfo(uint16_t level, uint32_t typeId,
                                        const char *typeName);
MSVP_PROF_API int32_t MsprofRegDataFormat(uint16_t level, uint32_t typeId,
                                          const char *dataFormat);

/* A 64-bit id of the text (the same for the same text in a process; the
 * text is kept: MsprofId2Str gives it back). MsprofStr2Id is the same. 0
 * for NULL (MsprofGetHashId) or UINT64_MAX (MsprofStr2Id). */
MSVP_PROF_API uint64_t MsprofGetHashId(const char *hashInfo, size_t length);
MSVP_PROF_API uint64_t MsprofStr2Id(const char *hashInfo, size_t length);
/* The text of an id, or NULL; it lives as long as the process. */
MSVP_PROF_API char *MsprofId2Str(const uint64_t Id);

/* The directory of the collection started last, or NULL when none runs.
 * The string lives until the next start. */
MSVP_PROF_API char *MsprofGetPath();

/* Registers (unregisters) a model id of a framework's on a device, so a
 * subscription can name it. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                    const uint32_t deviceId);
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                      const uint32_t deviceId);

/* The profiler's clock: CLOCK_MONOTONIC in nanoseconds, the clock of every
 * timestamp in the collected data. */
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

/* Whether operators of type op[0, len) are to be profiled: true unless
 * aclprofSetConfig(ACL_PROF_OPTYPE) named types and this is none of them.
 * type: MSPROF_OPTYPE. */
MSVP_PROF_API bool MsprofCheckOpSwitch(uint32_t type, const char *op,
                                       size_t len);

#ifdef __cplusplus
}
#endif

#endif /* APROF_PUB_H */
