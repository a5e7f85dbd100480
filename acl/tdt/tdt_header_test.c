/* The TDT headers compile as C99 (the reference's acl_tdt.h does not: its
 * acltdtTensorType has no typedef) and keep the reference's numeric values. */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

#define EXPECT(cond)                          \
  do {                                        \
    if (!(cond)) {                            \
      fprintf(stderr, "FAILED: %s\n", #cond); \
      ++failures;                             \
    }                                         \
  } while (0)

/* Calls through the declarations' types: a signature that changes fails to
 * compile here. */
static acltdtDataItem *(*const create_item)(acltdtTensorType, const int64_t *,
                                            size_t, aclDataType, void *,
                                            size_t) = acltdtCreateDataItem;
static aclError (*const send_tensor)(const acltdtChannelHandle *,
                                     const acltdtDataset *,
                                     int32_t) = acltdtSendTensor;
static aclError (*const enqueue_data)(uint32_t, const void *, size_t,
                                      const void *, size_t, int32_t,
                                      uint32_t) = acltdtEnqueueData;
static aclError (*const get_attr)(const acltdtQueueAttr *, acltdtQueueAttrType,
                                  size_t, size_t *,
                                  void *) = acltdtGetQueueAttr;

int main(void) {
  int failures = 0;
  acltdtTensorType type = ACL_TENSOR_DATA_END_TENSOR;
  acltdtBuf buf = NULL;
  EXPECT(ACL_TENSOR_DATA_UNDEFINED == -1);
  EXPECT(ACL_TENSOR_DATA_TENSOR == 0);
  EXPECT(ACL_TENSOR_DATA_END_OF_SEQUENCE == 1);
  EXPECT(ACL_TENSOR_DATA_ABNORMAL == 2);
  EXPECT(ACL_TENSOR_DATA_SLICE_TENSOR == 3);
  EXPECT(type == 4);
  EXPECT(ACL_TDT_QUEUE_PERMISSION_MANAGE == 1);
  EXPECT(ACL_TDT_QUEUE_PERMISSION_DEQUEUE == 2);
  EXPECT(ACL_TDT_QUEUE_PERMISSION_ENQUEUE == 4);
  EXPECT(ACL_TDT_QUEUE_ROUTE_UNBIND == 0);
  EXPECT(ACL_TDT_QUEUE_ROUTE_BIND == 1);
  EXPECT(ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL == 2);
  EXPECT(ACL_TDT_QUEUE_NAME_PTR == 0 && ACL_TDT_QUEUE_DEPTH_UINT32 == 1);
  EXPECT(ACL_TDT_QUEUE_ROUTE_SRC_UINT32 == 0);
  EXPECT(ACL_TDT_QUEUE_ROUTE_DST_UINT32 == 1);
  EXPECT(ACL_TDT_QUEUE_ROUTE_STATUS_INT32 == 2);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_SRC == 0);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_DST == 1);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST == 2);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL == 100);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM == 0);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32 == 1);
  EXPECT(ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32 == 2);
  EXPECT(ACL_TDT_NORMAL_MEM == 0 && ACL_TDT_DVPP_MEM == 1);
  EXPECT(sizeof(acltdtTensorType) == 4);
  EXPECT(sizeof(acltdtQueueRouteQueryMode) == 4);
  EXPECT(sizeof buf == sizeof(void *));
  EXPECT(create_item != NULL && send_tensor != NULL);
  EXPECT(enqueue_data != NULL && get_attr != NULL);
  EXPECT(ACL_ERROR_RT_QUEUE_EMPTY == 207013 &&
         ACL_ERROR_RT_QUEUE_FULL == 207014);
  EXPECT(ACL_ERROR_FEATURE_UNSUPPORTED == 200006);
  {
    /* A type outside the enumeration, as C lets a caller pass it: refused,
     * and the attribute keeps its depth. */
    acltdtQueueAttr *attr = acltdtCreateQueueAttr();
    uint32_t depth = 0;
    size_t size = 0;
    EXPECT(attr != NULL);
    EXPECT(acltdtSetQueueAttr(attr, (acltdtQueueAttrType)7, 4, &depth) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(acltdtGetQueueAttr(attr, (acltdtQueueAttrType)7, 8, &size, &depth) ==
           ACL_ERROR_INVALID_PARAM);
    EXPECT(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth,
                              &size, &depth) == ACL_SUCCESS);
    EXPECT(depth == 8 && size == sizeof depth);
    EXPECT(acltdtDestroyQueueAttr(attr) == ACL_SUCCESS);
  }
  if (failures == 0) printf("PASS\n");
  return failures == 0 ? 0 : 1;
}
