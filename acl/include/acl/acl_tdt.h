/*
 * Tensor data transfer (TDT): data items, datasets and data channels.
 * Implemented in libacl_tdt_channel.so (link it beside libascendcl.so);
 * DESIGN.md §5.23.
 *
 * A data item describes one tensor (type, shape, element type, bytes); a
 * dataset is an ordered list of items; a channel carries datasets, in order,
 * from a sender to a receiver. acltdtSendTensor copies the items' bytes into
 * the channel, so the caller's memory may be reused as soon as it returns.
 *
 * Channels made with acltdtCreateChannelWithCapacity are queues of their own:
 * what is sent on one is received on the same handle. Channels made with
 * acltdtCreateChannel are the device's data channels (the TensorFlow
 * infeed/outfeed path): what is sent on channel N of a device waits there,
 * and the simulated device, which runs no consumer of its own, hands it to a
 * channel named "TF_RECEIVE_N" of the same device.
 *
 * Conventions unless a comment says otherwise:
 *  - Callable from any thread; a channel may be used by several threads.
 *  - A failing call changes nothing and logs one line.
 *  - Channel state is host memory outside the process snapshot: it survives
 *    aclrtSnapShotProcessLock/Backup/Restore/Unlock as it is (DESIGN.md
 *    §5.23), and channel calls never wait for a snapshot (only a copy from
 *    device memory does, at aclrtMemcpy).
 *  - Timeouts are in milliseconds: -1 waits for good, 0 does not wait, a
 *    positive value waits at most that long.
 */
#ifndef ASCENDCL_ACL_ACL_TDT_H_
#define ASCENDCL_ACL_ACL_TDT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a data item holds. END_OF_SEQUENCE and ABNORMAL items carry no data;
 * SLICE_TENSOR and END_TENSOR describe pieces of a sliced tensor, which only
 * a device producer makes (they cannot be sent from the host). The typedef
 * makes the type usable from C too. */
typedef enum acltdtTensorType {
  ACL_TENSOR_DATA_UNDEFINED = -1,
  ACL_TENSOR_DATA_TENSOR,
  ACL_TENSOR_DATA_END_OF_SEQUENCE,
  ACL_TENSOR_DATA_ABNORMAL,
  ACL_TENSOR_DATA_SLICE_TENSOR,
  ACL_TENSOR_DATA_END_TENSOR
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* ---------------------------------------------------------------------------
 * Data items. An item made by acltdtCreateDataItem belongs to the caller
 * (release it with acltdtDestroyDataItem, also after adding it to a dataset:
 * a dataset does not own the items added to it). An item of a dataset filled
 * by acltdtReceiveTensor belongs to that dataset.
 * ------------------------------------------------------------------------- */

/* The item's tensor type; ACL_TENSOR_DATA_UNDEFINED for NULL. */
ACL_FUNC_VISIBILITY acltdtTensorType
acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);
/* The item's element type (ACL_DT_UNDEFINED for items that are not tensors);
 * ACL_DT_UNDEFINED for NULL. */
ACL_FUNC_VISIBILITY aclDataType
acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);
/* The item's data: the caller's pointer for an item it made, the received
 * bytes (owned by the dataset) for a received one. NULL for NULL and for
 * items without data. */
ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(
    const acltdtDataItem *dataItem);
/* The item's data size in bytes; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t
acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);
/* The number of dimensions of the item's shape; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t
acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);
/* The item's slice count and slice index (0 and 0 unless a device producer
 * sliced the tensor). Errors: ACL_ERROR_INVALID_PARAM (100000) for a NULL
 * argument. */
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(
    const acltdtDataItem *dataItem, size_t *sliceNum, size_t *sliceId);
/* Copies the item's shape into dims[0 .. dimNum). Errors: 100000 for a NULL
 * item, for dims NULL with dimNum > 0 or dims set with dimNum 0, and for
 * dimNum below the item's number of dimensions. */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(
    const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum);
/* A new item. For ACL_TENSOR_DATA_TENSOR it records the shape (copied), the
 * element type and the caller's data pointer and size (not copied: keep the
 * memory valid until the item is sent); data may be host or device memory.
 * For the other types dims must be NULL and the item has no data (data and
 * size are ignored, the element type is ACL_DT_UNDEFINED). Returns NULL for
 * a tdtType or (tensors) dataType that is not a value of its enum, dims NULL
 * with dimNum > 0, dims set with dimNum 0, dimNum above 128, and when out of
 * memory. */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(
    acltdtTensorType tdtType, const int64_t *dims, size_t dimNum,
    aclDataType dataType, void *data, size_t size);
/* Frees an item made by acltdtCreateDataItem (not its data). Errors: 100000
 * for NULL and for an item that belongs to a received dataset (destroy the
 * dataset instead). */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);

