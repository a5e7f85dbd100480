/*
 * HCCL's collective and point-to-point operations (CANN's hccl/hccl.h, from
 * hicann/hccl): names and signatures as CANN ships them.
 *
 * Each operation checks its arguments and queues one task on `stream`, as
 * ordinary stream work: it runs after the work queued before it,
 * aclrtSynchronizeStream waits for it, a capture (aclmdlRICaptureBegin)
 * records it for replay, and it appears in the profiling timeline under its
 * name. A task waits on its stream until every rank it needs reached the
 * same operation; one that fails (peers not arriving within
 * HCCL_EXEC_TIMEOUT, a peer lost, ranks disagreeing) fails its stream
 * (aclrtSynchronizeStream reports it) and sets the communicator's
 * asynchronous error (HcclGetCommAsyncError).
 *
 * Codes at the call: HCCL_E_PTR (a required pointer is NULL: comm, stream,
 * a buffer that holds data), HCCL_E_PARA (not a communicator, a count above
 * 0x7FFFFFFFF, a rank out of range, a misaligned buffer, an in-place call
 * the operation forbids, counts that disagree), HCCL_E_NOT_SUPPORT (a data
 * type or reduction the operation does not take, sending to oneself),
 * HCCL_E_SUSPENDING (the communicator is suspended), the communicator's
 * asynchronous error (it failed before), HCCL_E_RUNTIME (the runtime refused
 * the task; its code is logged). A count of 0 queues nothing and succeeds.
 *
 * Data types: reductions (AllReduce, Reduce, ReduceScatter) take int8,
 * int16, int32, int64, uint64, fp16, fp32, fp64, bfp16 (ReduceScatterV not
 * uint64 or fp64); PROD takes neither int16 nor bfp16. The others move any
 * type but int128. 16-bit floats reduce in fp32 and round once.
 */
#ifndef HCCL_H_
#define HCCL_H_

#include <acl/acl.h>
#include <hccl/hccl_comm.h>
#include <hccl/hccl_types.h>

#ifdef __cplusplus
extern "C" {
#endif /* __cplusplus */

/* recvBuf[i] = op over the ranks of sendBuf[i], on every rank. In place
 * (sendBuf == recvBuf) allowed. */
extern HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count,
                                HcclDataType dataType, HcclReduceOp op,
                                HcclComm comm, aclrtStream stream);

/* buf of every rank = buf of root. */
extern HcclResult HcclBroadcast(void *buf, uint64_t count,
                                HcclDataType dataType, uint32_t root,
                                HcclComm comm, aclrtStream stream);

/* recvBuf of rank r = op over the ranks of sendBuf[r * recvCount ...]. */
extern HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf,
                                    uint64_t recvCount, HcclDataType dataType,
                                    HcclReduceOp op, HcclComm comm,
                                    aclrtStream stream);

/* As ReduceScatter with per-rank counts and offsets (uint64_t arrays of
 * rank-size entries, the same on every rank); recvCount must equal
 * sendCounts[rank]; sendBuf != recvBuf. */
extern HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts,
                                     const void *sendDispls, void *recvBuf,
                                     uint64_t recvCount, HcclDataType dataType,
                                     HcclReduceOp op, HcclComm comm,
                                     aclrtStream stream);

/* recvBuf of rank r = sendBuf of root [r * recvCount ...]; sendBuf may be
 * NULL off the root. */
extern HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                              HcclDataType dataType, uint32_t root,
                              HcclComm comm, aclrtStream stream);

/* recvBuf[r * sendCount ...] = sendBuf of rank r, on every rank. */
extern HcclResult HcclAllGather(void *sendBuf, void *recvBuf,
                                uint64_t sendCount, HcclDataType dataType,
                                HcclComm comm, aclrtStream stream);

/* recvBuf[recvDispls[r] ...] = sendBuf of rank r (recvCounts[r] elements,
 * equal to rank r's sendCount); sendBuf != recvBuf. */
extern HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount,
                                 void *recvBuf, const void *recvCounts,
                                 const void *recvDispls, HcclDataType dataType,
                                 HcclComm comm, aclrtStream stream);

/* Sends count elements to destRank, whose HcclRecv takes them; the task ends
 * when they were received. */
extern HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType,
                           uint32_t destRank, HcclComm comm,
                           aclrtStream stream);
/* Receives count elements from srcRank's matching HcclSend. */
extern HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType,
                           uint32_t srcRank, HcclComm comm, aclrtStream stream);

/* AlltoAllV whose counts are one matrix every rank passes:
 * sendCountMatrix[i * rankSize + j] elements go from rank i to rank j,
 * packed in rank order at both ends; sendBuf != recvBuf. */
extern HcclResult HcclAlltoAllVC(const void *sendBuf,
                                 const void *sendCountMatrix,
                                 HcclDataType sendType, const void *recvBuf,
                                 HcclDataType recvType, HcclComm comm,
                                 aclrtStream stream);

/* Rank r's sendBuf[sdispls[j] ...] (sendCounts[j] elements) goes to rank
 * j's recvBuf[rdispls[r] ...] (recvCounts[r] elements there, which must
 * match). sendBuf != recvBuf; a buffer may be NULL where its counts are 0. */
extern HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts,
                                const void *sdispls, HcclDataType sendType,
                                const void *recvBuf, const void *recvCounts,
                                const void *rdispls, HcclDataType recvType,
                                HcclComm comm, aclrtStream stream);

/* Rank r's sendBuf[j * sendCount ...] goes to rank j's
 * recvBuf[r * recvCount ...]; recvCount == sendCount, recvType == sendType,
 * sendBuf != recvBuf. */
extern HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount,
                               HcclDataType sendType, const void *recvBuf,
                               uint64_t recvCount, HcclDataType recvType,
                               HcclComm comm, aclrtStream stream);

/* recvBuf of root = op over the ranks of sendBuf; other ranks' recvBuf is
 * not written. */
extern HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count,
                             HcclDataType dataType, HcclReduceOp op,
                             uint32_t root, HcclComm comm, aclrtStream stream);

/* Sends and receives of itemNum entries at once: none waits for another of
 * the batch (each still needs its peer's matching receive or send). */
extern HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo,
                                    uint32_t itemNum, HcclComm comm,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif /* __cplusplus */
#endif /* HCCL_H_ */
