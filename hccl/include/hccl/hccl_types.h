/*
 * HCCL's types, return codes and constants: the values CANN ships in
 * hccl/hccl_types.h (hicann/hcomm), so programs written for CANN compile
 * unchanged. Included by hccl/hccl.h and hccl/hccl_comm.h.
 *
 * Compiles as C99 and as C++: the sizes CANN declares as `const uint32_t`
 * are such constants in C++ and integer constant macros in C (where a const
 * object can neither size an array nor be defined in several files).
 */
#ifndef HCCL_TYPES_H_
#define HCCL_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif /* __cplusplus */

/* What every HCCL function returns. */
typedef enum {
  HCCL_SUCCESS = 0,              /* done */
  HCCL_E_PARA = 1,               /* an argument is invalid */
  HCCL_E_PTR = 2,                /* a required pointer is NULL */
  HCCL_E_MEMORY = 3,             /* memory could not be obtained */
  HCCL_E_INTERNAL = 4,           /* an internal failure */
  HCCL_E_NOT_SUPPORT = 5,        /* the feature is not supported */
  HCCL_E_NOT_FOUND = 6,          /* the resource asked for does not exist */
  HCCL_E_UNAVAIL = 7,            /* the resource is not available */
  HCCL_E_SYSCALL = 8,            /* a system call failed */
  HCCL_E_TIMEOUT = 9,            /* a wait timed out */
  HCCL_E_OPEN_FILE_FAILURE = 10, /* a file could not be opened */
  HCCL_E_TCP_CONNECT = 11,       /* a TCP connection could not be made */
  HCCL_E_ROCE_CONNECT = 12,      /* a RoCE connection could not be made */
  HCCL_E_TCP_TRANSFER = 13,      /* a TCP transfer failed */
  HCCL_E_ROCE_TRANSFER = 14,     /* a RoCE transfer failed */
  HCCL_E_RUNTIME = 15,           /* a runtime (ACL) call failed */
  HCCL_E_DRV = 16,               /* a driver call failed */
  HCCL_E_PROFILING = 17,         /* a profiling call failed */
  HCCL_E_CCE = 18,               /* a CCE call failed */
  HCCL_E_NETWORK = 19,           /* a network call failed */
  HCCL_E_AGAIN = 20,             /* busy: try again */
  HCCL_E_REMOTE = 21,            /* a remote peer reported an error */
  HCCL_E_SUSPENDING = 22,        /* the communicator is suspended */
  HCCL_E_OPRETRY_FAIL = 23,      /* an operation could not be retried */
  HCCL_E_OOM = 24,               /* out of memory */
  HCCL_E_IN_STATUS = 1041,       /* the error is held in a status */
  HCCL_E_RESERVED                /* not a code */
} HcclResult;

/* A communicator, a connection and a memory window: opaque handles. */
typedef void *HcclComm;
typedef void *HcclConn;
typedef void *HcclCommSymWindow;

