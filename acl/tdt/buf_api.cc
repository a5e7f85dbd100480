// C entry points of libacl_tdt_queue.so: shared buffers, which are the
// runtime's mbufs (DESIGN.md §5.16, §5.23; doc 17-03_shared_buffer_management).
// Each forwards to its aclrt* counterpart, whose codes it returns.
#include <string>

#include "acl/acl_rt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/tdt/queue.h"
#include "acl/tdt/tdt_util.h"

using ascend::tdt::Reject;

extern "C" {

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) try {
  // Only normal memory can be asked for (17-03), checked first.
  if (type != ACL_TDT_NORMAL_MEM) {
    return Reject(
        __func__, ACL_ERROR_INVALID_PARAM,
        "type " + std::to_string(type) + " is not ACL_TDT_NORMAL_MEM");
  }
  return aclrtAllocBuf(buf, size);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtFreeBuf(acltdtBuf buf) try {
  if (buf != nullptr && ascend::tdt::Queues::Get().Queued(buf)) {
    return Reject(__func__, ACL_ERROR_RT_PARAM_INVALID,
                  "the buffer is in a queue, which owns it");
  }
  return aclrtFreeBuf(buf);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr,
                          size_t* size) try {
  return aclrtGetBufData(buf, dataPtr, size);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) try {
  return aclrtSetBufDataLen(buf, len);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) try {
  return aclrtGetBufDataLen(buf, len);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) try {
  return aclrtAppendBufChain(headBuf, buf);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) try {
  return aclrtGetBufChainNum(headBuf, num);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index,
                               acltdtBuf* buf) try {
  return aclrtGetBufFromChain(headBuf, index, buf);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size,
                              size_t offset) try {
  return aclrtGetBufUserData(buf, dataPtr, size, offset);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size,
                              size_t offset) try {
  return aclrtSetBufUserData(buf, dataPtr, size, offset);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) try {
  return aclrtCopyBufRef(buf, newBuf);
}
TDT_ENTRY_CATCH(aclError)

}  // extern "C"
