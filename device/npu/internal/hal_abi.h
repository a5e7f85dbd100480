// Our own declarations of the subset of the Ascend driver C ABI
// (`libascend_hal.so`) that the npu backend uses, written from
// /work/shared/reference/ascend_hal_subset.md (§1, §2). Names, signatures,
// struct layouts and enum values follow that description exactly; the
// static_asserts pin every size the description gives (x86-64 / aarch64
// LP64 Linux).
//
// The backend never links against the library: it dlopen()s it and resolves
// these names with dlsym (see hal_library.h), using the pointer types below.
// The stand-in driver (//testing/fake_driver) includes this header to define
// the same functions, so both sides are checked against one declaration.
#ifndef ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ABI_H_
#define ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ABI_H_

#include <cstddef>
#include <cstdint>

extern "C" {

// --- Basic types (ascend_hal_type.h, ascend_hal_base.h) --------------------
typedef unsigned char UINT8;
typedef unsigned int UINT32;
typedef unsigned long long UINT64;

// --- drvError_t (ascend_hal_error.h) -----------------------------------------
typedef enum tagDrvError {
  DRV_ERROR_NONE = 0,
  DRV_ERROR_NO_DEVICE = 1,
  DRV_ERROR_INVALID_DEVICE = 2,
  DRV_ERROR_INVALID_VALUE = 3,
  DRV_ERROR_INVALID_HANDLE = 4,
  DRV_ERROR_INVALID_MALLOC_TYPE = 5,
  DRV_ERROR_OUT_OF_MEMORY = 6,
  DRV_ERROR_INNER_ERR = 7,
  DRV_ERROR_PARA_ERROR = 8,
  DRV_ERROR_UNINIT = 9,
  DRV_ERROR_REPEATED_INIT = 10,
  DRV_ERROR_NOT_EXIST = 11,
  DRV_ERROR_REPEATED_USERD = 12,
  DRV_ERROR_BUSY = 13,
  DRV_ERROR_NO_RESOURCES = 14,
  DRV_ERROR_OUT_OF_CMD_SLOT = 15,
  DRV_ERROR_WAIT_TIMEOUT = 16,
  DRV_ERROR_IOCRL_FAIL = 17,
  DRV_ERROR_SOCKET_CREATE = 18,
  DRV_ERROR_SOCKET_CONNECT = 19,
  DRV_ERROR_SOCKET_BIND = 20,
  DRV_ERROR_SOCKET_LISTEN = 21,
  DRV_ERROR_SOCKET_ACCEPT = 22,
  DRV_ERROR_CLIENT_BUSY = 23,
  DRV_ERROR_SOCKET_SET = 24,
  DRV_ERROR_SOCKET_CLOSE = 25,
  DRV_ERROR_RECV_MESG = 26,
  DRV_ERROR_SEND_MESG = 27,
  DRV_ERROR_SERVER_BUSY = 28,
  DRV_ERROR_CONFIG_READ_FAIL = 29,
  DRV_ERROR_STATUS_FAIL = 30,
  DRV_ERROR_SERVER_CREATE_FAIL = 31,
  DRV_ERROR_WAIT_INTERRUPT = 32,
  DRV_ERROR_BUS_DOWN = 33,
  DRV_ERROR_DEVICE_NOT_READY = 34,
  DRV_ERROR_REMOTE_NOT_LISTEN = 35,
  DRV_ERROR_NON_BLOCK = 36,
  DRV_ERROR_OVER_LIMIT = 37,
  DRV_ERROR_FILE_OPS = 38,
  DRV_ERROR_MBIND_FAIL = 39,
  DRV_ERROR_MALLOC_FAIL = 40,
  DRV_ERROR_REPEATED_SUBSCRIBED = 41,
  DRV_ERROR_PROCESS_EXIT = 42,
  DRV_ERROR_DEV_PROCESS_HANG = 43,
  DRV_ERROR_REMOTE_NO_SESSION = 44,
  DRV_ERROR_HOT_RESET_IN_PROGRESS = 45,
  DRV_ERROR_OPER_NOT_PERMITTED = 46,
  DRV_ERROR_NO_EVENT_RESOURCES = 47,
  DRV_ERROR_NO_STREAM_RESOURCES = 48,
  DRV_ERROR_NO_NOTIFY_RESOURCES = 49,
  DRV_ERROR_NO_MODEL_RESOURCES = 50,
  DRV_ERROR_TRY_AGAIN = 51,
  DRV_ERROR_DST_PATH_ILLEGAL = 52,
  DRV_ERROR_OPEN_FAILED = 53,
  DRV_ERROR_NO_FREE_SPACE = 54,
  DRV_ERROR_LOCAL_ABNORMAL_FILE = 55,
  DRV_ERROR_DST_PERMISSION_DENIED = 56,
  DRV_ERROR_DST_NO_SUCH_FILE = 57,
  DRV_ERROR_MEMORY_OPT_FAIL = 58,
  DRV_ERROR_RUNTIME_ON_OTHER_PLAT = 59,
  DRV_ERROR_SQID_FULL = 60,
  DRV_ERROR_SERVER_HAS_BEEN_CREATED = 61,
  DRV_ERROR_NO_PROCESS = 62,
  DRV_ERROR_NO_SUBSCRIBE_THREAD = 63,
  DRV_ERROR_NON_SCHED_GRP_MUL_THREAD = 64,
  DRV_ERROR_NO_GROUP = 65,
  DRV_ERROR_GROUP_EXIST = 66,
  DRV_ERROR_THREAD_EXCEEDS_SPEC = 67,
  DRV_ERROR_THREAD_NOT_RUNNIG = 68,
  DRV_ERROR_PROCESS_NOT_MATCH = 69,
  DRV_ERROR_EVENT_NOT_MATCH = 70,
  DRV_ERROR_PROCESS_REPEAT_ADD = 71,
  DRV_ERROR_GROUP_NON_SCHED = 72,
  DRV_ERROR_NO_EVENT = 73,
  DRV_ERROR_COPY_USER_FAIL = 74,
  DRV_ERROR_QUEUE_EMPTY = 75,
  DRV_ERROR_QUEUE_FULL = 76,
  DRV_ERROR_RUN_IN_ILLEGAL_CPU = 77,
  DRV_ERROR_SUBSCRIBE_THREAD_TIMEOUT = 78,
  DRV_ERROR_BAD_ADDRESS = 79,
  DRV_ERROR_DST_FILE_IS_BEING_WRITTEN = 80,
  DRV_ERROR_EPOLL_CLOSE = 81,
  DRV_ERROR_CDQ_ABNORMAL = 82,
  DRV_ERROR_CDQ_NOT_EXIST = 83,
  DRV_ERROR_NO_CDQ_RESOURCES = 84,
  DRV_ERROR_CDQ_QUIT = 85,
  DRV_ERROR_PARTITION_NOT_RIGHT = 86,
  DRV_ERROR_RESOURCE_OCCUPIED = 87,
  DRV_ERROR_PERMISSION = 88,
  DRV_ERROR_RESUME = 89,
  DEV_ERROR_UNAUTHORIZED_ACCESS_DEVICE = 90,
  DEV_ERROR_BIST_HW_ERR = 91,
  DEV_ERROR_BIST_SW_ERR = 92,
  DEV_ERROR_DUP_CONFIG = 93,
  DRV_ERROR_POWER_OP_FAIL = 94,
  DRV_ERROR_NET_UNREACH = 95,
  DRV_ERROR_TRANS_LINK_ABNORMAL = 96,
  DRV_ERROR_TRANS_LINK_ACK_TIMEOUT_ERR = 97,
  DRV_ERROR_CALL_NO_RETRY = 98,
  DRV_ERROR_CONNECT = 99,
  DRV_ERROR_NOT_SUPPORT = 0xFFFE,
  DRV_ERROR_RESERVED,
} drvError_t;

typedef drvError_t DVresult;
typedef UINT32 DVdevice;
typedef UINT64 DVdeviceptr;

// --- Open / close / snapshot argument structs (§2.2) -------------------------
typedef struct hal_dev_open_in {
  uint64_t reserve[8];  // must be zero
} halDevOpenIn;

typedef struct hal_dev_open_out {
  uint64_t reserve[8];
} halDevOpenOut;

typedef enum {
  DEV_CLOSE_HOST_DEVICE = 0,  // normal close
  DEV_CLOSE_ONLY_HOST = 1,    // backup-device switch (unused by the runtime)
  DEV_CLOSE_HOST_USER = 2,    // process-snapshot restore only
  DEV_CLOSE_TYPE_MAX = 3,
} DEV_CLOSE_TYPE;

typedef struct hal_dev_close_in {
  uint32_t close_type;  // a DEV_CLOSE_TYPE
  uint32_t reserve0;
  uint64_t reserve[7];
} halDevCloseIn;

typedef struct hal_proc_res_backup_info {
  uint64_t reserve[8];
} halProcResBackupInfo;

typedef struct hal_proc_res_restore_info {
  uint64_t reserve[8];
} halProcResRestoreInfo;

// --- Copy types (§2.3) -------------------------------------------------------
typedef enum tagDrvMemcpyKind {
  DRV_MEMCPY_HOST_TO_HOST = 0,
  DRV_MEMCPY_HOST_TO_DEVICE = 1,
  DRV_MEMCPY_DEVICE_TO_HOST = 2,
  DRV_MEMCPY_DEVICE_TO_DEVICE = 3,
} drvMemcpyKind_t;

struct memcpy_info {
  drvMemcpyKind_t dir;
  uint32_t devid;
  uint64_t reserve[2];  // should be zero
};

// --- halMemAlloc flag bits (§2.4, ascend_hal_define.h "Memory Manage") -------
#define MEM_SVM_VAL 0x0
#define MEM_DEV_VAL 0x1
#define MEM_HOST_VAL 0x2
#define MEM_DVPP_VAL 0x3
#define MEM_HOST_AGENT_VAL 0x4
#define MEM_RESERVE_VAL 0x5
#define MEM_HOST_UVA_VAL 0x6
#define MEM_UVM_VAL 0x7
#define MEM_SVM (0x0ULL)
#define MEM_DEV (0x400ULL)
#define MEM_HOST (0x800ULL)
#define MEM_TYPE_DDR (0x0ULL)
#define MEM_TYPE_HBM (0x4000ULL)
#define MEM_PAGE_NORMAL (0x0ULL)
#define MEM_PAGE_HUGE (0x20000ULL)
#define MEM_CONTIGUOUS_PHY (0x80000ULL)
#define MEM_SET_ALIGN_SIZE(x) ((((UINT64)(x)) & 0x1FULL) << 20)
#define MEM_ADVISE_P2P (0x2000000ULL)
#define MEM_ADVISE_4G (0x4000000ULL)
#define MEM_ADVISE_TS (0x8000000ULL)
#define MEM_ADVISE_BAR (0x10000000ULL)
#define MEM_READONLY (0x20000000ULL)
#define MEM_HOST_RW_DEV_RO (0x40000000ULL)
#define MEM_PAGE_GIANT (0x80000000ULL)
#define MEM_DEV_CP_ONLY (0x100000000ULL)
#define NODE_TO_DEVICE(x) (x)

// Field helpers (ours, not driver names): device id in bits 0-9, virtual
// memory kind in bits 10-13, alignment exponent in bits 20-24, module id in
// bits 56-63.
#define HAL_ABI_DEVICE_ID_MASK 0x3FFULL
#define HAL_ABI_VIRT_KIND(flag) ((((UINT64)(flag)) >> 10) & 0xFULL)
#define HAL_ABI_ALIGN_EXPONENT(flag) ((((UINT64)(flag)) >> 20) & 0x1FULL)
#define HAL_ABI_MODULE_ID(id) (((UINT64)(id)) << 56)
#define HAL_ABI_MODULE_APP 33  // module id aclrtMalloc passes

// --- MemInfo (§2.5) ----------------------------------------------------------
#define MEM_INFO_TYPE_DDR_SIZE 1
#define MEM_INFO_TYPE_HBM_SIZE 2
#define MEM_INFO_TYPE_DDR_P2P_SIZE 3
#define MEM_INFO_TYPE_HBM_P2P_SIZE 4
#define MEM_INFO_TYPE_ADDR_CHECK 5
#define MEM_INFO_TYPE_CTRL_NUMA_INFO 6
#define MEM_INFO_TYPE_AI_NUMA_INFO 7
#define MEM_INFO_TYPE_BAR_NUMA_INFO 8
#define MEM_INFO_TYPE_SVM_GRP_INFO 9
#define MEM_INFO_TYPE_UB_TOKEN_INFO 10
#define MEM_INFO_TYPE_SYS_NUMA_INFO 11
#define MEM_INFO_TYPE_MAX 12

#define MAX_NUMA_NUM_OF_PER_DEV 64
#define BUFF_GRP_NAME_LEN 32

struct MemPhyInfo {
  // Linux layout (`unsigned long`); sizes in bytes.
  unsigned long total;  // 4 KiB pages only
  unsigned long free;
  unsigned long huge_total;  // 2 MiB + 1 GiB pages
  unsigned long huge_free;
  unsigned long giant_total;  // 1 GiB pages only
  unsigned long giant_free;
};

struct MemAddrInfo {
  DVdeviceptr** addr;
  unsigned int cnt;
  unsigned int mem_type;
  unsigned int flag;
};

struct MemNumaInfo {
  unsigned int node_cnt;
  int node_id[MAX_NUMA_NUM_OF_PER_DEV];
};

struct MemSvmGrpInfo {
  char name[BUFF_GRP_NAME_LEN];
};

struct MemUbTokenInfo {
  uint64_t va;
  uint64_t size;
  uint32_t token_id;
  uint32_t token_value;
};

struct MemInfo {
  union {
    struct MemPhyInfo phy_info;
    struct MemAddrInfo addr_info;
    struct MemNumaInfo numa_info;
    struct MemSvmGrpInfo grp_info;
    struct MemUbTokenInfo ub_token_info;
  };
};

// --- Prototypes (§1)
// ----------------------------------------------------------- Enumeration.
drvError_t drvGetDevNum(uint32_t* num_dev);
drvError_t drvGetDevIDs(uint32_t* devices, uint32_t len);
drvError_t drvDeviceGetPhyIdByIndex(uint32_t devIndex, uint32_t* phyId);
drvError_t drvDeviceGetIndexByPhyId(uint32_t phyId, uint32_t* devIndex);
drvError_t drvGetPlatformInfo(uint32_t* info);
drvError_t halGetSocVersion(uint32_t devId, char* socVersion, uint32_t len);
// Open / close.
drvError_t halDeviceOpen(uint32_t devid, halDevOpenIn* in, halDevOpenOut* out);
drvError_t halDeviceClose(uint32_t devid, halDevCloseIn* in);
DVresult drvMemSmmuQuery(DVdevice device, UINT32* SSID);
// Memory.
drvError_t halMemAlloc(void** pp, unsigned long long size,
                       unsigned long long flag);
drvError_t halMemFree(void* pp);
DVresult drvMemcpy(DVdeviceptr dst, size_t dest_max, DVdeviceptr src,
                   size_t byte_count);
drvError_t halMemcpy(void* dst, size_t dst_size, void* src, size_t count,
                     struct memcpy_info* info);
DVresult drvMemsetD8(DVdeviceptr dst, size_t destMax, UINT8 value, size_t num);
DVresult halMemGetInfo(DVdevice device, unsigned int type,
                       struct MemInfo* info);
// Process snapshot.
drvError_t halProcessResBackup(halProcResBackupInfo* info);
drvError_t halProcessResRestore(halProcResRestoreInfo* info);

}  // extern "C"