/* How reducing operations combine values. */
typedef enum {
  HCCL_REDUCE_SUM = 0,
  HCCL_REDUCE_PROD = 1,
  HCCL_REDUCE_MAX = 2,
  HCCL_REDUCE_MIN = 3,
  HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

/* Element types (13 is not used). */
typedef enum {
  HCCL_DATA_TYPE_INT8 = 0,
  HCCL_DATA_TYPE_INT16 = 1,
  HCCL_DATA_TYPE_INT32 = 2,
  HCCL_DATA_TYPE_FP16 = 3,
  HCCL_DATA_TYPE_FP32 = 4,
  HCCL_DATA_TYPE_INT64 = 5,
  HCCL_DATA_TYPE_UINT64 = 6,
  HCCL_DATA_TYPE_UINT8 = 7,
  HCCL_DATA_TYPE_UINT16 = 8,
  HCCL_DATA_TYPE_UINT32 = 9,
  HCCL_DATA_TYPE_FP64 = 10,
  HCCL_DATA_TYPE_BFP16 = 11,
  HCCL_DATA_TYPE_INT128 = 12,
  HCCL_DATA_TYPE_HIF8 = 14,
  HCCL_DATA_TYPE_FP8E4M3 = 15,
  HCCL_DATA_TYPE_FP8E5M2 = 16,
  HCCL_DATA_TYPE_FP8E8M0 = 17,
  HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

/* Process-wide settings (HcclSetConfig). HCCL_DETERMINISTIC: 0 off, 1 on,
 * 2 strict (the same reduction order bit for bit). */
typedef enum { HCCL_DETERMINISTIC = 0, HCCL_CONFIG_RESERVED } HcclConfig;

union HcclConfigValue {
  int32_t value;
};
/* C needs the typedef to use the bare name, as the functions do. */
typedef union HcclConfigValue HcclConfigValue;

#ifdef __cplusplus
const uint32_t HCCL_ROOT_INFO_BYTES = 4108;
const uint32_t COMM_NAME_MAX_LENGTH = 128;
const uint32_t BUFFER_NAME_MAX_LENGTH = 128;
const uint32_t UDI_MAX_LENGTH = 128;
const uint32_t HCCL_COMM_ALGO_MAX_LENGTH = 1600;
const uint32_t HCCL_COMM_RETRY_ENABLE_MAX_LENGTH = 50;
const uint32_t HCCL_COMM_RETRY_PARAMS_MAX_LENGTH = 128;
const uint32_t HCCL_COMM_CONFIG_INFO_BYTES = 24;
const uint32_t HCCL_COMM_CONFIG_MAGIC_WORD = 0xf0f0f0f0;
const uint32_t HCCL_COMM_CONFIG_VERSION = 11;
const uint32_t HCCL_COMM_DEFAULT_BUFFSIZE = 200;
const uint32_t HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_DETERMINISTIC = 0;
const uint32_t HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_OP_EXPANSION_MODE = 0;
const uint32_t HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET = 0xffffffff;
const int32_t HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET = (int32_t)0xffffffff;
const uint32_t HCCL_COMM_QOS_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_SQ_DEPTH_CONFIG_NOT_SET = 0xffffffff;
const uint64_t HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE = 16ULL;
#else
#define HCCL_ROOT_INFO_BYTES 4108U
#define COMM_NAME_MAX_LENGTH 128U
#define BUFFER_NAME_MAX_LENGTH 128U
#define UDI_MAX_LENGTH 128U
#define HCCL_COMM_ALGO_MAX_LENGTH 1600U
#define HCCL_COMM_RETRY_ENABLE_MAX_LENGTH 50U
#define HCCL_COMM_RETRY_PARAMS_MAX_LENGTH 128U
#define HCCL_COMM_CONFIG_INFO_BYTES 24U
#define HCCL_COMM_CONFIG_MAGIC_WORD 0xf0f0f0f0U
#define HCCL_COMM_CONFIG_VERSION 11U
#define HCCL_COMM_DEFAULT_BUFFSIZE 200U
#define HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_DETERMINISTIC 0U
#define HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_OP_EXPANSION_MODE 0U
#define HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET ((int32_t)-1)
#define HCCL_COMM_QOS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_SQ_DEPTH_CONFIG_NOT_SET 0xffffffffU
#define HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE 16ULL
#endif /* __cplusplus */

/* What HcclGetRootInfo fills and every rank passes to HcclCommInitRootInfo:
 * how to reach the root's rendezvous. Copy it as bytes. */
typedef struct HcclRootInfoDef {
  char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

/* A communicator's configuration: fill it with HcclCommConfigInit
 * (hccl/hccl_comm.h), then set the fields wanted. The first
 * HCCL_COMM_CONFIG_INFO_BYTES bytes say which version of the structure the
 * program was built with; do not write them. */
typedef struct HcclCommConfigDef {
  char reserved[HCCL_COMM_CONFIG_INFO_BYTES];
  uint32_t hcclBufferSize;    /* MB, >= 1 */
  uint32_t hcclDeterministic; /* 0, 1 or 2 */
  char hcclCommName[COMM_NAME_MAX_LENGTH];
  char hcclUdi[UDI_MAX_LENGTH];
  uint32_t hcclOpExpansionMode; /* 0 default, 1 host, 2 AI CPU, 3 vector */
  uint32_t hcclRdmaTrafficClass;
  uint32_t hcclRdmaServiceLevel;
  uint32_t hcclWorldRankID;
  uint64_t hcclJobID;
  uint8_t aclGraphZeroCopyEnable;
  int32_t hcclExecTimeOut; /* seconds */
  char hcclAlgo[HCCL_COMM_ALGO_MAX_LENGTH];
  char hcclRetryEnable[HCCL_COMM_RETRY_ENABLE_MAX_LENGTH];
  char hcclRetryParams[HCCL_COMM_RETRY_PARAMS_MAX_LENGTH];
  char hcclBufferName[BUFFER_NAME_MAX_LENGTH];
  uint32_t hcclQos;
  uint64_t hcclSymWinMaxMemSizePerRank; /* GB */
  uint32_t hcclChannelSqDepth;
} HcclCommConfig;

/* The configuration items, for HcclGetCommConfigCapability: an item is
 * supported when the capability is greater than its value. */
typedef enum {
  HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
  HCCL_COMM_CONFIG_DETERMINISTIC = 1,
  HCCL_COMM_CONFIG_COMM_NAME = 2,
  HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
  HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
  HCCL_COMM_CONFIG_WORLD_RANKID = 5,
  HCCL_COMM_CONFIG_JOBID = 6,
  HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
  HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
  HCCL_COMM_CONFIG_ALGO = 9,
  HCCL_COMM_CONFIG_RETRY = 10,
  HCCL_COMM_CONFIG_BUFFER_NAME = 11,
  HCCL_COMM_CONFIG_RESERVED
} HcclCommConfigCapability;

/* One entry of HcclBatchSendRecv. */
typedef enum {
  HCCL_SEND = 0,
  HCCL_RECV = 1,
  HCCL_SEND_RECV_RESERVED
} HcclSendRecvType;

typedef struct HcclSendRecvItemDef {
  HcclSendRecvType sendRecvType;
  void *buf;
  uint64_t count;
  HcclDataType dataType;
  uint32_t remoteRank;
} HcclSendRecvItem;

/* Operation kinds. */
typedef enum {
  HCCL_CMD_INVALID = 0,
  HCCL_CMD_BROADCAST = 1,
  HCCL_CMD_ALLREDUCE,
  HCCL_CMD_REDUCE,
  HCCL_CMD_SEND,
  HCCL_CMD_RECEIVE,
  HCCL_CMD_ALLGATHER,
  HCCL_CMD_REDUCE_SCATTER,
  HCCL_CMD_ALLTOALLV,
  HCCL_CMD_ALLTOALLVC,
  HCCL_CMD_ALLTOALL,
  HCCL_CMD_GATHER,
  HCCL_CMD_SCATTER,
  HCCL_CMD_BATCH_SEND_RECV,
  HCCL_CMD_BATCH_PUT,
  HCCL_CMD_BATCH_GET,
  HCCL_CMD_ALLGATHER_V,
  HCCL_CMD_REDUCE_SCATTER_V,
  HCCL_CMD_BATCH_WRITE,
  HCCL_CMD_HALF_ALLTOALLV = 20,
  HCCL_CMD_ALL,
  HCCL_CMD_FINALIZE = 100,
  HCCL_CMD_INTER_GROUP_SYNC,
  HCCL_CMD_INIT,
  HCCL_CMD_BARRIER,
  HCCL_CMD_MAX
} HcclCMDType;

/* A communicator's state (HcclCommGetStatus). */
typedef enum {
  HCCL_COMM_STATUS_READY = 0,
  HCCL_COMM_STATUS_SUSPENDING = 1,
  HCCL_COMM_STATUS_INVALID = 254,
  HCCL_COMM_STATUS_RESERVED = 255
} HcclCommStatus;

/* When an HcclCommStateCallback is called. */
typedef enum {
  HCCL_COMM_STATE_PHASE_INVALID = -1,
  HCCL_COMM_STATE_PHASE_DESTROY_PRE = 0,  /* before HcclCommDestroy */
  HCCL_COMM_STATE_PHASE_DESTROY_POST = 1, /* after HcclCommDestroy */
  HCCL_COMM_STATE_PHASE_RESUME_PRE = 2,   /* before HcclCommResume */
  HCCL_COMM_STATE_PHASE_RESUME_POST = 3   /* after HcclCommResume */
} HcclCommStatePhase;

#ifdef __cplusplus
}
#endif /* __cplusplus */
#endif /* HCCL_TYPES_H_ */