/* ---------------------------------------------------------------------------
 * Datasets.
 * ------------------------------------------------------------------------- */

/* A new, empty dataset; NULL only when out of memory. */
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void);
/* Frees the dataset; a received dataset frees its items and received bytes
 * with it, other items stay the caller's. Errors: 100000 for NULL. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);
/* The index-th item; NULL for a NULL dataset or an index past the end. */
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(
    const acltdtDataset *dataset, size_t index);
/* Appends an item (not owned by the dataset). The items of one dataset hold
 * either host or device data, not both. Errors: 100000 for a NULL argument
 * and for an item whose data lives on the other side from the items already
 * added; ACL_ERROR_FEATURE_UNSUPPORTED (200006) for a dataset filled by
 * acltdtReceiveTensor; a code of aclrtPointerGetAttributes when the data
 * pointer cannot be classified. */
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset,
                                               acltdtDataItem *dataItem);
/* The number of items; 0 for NULL. */
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);
/* The dataset's name, valid while the dataset lives: "" for datasets made
 * here and received from the host (only device producers name datasets);
 * NULL for NULL. */
ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(
    const acltdtDataset *dataset);

/* ---------------------------------------------------------------------------
 * Channels. Handles are validated: a handle that is not live (destroyed, or
 * never made here) gets ACL_ERROR_INVALID_PARAM (100000).
 * ------------------------------------------------------------------------- */

/* Wakes every thread blocked in acltdtSendTensor or acltdtReceiveTensor on
 * this channel (they return ACL_ERROR_FAILURE, 500001); later sends and
 * receives on it fail the same way at once. Size queries and cleaning still
 * work; stopping twice is harmless. Call it from another thread than the
 * blocked ones, then acltdtDestroyChannel. Errors: 100000 for a NULL or
 * unknown handle. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);
/* A device data channel (see the file comment); any number of handles may
 * name the same channel. Only timeout -1 is accepted by its sends and
 * receives, only names starting "TF_RECEIVE_" can receive, and it has no size
 * query or clean. Returns NULL for a NULL name, a name of 128 bytes or more
 * (terminator included), a deviceId that is not below aclrtGetDeviceCount's,
 * and when out of memory. */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId,
                                                             const char *name);
/* A channel holding at most capacity datasets, received on the same handle.
 * Returns NULL for a NULL name, a name of 128 bytes or more (terminator
 * included) or already naming a live channel with a capacity, a capacity
 * outside [2, 8192], a deviceId that is not below aclrtGetDeviceCount's, and
 * when out of memory. */
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(
    uint32_t deviceId, const char *name, size_t capacity);
/* Frees the channel; datasets still in it are dropped and blocked senders
 * and receivers return ACL_ERROR_FAILURE (500001). Errors: 100000 for a NULL
 * or unknown handle. */
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);
/* Drops every dataset waiting in the channel. Errors: 100000 for a NULL or
 * unknown handle; ACL_ERROR_FEATURE_UNSUPPORTED (200006) for a channel made
 * by acltdtCreateChannel. */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);
/* Appends a copy of the dataset's items (types, shapes, bytes) to the
 * channel, waiting up to timeout while it is full. Errors: 100000 for a NULL
 * or unknown handle, a NULL or empty dataset, timeout below -1 (or other
 * than -1 on a channel of acltdtCreateChannel), an item of type SLICE_TENSOR,
 * END_TENSOR or UNDEFINED, or a tensor item with NULL data and a size;
 * ACL_ERROR_RT_QUEUE_FULL (207014) when still full at the timeout;
 * ACL_ERROR_FAILURE (500001) for a stopped channel; a code of aclrtMemcpy
 * when device data cannot be read; ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
 * when out of memory. */
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle,
                                              const acltdtDataset *dataset,
                                              int32_t timeout);
/* Takes the oldest dataset from the channel, waiting up to timeout while it
 * is empty, and fills dataset with its items: host memory owned by dataset,
 * valid until it is destroyed or receives again (a later receive replaces
 * the items). Errors: 100000 for a NULL or unknown handle, a NULL dataset, a
 * dataset holding items added by the caller, timeout below -1, and on a
 * channel of acltdtCreateChannel a timeout other than -1 or a name not
 * starting "TF_RECEIVE_"; ACL_ERROR_RT_QUEUE_EMPTY (207013) when still empty
 * at the timeout; ACL_ERROR_FAILURE (500001) for a stopped channel. */
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(
    const acltdtChannelHandle *handle, acltdtDataset *dataset, int32_t timeout);
/* The number of datasets waiting in the channel. Errors: 100000 for a NULL
 * argument or an unknown handle; ACL_ERROR_FEATURE_UNSUPPORTED (200006) for a
 * channel made by acltdtCreateChannel. */
ACL_FUNC_VISIBILITY aclError
acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACL_ACL_TDT_H_ */
