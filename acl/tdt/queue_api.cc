// C entry points of libacl_tdt_queue.so: queues, their data and the routes
// between them (DESIGN.md §5.23; doc 17-02_shared_queue_management).
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/tdt/queue.h"
#include "acl/tdt/tdt_util.h"

using ascend::tdt::Queues;
using ascend::tdt::Reject;
using ascend::tdt::ReleaseBuffers;

namespace {

// Size of a buffer's user-data region (17-02: userDataSize <= 96).
constexpr size_t kUserDataSize = 96;

// The calling thread's current device, which queues are made on and looked
// up in (the reference asks the runtime for it the same way).
aclError CurrentDevice(const char* api, int32_t* device) {
  const aclError ret = aclrtGetDevice(device);
  if (ret != ACL_SUCCESS) {
    return Reject(api, ret, "the calling thread has no current device");
  }
  return ACL_SUCCESS;
}

aclError CheckTimeout(const char* api, int32_t timeout) {
  if (!ascend::tdt::ValidTimeout(timeout)) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "timeout " + std::to_string(timeout) + " is below -1");
  }
  return ACL_SUCCESS;
}

aclError CheckUserData(const char* api, const void* userData,
                       size_t userDataSize) {
  if (userDataSize > kUserDataSize) {
    return Reject(
        api, ACL_ERROR_INVALID_PARAM,
        "userDataSize " + std::to_string(userDataSize) + " is above 96");
  }
  if (userData == nullptr && userDataSize != 0) {
    return Reject(
        api, ACL_ERROR_INVALID_PARAM,
        "userData is NULL but userDataSize is " + std::to_string(userDataSize));
  }
  return ACL_SUCCESS;
}

// A new buffer holding data[0 .. size) and the user data.
aclError FillBuffer(const char* api, const void* data, size_t size,
                    const void* userData, size_t userDataSize, void** out) {
  bool device = false;
  aclError ret = ascend::tdt::IsDeviceMemory(data, &device);
  if (ret != ACL_SUCCESS)
    return Reject(api, ret, "data is not a valid pointer");
  void* buf = nullptr;
  ret = aclrtAllocBuf(&buf, size);
  if (ret != ACL_SUCCESS) return Reject(api, ret, "no buffer for the data");
  void* region = nullptr;
  size_t region_size = 0;
  ret = aclrtGetBufData(buf, &region, &region_size);
  if (ret == ACL_SUCCESS) {
    ret = ascend::tdt::CopyToHost(region, data, size, device);
  }
  if (ret == ACL_SUCCESS) ret = aclrtSetBufDataLen(buf, size);
  if (ret == ACL_SUCCESS && userDataSize != 0) {
    ret = aclrtSetBufUserData(buf, userData, userDataSize, 0);
  }
  if (ret != ACL_SUCCESS) {
    ReleaseBuffers({buf});
    return Reject(api, ret, "the data could not be copied into a buffer");
  }
  *out = buf;
  return ACL_SUCCESS;
}

