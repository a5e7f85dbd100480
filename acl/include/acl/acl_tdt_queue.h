/*
 * Shared queues, routes between them, and the shared buffers (mbufs) they
 * carry. Implemented in libacl_tdt_queue.so (link it beside libascendcl.so);
 * DESIGN.md §5.23.
 *
 * A queue is a named FIFO of shared buffers with a depth, identified by a
 * queue id. acltdtEnqueueData / acltdtDequeueData copy bytes in and out;
 * acltdtEnqueue / acltdtDequeue hand buffers over (the buffer functions below
 * are the mbufs of aclrtAllocBuf and friends, DESIGN.md §5.16). A route binds
 * a source queue to a destination queue: what reaches the source is moved to
 * every destination bound to it, in order, as soon as each of them has room
 * (every destination gets a reference to the same data: consumers must not
 * modify it in place).
 *
 * Conventions unless a comment says otherwise:
 *  - Callable from any thread.
 *  - Queue ids are never reused in a process. A queue belongs to the device
 *    current when it was made; the calls that name a current device
 *    (create, destroy, the *Data calls, routes) need one (else the code of
 *    aclrtGetDevice) and see only that device's queues.
 *  - An unknown queue id gets ACL_ERROR_RT_PARAM_INVALID (107000).
 *  - A failing call changes nothing and logs one line (route binding reports
 *    per route, see acltdtBindQueueRoutes).
 *  - Queues are host state outside the process snapshot: they and the
 *    buffers in them survive aclrtSnapShotProcessLock/Backup/Restore/Unlock
 *    as they are (DESIGN.md §5.23). Calls that allocate or free a buffer
 *    wait, as aclrtAllocBuf and aclrtFreeBuf do, while the process is locked.
 *  - Timeouts are in milliseconds: -1 waits for good, 0 does not wait, a
 *    positive value waits at most that long.
 */
#ifndef ASCENDCL_ACL_ACL_TDT_QUEUE_H_
#define ASCENDCL_ACL_ACL_TDT_QUEUE_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Permission bits of acltdtGrantQueue / acltdtAttachQueue. */
#define ACL_TDT_QUEUE_PERMISSION_MANAGE 1
#define ACL_TDT_QUEUE_PERMISSION_DEQUEUE 2
#define ACL_TDT_QUEUE_PERMISSION_ENQUEUE 4

/* Route status (ACL_TDT_QUEUE_ROUTE_STATUS_INT32). */
#define ACL_TDT_QUEUE_ROUTE_UNBIND 0
#define ACL_TDT_QUEUE_ROUTE_BIND 1
#define ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL 2

typedef void *acltdtBuf;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef struct acltdtQueueRoute acltdtQueueRoute;

/* Queue attributes: the name (a const char * passed by address, len
 * sizeof(char *)) and the depth (uint32_t, len 4). */
typedef enum {
  ACL_TDT_QUEUE_NAME_PTR = 0,
  ACL_TDT_QUEUE_DEPTH_UINT32
} acltdtQueueAttrType;

/* Route parameters (each 4 bytes). */
typedef enum {
  ACL_TDT_QUEUE_ROUTE_SRC_UINT32 = 0,
  ACL_TDT_QUEUE_ROUTE_DST_UINT32,
  ACL_TDT_QUEUE_ROUTE_STATUS_INT32
} acltdtQueueRouteParamType;

/* Which routes acltdtQueryQueueRoutes answers: those of a source, of a
 * destination, the one between a source and a destination, or the abnormal
 * ones. */
typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC = 0,
  ACL_TDT_QUEUE_ROUTE_QUERY_DST = 1,
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST = 2,
  ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL = 100
} acltdtQueueRouteQueryMode;

/* Query conditions (each 4 bytes; the mode is an acltdtQueueRouteQueryMode). */
typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM = 0,
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,
  ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32
} acltdtQueueRouteQueryInfoParamType;

/* Memory kind of acltdtAllocBuf (only ACL_TDT_NORMAL_MEM is accepted). */
typedef enum { ACL_TDT_NORMAL_MEM = 0, ACL_TDT_DVPP_MEM } acltdtAllocBufType;

/* ---------------------------------------------------------------------------
 * Queues.
 * ------------------------------------------------------------------------- */

/* Makes a queue on the current device with attr's name and depth (attr NULL:
 * a generated name and depth 8; an empty name is also replaced by a generated
 * one) and returns its id. Errors: ACL_ERROR_INVALID_PARAM (100000) for a
 * NULL qid and for a name already naming a queue of the device; 107000 for a
 * depth outside [2, 8192]; no current device: aclrtGetDevice's code. */
ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr,
                                               uint32_t *qid);
