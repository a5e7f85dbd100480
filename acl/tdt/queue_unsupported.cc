// The functions of libacl_tdt_queue.so that no CANN product supports
// (doc 17-02_shared_queue_management: acltdtGrantQueue and acltdtAttachQueue
// are "not supported" on every product): they answer CANN's code for it,
// ACL_ERROR_FEATURE_UNSUPPORTED (200006), with one log line, read none of
// their arguments and change nothing. acl/api_status.txt lists them.
#include "acl/acl_tdt_queue.h"
#include "acl/tdt/tdt_util.h"

namespace {

aclError Unsupported(const char* api) {
  return ascend::tdt::Reject(api, ACL_ERROR_FEATURE_UNSUPPORTED,
                             "sharing queues between processes is supported "
                             "by no CANN product");
}

}  // namespace

extern "C" {

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission,
                          int32_t timeout) try {
  return Unsupported(__func__);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout,
                           uint32_t* permission) try {
  return Unsupported(__func__);
}
TDT_ENTRY_CATCH(aclError)

}  // extern "C"