// Copies the valid data of buf's chain to data (host or device memory).
aclError CopyOut(const char* api, void* buf, void* data) {
  bool device = false;
  aclError ret = ascend::tdt::IsDeviceMemory(data, &device);
  if (ret != ACL_SUCCESS)
    return Reject(api, ret, "data is not a valid pointer");
  uint32_t count = 0;
  ret = aclrtGetBufChainNum(buf, &count);
  size_t offset = 0;
  for (uint32_t i = 0; ret == ACL_SUCCESS && i < count; ++i) {
    void* piece = nullptr;
    void* region = nullptr;
    size_t region_size = 0;
    size_t len = 0;
    ret = aclrtGetBufFromChain(buf, i, &piece);
    if (ret == ACL_SUCCESS) ret = aclrtGetBufData(piece, &region, &region_size);
    if (ret == ACL_SUCCESS) ret = aclrtGetBufDataLen(piece, &len);
    if (ret == ACL_SUCCESS) {
      ret = ascend::tdt::CopyFromHost(static_cast<uint8_t*>(data) + offset,
                                      region, len, device);
    }
    offset += len;
  }
  if (ret != ACL_SUCCESS) {
    return Reject(api, ret, "the data could not be copied out");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) try {
  if (qid == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "qid is NULL");
  }
  int32_t device = 0;
  aclError ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  const std::string name = attr == nullptr ? std::string() : attr->name;
  const uint32_t depth = attr == nullptr ? Queues::kDefaultDepth : attr->depth;
  return Queues::Get().Create(__func__, device, name, depth, qid);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtDestroyQueue(uint32_t qid) try {
  int32_t device = 0;
  aclError ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Garbage garbage;
  ret = Queues::Get().Destroy(__func__, device, qid, &garbage);
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) try {
  if (buf == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "buf is NULL");
  }
  aclError ret = CheckTimeout(__func__, timeout);
  if (ret != ACL_SUCCESS) return ret;
  size_t len = 0;
  ret = aclrtGetBufDataLen(buf, &len);
  if (ret != ACL_SUCCESS) {
    return Reject(__func__, ret, "buf is not a live buffer");
  }
  Queues::Garbage garbage;
  ret = Queues::Get().Enqueue(__func__, std::nullopt, qid, buf, timeout,
                              &garbage);
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) try {
  if (buf == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "buf is NULL");
  }
  aclError ret = CheckTimeout(__func__, timeout);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Garbage garbage;
  size_t len = 0;
  ret = Queues::Get().Dequeue(__func__, std::nullopt, qid, timeout,
                              std::nullopt, buf, &len, &garbage);
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize,
                           const void* userData, size_t userDataSize,
                           int32_t timeout, uint32_t rsv) try {
  static_cast<void>(rsv);  // reserved (17-02), ignored
  if (data == nullptr || dataSize == 0) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "data must not be NULL and dataSize not 0");
  }
  aclError ret = CheckUserData(__func__, userData, userDataSize);
  if (ret == ACL_SUCCESS) ret = CheckTimeout(__func__, timeout);
  if (ret != ACL_SUCCESS) return ret;
  int32_t device = 0;
  ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  ret = Queues::Get().Check(__func__, device, qid);  // before any copy
  if (ret != ACL_SUCCESS) return ret;
  void* buf = nullptr;
  ret = FillBuffer(__func__, data, dataSize, userData, userDataSize, &buf);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Garbage garbage;
  ret = Queues::Get().Enqueue(__func__, device, qid, buf, timeout, &garbage);
  if (ret != ACL_SUCCESS) garbage.push_back(buf);
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize,
                           size_t* retDataSize, void* userData,
                           size_t userDataSize, int32_t timeout) try {
  if (data == nullptr || retDataSize == nullptr || dataSize == 0) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "data and retDataSize must not be NULL and dataSize not 0");
  }
  aclError ret = CheckUserData(__func__, userData, userDataSize);
  if (ret == ACL_SUCCESS) ret = CheckTimeout(__func__, timeout);
  if (ret != ACL_SUCCESS) return ret;
  int32_t device = 0;
  ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Garbage garbage;
  void* buf = nullptr;
  size_t len = 0;
  ret = Queues::Get().Dequeue(__func__, device, qid, timeout, dataSize, &buf,
                              &len, &garbage);
  if (ret == ACL_ERROR_INVALID_PARAM) *retDataSize = len;  // the size needed
  if (ret == ACL_SUCCESS) {
    ret = CopyOut(__func__, buf, data);
    if (ret == ACL_SUCCESS && userDataSize != 0) {
      ret = aclrtGetBufUserData(buf, userData, userDataSize, 0);
    }
    if (ret == ACL_SUCCESS) {
      *retDataSize = len;
      garbage.push_back(buf);
    } else {
      Queues::Get().PutBack(qid, buf, &garbage);  // nothing is lost
    }
  }
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) try {
  if (qRouteList == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "qRouteList is NULL");
  }
  int32_t device = 0;
  aclError ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Garbage garbage;
  ret = Queues::Get().Bind(__func__, device, qRouteList, &garbage);
  ReleaseBuffers(garbage);
  return ret;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) try {
  if (qRouteList == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "qRouteList is NULL");
  }
  int32_t device = 0;
  const aclError ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  Queues::Get().Unbind(device, qRouteList);
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                acltdtQueueRouteList* qRouteList) try {
  if (queryInfo == nullptr || qRouteList == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "queryInfo and qRouteList must not be NULL");
  }
  if (!queryInfo->has_mode) {
    return Reject(
        __func__, ACL_ERROR_INVALID_PARAM,
        "the query has no mode: set ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM");
  }
  bool need_src = false;
  bool need_dst = false;
  switch (queryInfo->mode) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
      need_src = true;
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
      need_dst = true;
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
      need_src = need_dst = true;
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL:
      break;
    default:
      return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                    "mode " + std::to_string(queryInfo->mode) +
                        " is not an acltdtQueueRouteQueryMode");
  }
  if ((need_src && !queryInfo->has_src) || (need_dst && !queryInfo->has_dst)) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "the query's mode needs the source and/or destination id "
                  "it does not have");
  }
  int32_t device = 0;
  const aclError ret = CurrentDevice(__func__, &device);
  if (ret != ACL_SUCCESS) return ret;
  std::vector<acltdtQueueRoute> routes;
  Queues::Get().Query(device, *queryInfo, &routes);
  qRouteList->routes.swap(routes);
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

}  // extern "C"
