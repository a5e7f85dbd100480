/*
 * HCCL communicators: creating them (from a root's rendezvous information,
 * a rank table, or all devices of one process), querying, configuring,
 * suspending, resuming and destroying them, and grouping calls. The names,
 * signatures and values are CANN's (hccl/hccl_comm.h of hicann/hcomm).
 *
 * On this runtime a communicator's ranks may be threads of one process (one
 * device each), processes of one host, or processes on several hosts; bytes
 * between processes move over Gloo's TCP transport. Each function's comment
 * gives the codes it returns besides HCCL_SUCCESS. Functions the simulator
 * cannot honestly provide answer HCCL_E_NOT_SUPPORT and say so here.
 */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_

#include <stddef.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include <acl/acl.h>
#include <hccl/hccl_types.h>

/* CANN declares these functions weak, so a program may test for them. */
#ifndef HCOMM_WEAK_SYMBOL
#define HCOMM_WEAK_SYMBOL __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif /* __cplusplus */

/* Creates this rank's communicator from a rank table (a JSON file, CANN's
 * format: status "completed", version "1.0", server_count, server_list with
 * devices {device_id, device_ip, device_port, rank_id}). The rank whose
 * rank_id is 0 serves the rendezvous at its device_ip:device_port (default
 * 127.0.0.1 and HCCL_IF_BASE_PORT, else 60000); the call returns once every
 * rank has joined. HCCL_E_PTR: NULL argument; HCCL_E_PARA: a path of 4096
 * bytes or more, a malformed table, a rank not in it, this rank already
 * initialised from the same table in this process;
 * HCCL_E_OPEN_FILE_FAILURE: the file cannot be read; HCCL_E_TIMEOUT: not
 * every rank joined within HCCL_CONNECT_TIMEOUT. */
extern HcclResult HcclCommInitClusterInfo(const char *clusterInfo,
                                          uint32_t rank,
                                          HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* As HcclCommInitClusterInfo, with a configuration (HcclCommConfigInit
 * first): HCCL_E_PARA for a configuration not made by HcclCommConfigInit or
 * with a value out of range, or a name another communicator of this process
 * has. */
extern HcclResult HcclCommInitClusterInfoConfig(
    const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
    HcclComm *comm) HCOMM_WEAK_SYMBOL;

/* Makes a communicator of rankNum ranks of the communicator *comm, without a
 * new rendezvous: every rank of *comm calls it; a rank not in the new one
 * passes rankIds NULL (and subCommId 0xFFFFFFFF) and gets *subComm NULL.
 * rankIds are ranks of *comm, in ascending order; subCommRankId is this
 * rank's index in them. Only a communicator made from a root or a rank table
 * or HcclCommInitAll can be split. HCCL_E_PTR, HCCL_E_PARA. */
extern HcclResult HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum,
                                          uint32_t *rankIds, uint64_t subCommId,
                                          uint32_t subCommRankId,
                                          HcclCommConfig *config,
                                          HcclComm *subComm) HCOMM_WEAK_SYMBOL;

/* Makes the rendezvous information of a new communicator: this process
 * serves it (on HCCL_IF_IP, else the interface HCCL_SOCKET_IFNAME selects,
 * else the first non-loopback interface) until it exits. Pass the bytes to
 * every rank. HCCL_E_PTR; HCCL_E_PARA: a bad HCCL_IF_IP or interface rule;
 * HCCL_E_NETWORK: nothing to listen on. */
extern HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo) HCOMM_WEAK_SYMBOL;

/* Creates this rank's communicator of nRanks ranks from the root's
 * information, on the calling thread's current device; returns once every
 * rank joined. HCCL_E_PTR; HCCL_E_PARA: rank >= nRanks, nRanks 0, bytes not
 * made by HcclGetRootInfo, a rank joining twice, ranks disagreeing on nRanks;
 * HCCL_E_TCP_CONNECT: the root cannot be reached; HCCL_E_TIMEOUT: not every
 * rank joined within HCCL_CONNECT_TIMEOUT. */
extern HcclResult HcclCommInitRootInfo(uint32_t nRanks,
                                       const HcclRootInfo *rootInfo,
                                       uint32_t rank,
                                       HcclComm *comm) HCOMM_WEAK_SYMBOL;
/* As HcclCommInitRootInfo, with a configuration (see
 * HcclCommInitClusterInfoConfig for its codes). */
extern HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks,
                                             const HcclRootInfo *rootInfo,
                                             uint32_t rank,
                                             const HcclCommConfig *config,
                                             HcclComm *comm) HCOMM_WEAK_SYMBOL;

/* Process-wide settings: HCCL_DETERMINISTIC takes 0, 1 or 2 (reductions here
 * always combine in rank order, so every setting is deterministic).
 * HCCL_E_PARA: another item or value; HCCL_E_PTR. */
extern HcclResult HcclSetConfig(HcclConfig config,
                                HcclConfigValue configValue) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetConfig(HcclConfig config,
                                HcclConfigValue *configValue) HCOMM_WEAK_SYMBOL;

