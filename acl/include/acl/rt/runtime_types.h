/*
 * Part of acl/acl_rt.h (include that header, not this one), declared inside
 * its extern "C" block: the flags, enumerations and argument types of the
 * rest of the runtime interface: events, streams, notifies, inter-process
 * sharing, host registration, managed and configured memory, device
 * attributes, physical memory, kernel binaries.
 */
#ifndef ASCENDCL_ACL_RT_RUNTIME_TYPES_H_
#define ASCENDCL_ACL_RT_RUNTIME_TYPES_H_

#ifndef ASCENDCL_ACL_ACL_RT_H_
#error "include acl/acl_rt.h, not acl/rt/runtime_types.h"
#endif

/* ===========================================================================
 * The rest of the runtime interface. Types, flags and functions below match
 * CANN's runtime headers in name, signature and value. acl/API_COVERAGE.md
 * lists every function with its status. The few this runtime cannot honour
 * on a simulator (their comments say so) return
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) (a function that returns a
 * handle or a number returns NULL or 0 instead), log one line naming
 * themselves, record the code as the thread's last error, and change
 * nothing else: no output is written and no argument is checked.
 * ======================================================================== */

/* ---------------------------------------------------------------------------
 * Flags, enumerations and argument types
 * ------------------------------------------------------------------------- */

/* Event creation flags (aclrtCreateEventWithFlag, aclrtCreateEventExWithFlag).
 */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* Further stream creation flags (aclrtCreateStreamWithConfig). */
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U

/* Notify creation flags (aclrtCreateNotify). */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* Flags for exporting and importing a notify across processes. */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

/* Flags for exporting and importing device memory across processes. */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL

/* Flags for exporting a physical-memory handle as a shareable handle. */
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

/* Flags of aclrtHostRegisterV2. */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

/* Detail levels of aclmdlRIDebugJsonPrint. */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* Sizes and flags of memory-error records, IPC event handles and memory links.
 */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U
#define ACL_IPC_EVENT_HANDLE_SIZE 64U
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