/* Destroys a queue of the current device, freeing the buffers still in it;
 * threads waiting on it return 107000. Errors: 107000 for an unknown qid;
 * ACL_ERROR_FAILURE (500001) while a route binds it (unbind first). */
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid);
/* Appends buf (from acltdtAllocBuf or acltdtCopyBufRef) to the queue,
 * waiting up to timeout while it is full; the queue then owns buf. Any
 * device's queue may be named. Errors: 100000 for a NULL buf or a timeout
 * below -1; 107000 for an unknown qid, a buf that is not a live buffer or is
 * already in a queue; ACL_ERROR_RT_QUEUE_FULL (207014) when still full at the
 * timeout (the caller keeps buf). */
ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf,
                                           int32_t timeout);
/* Takes the oldest buffer of the queue, waiting up to timeout while it is
 * empty; the caller owns it (free it with acltdtFreeBuf). Any device's queue
 * may be named. Errors: 100000 for a NULL buf or a timeout below -1; 107000
 * for an unknown qid; ACL_ERROR_RT_QUEUE_EMPTY (207013) when still empty at
 * the timeout. */
ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf *buf,
                                           int32_t timeout);
/* Appends a buffer holding a copy of data[0 .. dataSize) (host or device
 * memory) and of userData[0 .. userDataSize) in its user-data region,
 * waiting up to timeout while the queue is full. rsv is reserved and
 * ignored. Errors: 100000 for NULL data, dataSize 0, userDataSize above 96,
 * NULL userData with userDataSize above 0, timeout below -1; 107000 for an
 * unknown qid; 207014 when still full at the timeout; codes of aclrtAllocBuf
 * and aclrtMemcpy. */
ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data,
                                               size_t dataSize,
                                               const void *userData,
                                               size_t userDataSize,
                                               int32_t timeout, uint32_t rsv);
/* Takes the oldest buffer of the queue, waiting up to timeout while it is
 * empty, copies its valid data to data (host or device memory) and the first
 * userDataSize bytes of its user data to userData, sets *retDataSize to the
 * data's length and frees the buffer. Errors: 100000 for NULL data or
 * retDataSize, dataSize 0, userDataSize above 96, NULL userData with
 * userDataSize above 0, timeout below -1, and a dataSize below the oldest
 * buffer's length (*retDataSize then says the length needed and the buffer
 * stays queued); 107000 for an unknown qid; 207013 when still empty at the
 * timeout; codes of aclrtMemcpy. */
ACL_FUNC_VISIBILITY aclError acltdtDequeueData(
    uint32_t qid, void *data, size_t dataSize, size_t *retDataSize,
    void *userData, size_t userDataSize, int32_t timeout);
/* Sharing queues with other processes is supported by no CANN product
 * (17-02): ACL_ERROR_FEATURE_UNSUPPORTED (200006), nothing changes. */
ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid,
                                              uint32_t permission,
                                              int32_t timeout);
/* As acltdtGrantQueue: ACL_ERROR_FEATURE_UNSUPPORTED (200006). */
ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout,
                                               uint32_t *permission);

/* ---------------------------------------------------------------------------
 * Routes between queues of the current device.
 * ------------------------------------------------------------------------- */

/* Binds every route of the list, setting each route's status: BIND (1) when
 * bound (also when it already was), UNBIND (0) when refused: a source equal
 * to its destination, an unknown queue, a destination that is the source of
 * a bound route or a source that is the destination of one (routes are one
 * level deep, so they never form a cycle). Data waiting in a newly bound
 * source starts moving at once. Errors: 100000 for NULL; ACL_ERROR_FAILURE
 * (500001) when any route was refused (the others are bound). */
ACL_FUNC_VISIBILITY aclError
acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList);
/* Unbinds every route of the list, setting each status to UNBIND (0); a
 * route that is not bound is already unbound. Data already moved stays
 * where it is. Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError
acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList);
/* Replaces the list's contents with the bound routes matching queryInfo,
 * ordered by source then destination, each with status BIND (1); abnormal
 * routes never arise here, so that mode answers none. Errors: 100000 for a
 * NULL argument, a queryInfo without a mode, with a mode that is not an
 * acltdtQueueRouteQueryMode, or without the source / destination id its
 * mode needs. */
ACL_FUNC_VISIBILITY aclError
acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo,
                       acltdtQueueRouteList *qRouteList);

