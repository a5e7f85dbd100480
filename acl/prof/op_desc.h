// The subscription record (DESIGN.md §5.24): what libprofapi.so writes to a
// subscribed model's pipe for each operator, and libmsprofiler.so's
// aclprofGetOp* functions read. Fixed size (aclprofGetOpDescSize); the
// strings are kept in the record, cut to the sizes acl_prof.h names.
#ifndef ASCENDCL_ACL_PROF_OP_DESC_H_
#define ASCENDCL_ACL_PROF_OP_DESC_H_

#include <cstdint>

#include "acl/acl_prof.h"

namespace ascend::prof {

inline constexpr uint32_t kOpDescMagic = 0x4F445341U;  // "ASDO"
inline constexpr uint32_t kOpDescVersion = 1;

struct OpDesc {
  uint32_t magic;    // kOpDescMagic
  uint32_t version;  // kOpDescVersion
  uint32_t model_id;
  int32_t device_id;
  uint32_t stream_id;
  uint32_t flag;  // aclprofSubscribeOpFlag
  uint32_t thread_id;
  int32_t result;     // the task's aclError
  uint64_t start_us;  // CLOCK_MONOTONIC; 0 without time info
  uint64_t end_us;
  char op_type[ACL_PROF_MAX_OP_TYPE_LEN];  // NUL-terminated
  char op_name[ACL_PROF_MAX_OP_NAME_LEN];
  char pad[14];
};
static_assert(sizeof(OpDesc) == 384, "the record size is part of the format");

}  // namespace ascend::prof

#endif  // ASCENDCL_ACL_PROF_OP_DESC_H_