/* Copies the communicator's name (at most COMM_NAME_MAX_LENGTH bytes with
 * the terminator) to commName. HCCL_E_PTR; HCCL_E_PARA: not a communicator. */
extern HcclResult HcclGetCommName(HcclComm comm,
                                  char *commName) HCOMM_WEAK_SYMBOL;

/* The communicator of this process named commName (of the calling thread's
 * device where several ranks of one communicator live here). HCCL_E_PTR;
 * HCCL_E_NOT_FOUND: none. */
extern HcclResult HcclCommGetHandleWithName(const char *commName,
                                            HcclComm *comm);

/* The number of ranks, and this rank's id. HCCL_E_PTR; HCCL_E_PARA. */
extern HcclResult HcclGetRankSize(HcclComm comm,
                                  uint32_t *rankSize) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetRankId(HcclComm comm,
                                uint32_t *rank) HCOMM_WEAK_SYMBOL;

/* Queues a barrier on the stream: the stream goes on once every rank's
 * stream reached its barrier. HCCL_E_PTR; HCCL_E_PARA. */
extern HcclResult HcclBarrier(HcclComm comm,
                              aclrtStream stream) HCOMM_WEAK_SYMBOL;

/* Destroys this rank's communicator; operations of it still waiting for
 * peers fail at once (their streams report it). Work already queued that
 * has not started fails too. HCCL_E_PARA: not a communicator. */
extern HcclResult HcclCommDestroy(HcclComm comm) HCOMM_WEAK_SYMBOL;

/* Creates one communicator of ndev ranks in this process: rank i runs on
 * devices[i] (distinct, existing devices). HCCL_E_PTR; HCCL_E_PARA. */
extern HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices,
                                  HcclComm *comms) HCOMM_WEAK_SYMBOL;

/* The first failure of an operation of the communicator that ran
 * asynchronously (on a stream), or HCCL_SUCCESS: HCCL_E_TIMEOUT (peers did
 * not arrive within HCCL_EXEC_TIMEOUT), HCCL_E_REMOTE (a peer was lost),
 * HCCL_E_PARA (ranks called different operations), HCCL_E_SUSPENDING.
 * HCCL_E_PTR; HCCL_E_PARA: not a communicator. */
extern HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError)
    HCOMM_WEAK_SYMBOL;

/* A description of code; never NULL. */
extern const char *HcclGetErrorString(HcclResult code) HCOMM_WEAK_SYMBOL;

/* Which configuration items are supported: every item below the returned
 * value (all of HcclCommConfigCapability here). */
extern uint32_t HcclGetCommConfigCapability(void) HCOMM_WEAK_SYMBOL;

/* Fills config with "not set" for every item, and the version words that
 * tell the library which structure the program was built with. */
static inline void HcclCommConfigInit(HcclCommConfig *config) {
  size_t size;
  uint32_t word;
  uint64_t zero;
  if (config == NULL) {
    return;
  }
  /* The reserved bytes hold, in order: the structure's size (size_t), the
   * magic word and the version (uint32_t each), and a zero uint64_t. */
  size = sizeof(HcclCommConfig);
  memcpy(config->reserved, &size, sizeof(size));
  word = HCCL_COMM_CONFIG_MAGIC_WORD;
  memcpy(config->reserved + 8, &word, sizeof(word));
  word = HCCL_COMM_CONFIG_VERSION;
  memcpy(config->reserved + 12, &word, sizeof(word));
  zero = 0;
  memcpy(config->reserved + 16, &zero, sizeof(zero));
  config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
  config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
  config->hcclCommName[0] = '\0';
  config->hcclUdi[0] = '\0';
  config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
  config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
  config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
  config->hcclWorldRankID = 0;
  config->hcclJobID = 0;
  config->aclGraphZeroCopyEnable = 0;
  config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
  config->hcclAlgo[0] = '\0';
  config->hcclRetryEnable[0] = '\0';
  config->hcclRetryParams[0] = '\0';
  config->hcclBufferName[0] = '\0';
  config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
  config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
  config->hcclChannelSqDepth = HCCL_COMM_SQ_DEPTH_CONFIG_NOT_SET;
}

/* Suspends the communicator (after a device memory fault): its operations
 * waiting or queued fail with HCCL_E_SUSPENDING until HcclCommResume.
 * HCCL_E_PARA. */
extern HcclResult HcclCommSuspend(HcclComm comm) HCOMM_WEAK_SYMBOL;

/* Called around HcclCommResume and HcclCommDestroy (the phases of
 * HcclCommStatePhase). */
typedef HcclResult (*HcclCommStateCallback)(HcclComm comm,
                                            HcclCommStatePhase state,
                                            void *args);
/* Registers cb under regName (at most 160 bytes), process-wide; the same
 * name again replaces it. HCCL_E_PTR; HCCL_E_PARA: a name too long. */
