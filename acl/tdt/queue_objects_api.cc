// C entry points of libacl_tdt_queue.so: queue attributes, routes, route
// lists and route queries, host objects the caller owns (DESIGN.md §5.23;
// doc 25-03_Operation_APIs).
#include <cstring>
#include <string>

#include "acl/acl_tdt_queue.h"
#include "acl/tdt/queue.h"
#include "acl/tdt/tdt_util.h"

using ascend::tdt::Reject;

namespace {

template <typename E>
int32_t Raw(const E& value) {
  int32_t raw;
  static_assert(sizeof(E) == sizeof raw);
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

// A Set call's len must be the parameter's size (25-03).
aclError CheckSetLen(const char* api, size_t len, size_t expected) {
  if (len != expected) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "len " + std::to_string(len) + " is not the parameter's " +
                      std::to_string(expected) + " bytes");
  }
  return ACL_SUCCESS;
}

// A Get call copies `size` bytes when len leaves room for them.
aclError GetParam(const char* api, const void* value, size_t size, size_t len,
                  size_t* paramRetSize, void* param) {
  if (len < size) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "len " + std::to_string(len) + " is below the parameter's " +
                      std::to_string(size) + " bytes");
  }
  std::memcpy(param, value, size);
  *paramRetSize = size;
  return ACL_SUCCESS;
}

aclError UnknownType(const char* api, int32_t type) {
  return Reject(api, ACL_ERROR_INVALID_PARAM,
                "type " + std::to_string(type) + " is not known");
}

}  // namespace

extern "C" {

acltdtQueueAttr* acltdtCreateQueueAttr(void) try { return new acltdtQueueAttr; }
TDT_ENTRY_CATCH(acltdtQueueAttr*)

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) try {
  if (attr == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "attr is NULL");
  }
  delete attr;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type,
                            size_t len, const void* param) try {
  if (attr == nullptr || param == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "attr and param must not be NULL");
  }
  switch (Raw(type)) {
    case ACL_TDT_QUEUE_NAME_PTR: {
      aclError ret = CheckSetLen(__func__, len, sizeof(const char*));
      if (ret != ACL_SUCCESS) return ret;
      const char* name = nullptr;
      std::memcpy(&name, param, sizeof name);
      if (name == nullptr) {
        return Reject(__func__, ACL_ERROR_INVALID_PARAM, "the name is NULL");
      }
      const size_t length = strnlen(name, acltdtQueueAttr::kNameSize);
      if (length >= acltdtQueueAttr::kNameSize) {
        return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                      "the name is longer than 127 bytes");
      }
      std::memset(attr->name, 0, sizeof attr->name);
      std::memcpy(attr->name, name, length);
      return ACL_SUCCESS;
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32: {
      aclError ret = CheckSetLen(__func__, len, sizeof(uint32_t));
      if (ret != ACL_SUCCESS) return ret;
      std::memcpy(&attr->depth, param, sizeof attr->depth);
      return ACL_SUCCESS;
    }
    default:
      return UnknownType(__func__, Raw(type));
  }
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr,
                            acltdtQueueAttrType type, size_t len,
                            size_t* paramRetSize, void* param) try {
  if (attr == nullptr || paramRetSize == nullptr || param == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "attr, paramRetSize and param must not be NULL");
  }
  switch (Raw(type)) {
    case ACL_TDT_QUEUE_NAME_PTR: {
      const char* name = attr->name;
      return GetParam(__func__, &name, sizeof name, len, paramRetSize, param);
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32:
      return GetParam(__func__, &attr->depth, sizeof attr->depth, len,
                      paramRetSize, param);
    default:
      return UnknownType(__func__, Raw(type));
  }
}
TDT_ENTRY_CATCH(aclError)

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) try {
  return new acltdtQueueRoute{srcId, dstId, ACL_TDT_QUEUE_ROUTE_UNBIND};
}
TDT_ENTRY_CATCH(acltdtQueueRoute*)

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) try {
  if (route == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "route is NULL");
  }
  delete route;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route,
                                  acltdtQueueRouteParamType type, size_t len,
                                  size_t* paramRetSize, void* param) try {
  if (route == nullptr || paramRetSize == nullptr || param == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "route, paramRetSize and param must not be NULL");
  }
  switch (Raw(type)) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
      return GetParam(__func__, &route->src, sizeof route->src, len,
                      paramRetSize, param);
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
      return GetParam(__func__, &route->dst, sizeof route->dst, len,
                      paramRetSize, param);
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
      return GetParam(__func__, &route->status, sizeof route->status, len,
                      paramRetSize, param);
    default:
      return UnknownType(__func__, Raw(type));
  }
}
TDT_ENTRY_CATCH(aclError)

acltdtQueueRouteList* acltdtCreateQueueRouteList(void) try {
  return new acltdtQueueRouteList;
}
TDT_ENTRY_CATCH(acltdtQueueRouteList*)

aclError acltdtDestroyQueueRouteList(
    const acltdtQueueRouteList* routeList) try {
  if (routeList == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "routeList is NULL");
  }
  delete routeList;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList,
                             const acltdtQueueRoute* route) try {
  if (routeList == nullptr || route == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "routeList and route must not be NULL");
  }
  routeList->routes.push_back(*route);
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList,
                             size_t index, acltdtQueueRoute* route) try {
  if (routeList == nullptr || route == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "routeList and route must not be NULL");
  }
  if (index >= routeList->routes.size()) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "index " + std::to_string(index) + " is not below the " +
                      std::to_string(routeList->routes.size()) + " routes");
  }
  *route = routeList->routes[index];
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) try {
  if (routeList == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "routeList is NULL");
    return 0;
  }
  return routeList->routes.size();
}
TDT_ENTRY_CATCH(size_t)

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo(void) try {
  return new acltdtQueueRouteQueryInfo;
}
TDT_ENTRY_CATCH(acltdtQueueRouteQueryInfo*)

aclError acltdtDestroyQueueRouteQueryInfo(
    const acltdtQueueRouteQueryInfo* info) try {
  if (info == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "info is NULL");
  }
  delete info;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                      acltdtQueueRouteQueryInfoParamType type,
                                      size_t len, const void* value) try {
  if (param == nullptr || value == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "param and value must not be NULL");
  }
  void* target = nullptr;
  bool* flag = nullptr;
  switch (Raw(type)) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
      target = &param->mode;
      flag = &param->has_mode;
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
      target = &param->src;
      flag = &param->has_src;
      break;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
      target = &param->dst;
      flag = &param->has_dst;
      break;
    default:
      return UnknownType(__func__, Raw(type));
  }
  // Each condition is 4 bytes (the mode an enum, the ids uint32_t).
  const aclError ret = CheckSetLen(__func__, len, sizeof(uint32_t));
  if (ret != ACL_SUCCESS) return ret;
  std::memcpy(target, value, sizeof(uint32_t));
  *flag = true;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

}  // extern "C"
