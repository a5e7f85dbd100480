// libmsprofiler.so: the readers of subscription records (aclprofGetOp*,
// docs/zh/api_ref/19-03_subscription_to_operator_information.md; the record
// is acl/prof/op_desc.h). They read only the caller's buffer.
#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl_prof.h"
#include "acl/prof/op_desc.h"
#include "acl/prof/prof_log.h"

using ascend::prof::kOpDescMagic;
using ascend::prof::kOpDescVersion;
using ascend::prof::OpDesc;

namespace {

// The records of opInfo, or why not: a whole, non-empty number of records
// written by this library.
bool CheckRecords(const char* api, const void* op_info, size_t len) {
  if (op_info == nullptr) {
    ascend::prof::Log(ACL_ERROR, api, "opInfo must not be NULL");
    return false;
  }
  if (len == 0 || len % sizeof(OpDesc) != 0) {
    ascend::prof::Log(ACL_ERROR, api,
                      "opInfoLen " + std::to_string(len) +
                          " is not a non-zero multiple of the record size");
    return false;
  }
  const auto* records = static_cast<const OpDesc*>(op_info);
  for (size_t i = 0; i < len / sizeof(OpDesc); ++i) {
    OpDesc d;
    std::memcpy(&d, &records[i], sizeof d);
    if (d.magic != kOpDescMagic || d.version != kOpDescVersion) {
      ascend::prof::Log(
          ACL_ERROR, api,
          "record " + std::to_string(i) + " is not a subscription record");
      return false;
    }
  }
  return true;
}

// Record `index` (copied: the caller's buffer may be unaligned).
bool Record(const char* api, const void* op_info, size_t len, uint32_t index,
            OpDesc* out) {
  if (!CheckRecords(api, op_info, len)) return false;
  if (index >= len / sizeof(OpDesc)) {
    ascend::prof::Log(ACL_ERROR, api,
                      "index " + std::to_string(index) + " is not below " +
                          std::to_string(len / sizeof(OpDesc)));
    return false;
  }
  std::memcpy(out, static_cast<const char*>(op_info) + index * sizeof(OpDesc),
              sizeof *out);
  return true;
}

aclError Copy(const char* api, const char* text, char* out, size_t size) {
  if (out == nullptr || size == 0) {
    return ascend::prof::Fail(api, ACL_ERROR_INVALID_PARAM,
                              "the output buffer is NULL or empty");
  }
  const size_t n = std::min(size - 1, strlen(text));
  std::memcpy(out, text, n);
  out[n] = '\0';
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

MSVP_PROF_API aclError aclprofGetOpDescSize(size_t* opDescSize) try {
  if (opDescSize == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "opDescSize must not be NULL");
  }
  *opDescSize = sizeof(OpDesc);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen,
                                       uint32_t* opNumber) try {
  if (opNumber == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "opNumber must not be NULL");
  }
  if (!CheckRecords(__func__, opInfo, opInfoLen))
    return ACL_ERROR_INVALID_PARAM;
  *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpDesc));
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen,
                                           uint32_t index,
                                           size_t* opTypeLen) try {
  OpDesc d;
  if (opTypeLen == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "opTypeLen must not be NULL");
  }
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) {
    return ACL_ERROR_INVALID_PARAM;
  }
  *opTypeLen = strnlen(d.op_type, sizeof d.op_type) + 1;
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen,
                                        uint32_t index, char* opType,
                                        size_t opTypeLen) try {
  OpDesc d;
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) {
    return ACL_ERROR_INVALID_PARAM;
  }
  d.op_type[sizeof d.op_type - 1] = '\0';
  return Copy(__func__, d.op_type, opType, opTypeLen);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen,
                                           uint32_t index,
                                           size_t* opNameLen) try {
  OpDesc d;
  if (opNameLen == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "opNameLen must not be NULL");
  }
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) {
    return ACL_ERROR_INVALID_PARAM;
  }
  *opNameLen = strnlen(d.op_name, sizeof d.op_name) + 1;
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen,
                                        uint32_t index, char* opName,
                                        size_t opNameLen) try {
  OpDesc d;
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) {
    return ACL_ERROR_INVALID_PARAM;
  }
  d.op_name[sizeof d.op_name - 1] = '\0';
  return Copy(__func__, d.op_name, opName, opNameLen);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen,
                                         uint32_t index) try {
  OpDesc d;
  return Record(__func__, opInfo, opInfoLen, index, &d) ? d.start_us : 0;
}
PROF_ENTRY_CATCH(uint64_t)

MSVP_PROF_API uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen,
                                       uint32_t index) try {
  OpDesc d;
  return Record(__func__, opInfo, opInfoLen, index, &d) ? d.end_us : 0;
}
PROF_ENTRY_CATCH(uint64_t)

MSVP_PROF_API uint64_t aclprofGetOpDuration(const void* opInfo,
                                            size_t opInfoLen,
                                            uint32_t index) try {
  OpDesc d;
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) return 0;
  return d.end_us >= d.start_us ? d.end_us - d.start_us : 0;
}
PROF_ENTRY_CATCH(uint64_t)

MSVP_PROF_API size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen,
                                       uint32_t index) try {
  OpDesc d;
  return Record(__func__, opInfo, opInfoLen, index, &d) ? d.model_id : 0;
}
PROF_ENTRY_CATCH(size_t)

MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo,
                                                      size_t opInfoLen,
                                                      uint32_t index) try {
  OpDesc d;
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) {
    return ACL_SUBSCRIBE_NONE;
  }
  switch (d.flag) {
    case ACL_SUBSCRIBE_OP:
      return ACL_SUBSCRIBE_OP;
    case ACL_SUBSCRIBE_SUBGRAPH:
      return ACL_SUBSCRIBE_SUBGRAPH;
    case ACL_SUBSCRIBE_OP_THREAD:
      return ACL_SUBSCRIBE_OP_THREAD;
    default:
      return ACL_SUBSCRIBE_NONE;
  }
}
PROF_ENTRY_CATCH_RETURN(ACL_SUBSCRIBE_NONE)

MSVP_PROF_API const char* aclprofGetOpAttriValue(
    const void* opInfo, size_t opInfoLen, uint32_t index,
    aclprofSubscribeOpAttri attri) try {
  int32_t raw;
  std::memcpy(&raw, &attri, sizeof raw);
  OpDesc d;
  if (raw != ACL_SUBSCRIBE_ATTRI_THREADID) {
    ascend::prof::Log(
        ACL_ERROR, __func__,
        "attri " + std::to_string(raw) + " is not an attribute records carry");
    return nullptr;
  }
  if (!Record(__func__, opInfo, opInfoLen, index, &d)) return nullptr;
  static thread_local std::string value;
  value = std::to_string(d.thread_id);
  return value.c_str();
}
PROF_ENTRY_CATCH(const char*)

}  // extern "C"