extern HcclResult HcclCommRegCommStateCallback(const char *regName,
                                               HcclCommStateCallback cb,
                                               void *args);

/* Ends a suspension (or the effect of aclrtDeviceTaskAbort on the
 * communicator's operations): clears its asynchronous error unless its
 * connections were lost. HCCL_E_PARA; HCCL_E_REMOTE: connections lost. */
extern HcclResult HcclCommResume(HcclComm comm) HCOMM_WEAK_SYMBOL;

/* The state of the communicator named commId in this process. HCCL_E_PTR;
 * HCCL_E_NOT_FOUND. */
extern HcclResult HcclCommGetStatus(const char *commId, HcclCommStatus *status);

/* Registers (Set) or forgets (Unset) a virtual address range the
 * communicator may use, and maps physical memory into it (Activate) or not
 * (Deactivate). Simulated device memory is reachable without registration,
 * so these keep the bookkeeping and check the arguments: alignment, offset
 * and flags must be 0; ranges must not overlap; Unset/Deactivate need a
 * range that was Set/Activated. HCCL_E_PTR; HCCL_E_PARA. */
extern HcclResult HcclCommSetMemoryRange(HcclComm comm, void *baseVirPtr,
                                         size_t size, size_t alignment,
                                         uint64_t flags) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommUnsetMemoryRange(HcclComm comm,
                                           void *baseVirPtr) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr,
                                             size_t size, size_t offset,
                                             aclrtDrvMemHandle handle,
                                             uint64_t flags) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommDeactivateCommMemory(HcclComm comm,
                                               void *virPtr) HCOMM_WEAK_SYMBOL;

/* Switching to a backup network card: the simulator has none.
 * HCCL_E_NOT_SUPPORT (after HCCL_E_PTR / HCCL_E_PARA checks). */
extern HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t *ranks,
                                           bool *useBackup,
                                           uint32_t nRanks) HCOMM_WEAK_SYMBOL;

/* Group calls (per thread; they nest). Between HcclGroupStart and
 * HcclGroupEnd: communicator creations (run together at HcclGroupEnd, so one
 * thread can create the ranks of several devices), collectives (queued as
 * called), or sends and receives (queued at HcclGroupEnd as one batch per
 * communicator and stream, so they do not wait for each other) — one kind
 * per group (HCCL_E_PARA otherwise), no HcclBatchSendRecv
 * (HCCL_E_NOT_SUPPORT). HcclGroupEnd without a start: HCCL_E_PARA. */
extern HcclResult HcclGroupStart(void);
extern HcclResult HcclGroupEnd(void);
/* Whether the calling thread is inside a group. HCCL_E_PTR. */
extern HcclResult HcclGroupStatusGet(bool *isGroupEnabled);

/* Symmetric memory windows (Atlas A3 HCCS / Ascend 950 URMA): not simulated.
 * HCCL_E_NOT_SUPPORT. */
extern HcclResult HcclCommSymWinRegister(HcclComm comm, void *addr,
                                         uint64_t size,
                                         HcclCommSymWindow *winHandle,
                                         uint32_t flag);
extern HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle);
extern HcclResult HcclCommSymWinGet(HcclComm comm, void *ptr, size_t size,
                                    HcclCommSymWindow *winHandle,
                                    size_t *offset);

/* Where operations expand: collectives here run on the host (as
 * HCCL_OP_EXPANSION_MODE_HOST). */
typedef enum {
  HCCL_OP_EXPANSION_MODE_INVALID = -1,
  HCCL_OP_EXPANSION_MODE_AI_CPU = 0,
  HCCL_OP_EXPANSION_MODE_AIV = 1,
  HCCL_OP_EXPANSION_MODE_HOST = 2,
  HCCL_OP_EXPANSION_MODE_HOST_TS = 3,
  HCCL_OP_EXPANSION_MODE_CCU_MS = 4,
  HCCL_OP_EXPANSION_MODE_CCU_SCHED = 5,
  HCCL_OP_EXPANSION_AIV_ONLY = 6
} HcclOpExpansionMode;

typedef enum {
  HCCL_CONFIG_TYPE_INVALID = -1,
  HCCL_CONFIG_TYPE_OP_EXPANSION_MODE = 0,
  HCCL_CONFIG_TYPE_HCCL_ALGO = 1
} HcclConfigType;

typedef HcclOpExpansionMode HcclConfigTypeOpExpansionMode;

/* A communicator's setting: OP_EXPANSION_MODE (infoLen must be
 * sizeof(HcclConfigTypeOpExpansionMode)) or HCCL_ALGO (the algorithm string,
 * infoLen >= HCCL_COMM_ALGO_MAX_LENGTH). HCCL_E_PTR; HCCL_E_PARA. */
extern HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType,
                                    uint32_t infoLen, void *info);

#ifdef __cplusplus
}
#endif /* __cplusplus */
#endif /* HCCL_COMM_H_ */