// --- Layout checks (sizes from §2)
// ---------------------------------------------
static_assert(sizeof(drvError_t) == 4, "drvError_t is a 4-byte C enum");
static_assert(sizeof(DVdeviceptr) == 8, "DVdeviceptr is 64-bit");
static_assert(sizeof(halDevOpenIn) == 64 && alignof(halDevOpenIn) == 8, "");
static_assert(sizeof(halDevOpenOut) == 64 && alignof(halDevOpenOut) == 8, "");
static_assert(sizeof(halDevCloseIn) == 64 && alignof(halDevCloseIn) == 8, "");
static_assert(offsetof(halDevCloseIn, close_type) == 0, "");
static_assert(offsetof(halDevCloseIn, reserve0) == 4, "");
static_assert(offsetof(halDevCloseIn, reserve) == 8, "");
static_assert(sizeof(halProcResBackupInfo) == 64, "");
static_assert(sizeof(halProcResRestoreInfo) == 64, "");
static_assert(sizeof(drvMemcpyKind_t) == 4, "");
static_assert(sizeof(struct memcpy_info) == 24 &&
                  alignof(struct memcpy_info) == 8,
              "");
static_assert(sizeof(struct MemPhyInfo) == 48, "");
static_assert(sizeof(struct MemAddrInfo) == 24, "");
static_assert(sizeof(struct MemNumaInfo) == 260, "");
static_assert(sizeof(struct MemSvmGrpInfo) == 32, "");
static_assert(sizeof(struct MemUbTokenInfo) == 24, "");
static_assert(sizeof(struct MemInfo) == 264 && alignof(struct MemInfo) == 8,
              "");

// Flags the CANN runtime passes to halMemAlloc for aclrtMalloc on the host
// (§2.4): MEM_DEV | MEM_TYPE_HBM | [MEM_PAGE_HUGE] | ALIGN(9) | APP(33) << 56,
// OR-ed with the device id.
static_assert((MEM_DEV | MEM_TYPE_HBM | MEM_PAGE_HUGE | MEM_SET_ALIGN_SIZE(9) |
               HAL_ABI_MODULE_ID(HAL_ABI_MODULE_APP)) == 0x2100000000924400ULL,
              "");
static_assert((MEM_DEV | MEM_TYPE_HBM | MEM_SET_ALIGN_SIZE(9) |
               HAL_ABI_MODULE_ID(HAL_ABI_MODULE_APP)) == 0x2100000000904400ULL,
              "");

#endif  // ASCENDCL_DEVICE_NPU_INTERNAL_HAL_ABI_H_