/* Values of the device attribute ACL_DEV_ATTR_HD_CONNECT_TYPE. */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* Flags of aclrtRecordEventWithFlag and aclrtStreamWaitEventWithFlag. */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* Argument type of aclrtSetTsDevice. */
typedef enum aclrtTsId {
  ACL_TS_ID_AICORE = 0,
  ACL_TS_ID_AIVECTOR = 1,
  ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/* Argument type of aclrtQueryEventWaitStatus. */
typedef enum aclrtEventWaitStatus {
  ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
  ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
  ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

/* Argument type of aclrtMemManagedAdvise. */
typedef enum aclrtMemManagedAdviseType {
  ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
  ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
  ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
  ACL_MEM_ADVISE_SET_ACCESSED_BY,
  ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;

/* Member type of aclrtMemManagedLocation. */
typedef enum aclrtMemManagedLocationType {
  ACL_MEM_LOCATIONTYPE_INVALID = 0,
  ACL_MEM_LOCATIONTYPE_DEVICE,
  ACL_MEM_LOCATIONTYPE_HOST,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA,
  ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;

/* Argument type of aclrtMemManagedAdvise, aclrtMemManagedPrefetchAsync,
 * aclrtMemManagedPrefetchBatchAsync. */
typedef struct aclrtMemManagedLocation {
  aclrtMemManagedLocationType type;
  int32_t id;
} aclrtMemManagedLocation;

/* Argument type of aclrtHostRegister. */
typedef enum {
  ACL_HOST_REGISTER_MAPPED = 0,
  ACL_HOST_REGISTER_IOMEMORY = 0x04,
  ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

/* Member type of aclrtMallocAttribute. */
typedef enum {
  ACL_RT_MEM_ATTR_RSV = 0,
  ACL_RT_MEM_ATTR_MODULE_ID,
  ACL_RT_MEM_ATTR_DEVICE_ID,
  ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

/* Member type of aclrtMallocAttribute. */
typedef union {
  uint16_t moduleId;
  uint32_t deviceId;
  uint32_t vaFlag;
  uint8_t rsv[8];
} aclrtMallocAttrValue;

/* Member type of aclrtMallocConfig. */
typedef struct {
  aclrtMallocAttrType attr;
  aclrtMallocAttrValue value;
} aclrtMallocAttribute;

/* Argument type of aclrtMallocWithCfg, aclrtMallocForTaskScheduler,
 * aclrtMallocHostWithCfg. */
typedef struct {
  aclrtMallocAttribute *attrs;
  size_t numAttrs;
} aclrtMallocConfig;

/* Argument type of aclrtIpcMemImportPidInterServer,
 * aclrtNotifySetImportPidInterServer. */
typedef struct {
  uint32_t sdid;
  int32_t *pid;
  size_t num;
} aclrtServerPid;

/* Part of the runtime interface; no function here takes it directly. */
enum aclrtMemPgType {
  NORMAL_PAGE_TYPE = 0U,
  HUGE_PAGE_TYPE,
  HUGE1G_PAGE_TYPE,
};

/* Part of the runtime interface; no function here takes it directly. */
enum aclrtMemType {
  HBM_TYPE = 0U,
  DDR_TYPE,
  P2P_HBM_TYPE,
  P2P_DDR_TYPE,
};

/* Values of the IPC memory attribute ACL_RT_IPC_MEM_ATTR_ACCESS_LINK. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

/* Argument type of aclrtIpcMemSetAttr. */
typedef enum {
  ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

/* Argument type of aclrtGetGroupInfoDetail. */
typedef enum aclrtGroupAttr {
  ACL_GROUP_AICORE_INT,
  ACL_GROUP_AIV_INT,
  ACL_GROUP_AIC_INT,
  ACL_GROUP_SDMANUM_INT,
  ACL_GROUP_ASQNUM_INT,
  ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

/* Argument type of aclrtSetDeviceSatMode, aclrtGetDeviceSatMode. */
typedef enum aclrtFloatOverflowMode {
  ACL_RT_OVERFLOW_MODE_SATURATION = 0,
  ACL_RT_OVERFLOW_MODE_INFNAN,
  ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

/* Argument type of aclrtSetStreamConfigOpt. */
typedef enum {
  ACL_RT_STREAM_WORK_ADDR_PTR = 0,
  ACL_RT_STREAM_WORK_SIZE,
  ACL_RT_STREAM_FLAG,
  ACL_RT_STREAM_PRIORITY,
} aclrtStreamConfigAttr;

/* Argument type of aclrtCreateStreamConfigHandle,
 * aclrtDestroyStreamConfigHandle, aclrtSetStreamConfigOpt and others. */
typedef struct aclrtStreamConfigHandle {
  void *workptr;
  size_t workSize;
  size_t flag;
  uint32_t priority;
} aclrtStreamConfigHandle;

/* Member type of aclrtUtilizationInfo. */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

/* Argument type of aclrtGetDeviceUtilizationRate. */
typedef struct aclrtUtilizationInfo {
  int32_t cubeUtilization;
  int32_t vectorUtilization;
  int32_t aicpuUtilization;
  int32_t memoryUtilization;
  aclrtUtilizationExtendInfo *utilizationExtend;
} aclrtUtilizationInfo;

/* Argument type of aclrtCreateGroupInfo, aclrtDestroyGroupInfo,
 * aclrtGetAllGroupInfo and others. */
typedef struct tagRtGroupInfo aclrtGroupInfo;

/* Argument type of aclrtGetTaskIdFromExceptionInfo,
 * aclrtGetStreamIdFromExceptionInfo, aclrtGetThreadIdFromExceptionInfo and
 * others. */
typedef struct rtExceptionInfo aclrtExceptionInfo;

/* Member type of aclrtMemLocation. */
typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED,
  ACL_MEM_LOCATION_TYPE_MANAGED,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

/* Argument type of aclrtMemGetAccess. */
typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

/* Argument type of aclrtPointerGetAttributes. */
typedef struct aclrtPtrAttributes {
  aclrtMemLocation location;
  uint32_t pageSize;
  uint32_t rsv[4];
} aclrtPtrAttributes;

/* Argument type of aclrtGetMemUsageInfo. */
typedef struct aclrtMemUsageInfo {
  char name[32];
  uint64_t curMemSize;
  uint64_t memPeakSize;
  size_t reserved[8];
} aclrtMemUsageInfo;

/* Argument type of aclrtMemManagedGetAttr, aclrtMemManagedGetAttrs. */
typedef enum aclrtMemManagedRangeAttribute {
  ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
  ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;

/* Member type of aclrtPhysicalMemProp. */
typedef enum aclrtMemAllocationType {
  ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

/* Argument type of aclrtMemExportToShareableHandle. */
typedef enum aclrtMemHandleType {
  ACL_MEM_HANDLE_TYPE_NONE = 0,
  ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

/* Argument type of aclrtMemExportToShareableHandleV2,
 * aclrtMemImportFromShareableHandleV2, aclrtMemSetPidToShareableHandleV2. */
typedef enum aclrtMemSharedHandleType {
  ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

/* Part of the runtime interface; no function here takes it directly. */
typedef struct aclrtMemFabricHandle {
  uint8_t data[128];
} aclrtMemFabricHandle;

/* Argument type of aclrtMallocPhysical, aclrtMemGetAllocationGranularity,
 * aclrtMemGetAllocationPropertiesFromHandle. */
typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location;
  uint64_t reserve;
} aclrtPhysicalMemProp;

/* Argument type of aclrtMemGetAllocationGranularity. */
typedef enum aclrtMemGranularityOptions {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

/* Argument type of aclrtMallocPhysical, aclrtFreePhysical, aclrtMapMem and
 * others. */
typedef void *aclrtDrvMemHandle;

/* Argument type of aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister, aclrtExceptionInfoCallbackUnregister. */
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/* Argument type of aclrtBinarySetExceptionCallback. */
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo,
                                         void *userData);

/* Argument type of aclrtCreateBinary, aclrtDestroyBinary, aclrtBinaryLoad. */
typedef void *aclrtBinary;

/* Argument type of aclrtBinarySetExceptionCallback, aclrtBinaryLoad,
 * aclrtBinaryUnLoad and others. */
typedef void *aclrtBinHandle;

/* Argument type of aclrtGetFuncHandleFromExceptionInfo, aclrtBinaryGetFunction,
 * aclrtLaunchKernel and others. */
typedef void *aclrtFuncHandle;

/* Argument type of aclrtKernelArgsInit, aclrtKernelArgsInitByUserMem,
 * aclrtKernelArgsAppend and others. */
typedef void *aclrtArgsHandle;

/* Argument type of aclrtKernelArgsAppend, aclrtKernelArgsAppendPlaceHolder,
 * aclrtKernelArgsGetPlaceHolderBuffer and others. */
typedef void *aclrtParamHandle;

/* Argument type of aclmdlRIUpdate, aclmdlRICaptureGetInfo, aclmdlRICaptureEnd
 * and others. */
typedef void *aclmdlRI;

/* Argument type of aclmdlRICaptureBegin, aclmdlRICaptureThreadExchangeMode,
 * aclmdlRICaptureToModelRIBegin. */
typedef enum {
  ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
  ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

/* Argument type of aclmdlRICaptureGetInfo. */
typedef enum {
  ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
  ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

/* Most uncorrectable-error ranges reported at once. */
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128

/* Argument type of aclrtCmoAsync, aclrtCmoAsyncWithBarrier,
 * aclrtCmoAsyncWithDesc. */
typedef enum aclrtCmoType {
  ACL_RT_CMO_TYPE_PREFETCH = 0,
  ACL_RT_CMO_TYPE_WRITEBACK,
  ACL_RT_CMO_TYPE_INVALID,
  ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;

/* Kernel binary magic numbers (ACL_RT_BINARY_LOAD_OPT_MAGIC). */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/* Member type of aclrtBinaryLoadOption. */
typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

/* Member type of aclrtBinaryLoadOption. */
typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

/* Member type of aclrtBinaryLoadOptions. */
typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

/* Argument type of aclrtBinaryLoadFromFile, aclrtBinaryLoadFromData. */
typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption *options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

#endif /* ASCENDCL_ACL_RT_RUNTIME_TYPES_H_ */