/* ---------------------------------------------------------------------------
 * Shared buffers: the mbufs of aclrtAllocBuf and friends (DESIGN.md §5.16),
 * with their codes; a chain holds at most 128 buffers, the user-data region
 * is 96 bytes.
 * ------------------------------------------------------------------------- */

/* A buffer with a data region of size bytes (1 .. 4 GiB) and valid length
 * 0. Errors: 100000 for a type other than ACL_TDT_NORMAL_MEM, a NULL buf, a
 * size of 0 or above 4 GiB; 207001 when out of memory. */
ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type,
                                            acltdtBuf *buf);
/* Frees buf and the buffers chained to it (aclrtFreeBuf). */
ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf);
/* The data region's address and size (aclrtGetBufData). */
ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf,
                                              void **dataPtr, size_t *size);
/* Sets the valid data length, at most the region's size
 * (aclrtSetBufDataLen). */
ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
/* The valid data length (aclrtGetBufDataLen). */
ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t *len);
/* Appends buf to headBuf's chain (aclrtAppendBufChain). */
ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf,
                                                  acltdtBuf buf);
/* The number of buffers in headBuf's chain, head included
 * (aclrtGetBufChainNum). */
ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf,
                                                  uint32_t *num);
/* The index-th buffer of headBuf's chain, 0 being the head
 * (aclrtGetBufFromChain). */
ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf,
                                                   uint32_t index,
                                                   acltdtBuf *buf);
/* Copies size bytes at offset of the user-data region to dataPtr; size +
 * offset at most 96 (aclrtGetBufUserData). */
ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf,
                                                  void *dataPtr, size_t size,
                                                  size_t offset);
/* Copies size bytes from dataPtr into the user-data region at offset; size +
 * offset at most 96 (aclrtSetBufUserData). */
ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf,
                                                  const void *dataPtr,
                                                  size_t size, size_t offset);
/* A new buffer sharing buf's data region (aclrtCopyBufRef). */
ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf,
                                              acltdtBuf *newBuf);

/* ---------------------------------------------------------------------------
 * Queue attributes, routes, route lists and route queries: host objects the
 * caller creates and destroys. Set calls take len equal to the parameter's
 * size; Get calls take len at least that size and set *paramRetSize to it.
 * ------------------------------------------------------------------------- */

/* New attributes: empty name (one is generated at creation), depth 8. NULL
 * only when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr(void);
/* Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueAttr(const acltdtQueueAttr *attr);
/* Sets the name (param points to a const char *, copied: at most 127 bytes
 * before its terminator) or the depth (checked at acltdtCreateQueue).
 * Errors: 100000 for a NULL argument or name, an unknown type, a len other
 * than the parameter's size, a name too long. */
ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr,
                                                acltdtQueueAttrType type,
                                                size_t len, const void *param);
/* Gets the name (a const char * to the attributes' copy, valid while they
 * live) or the depth. Errors: 100000 for a NULL argument, an unknown type, a
 * len below the parameter's size. */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr,
                                                acltdtQueueAttrType type,
                                                size_t len,
                                                size_t *paramRetSize,
                                                void *param);

/* A route from srcId to dstId, status UNBIND. NULL only when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId,
                                                             uint32_t dstId);
/* Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRoute(const acltdtQueueRoute *route);
/* Gets the route's source, destination or status. Errors: 100000 for a NULL
 * argument, an unknown type, a len below 4. */
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(
    const acltdtQueueRoute *route, acltdtQueueRouteParamType type, size_t len,
    size_t *paramRetSize, void *param);

/* A new, empty route list. NULL only when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList(void);
/* Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList);
/* Appends a copy of route. Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(
    acltdtQueueRouteList *routeList, const acltdtQueueRoute *route);
/* Copies the index-th route of the list into *route. Errors: 100000 for a
 * NULL argument or an index past the end. */
ACL_FUNC_VISIBILITY aclError
acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index,
                    acltdtQueueRoute *route);
/* The number of routes in the list; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t
acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList);

/* New, empty query conditions. NULL only when out of memory. */
ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(
    void);
/* Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError
acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info);
/* Sets the mode, the source id or the destination id (the mode is checked
 * at acltdtQueryQueueRoutes). Errors: 100000 for a NULL argument, an unknown
 * type, a len other than 4. */
ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(
    acltdtQueueRouteQueryInfo *param, acltdtQueueRouteQueryInfoParamType type,
    size_t len, const void *value);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_TDT_QUEUE_H_ */
