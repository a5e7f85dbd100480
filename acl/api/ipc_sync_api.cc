// ACL entry points: IPC events and IPC notifies, shared between processes of
// one machine through the fd broker (DESIGN.md §5.17).
#include <cstdint>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/sync/sync.h"

namespace {
// The process runtime always has the synchronisation family (runtime/process).
ascend::rt::Sync& Sync() { return ascend::acl::Fam<ascend::rt::Sync>(); }
}  // namespace

extern "C" {

aclError aclrtIpcGetEventHandle(aclrtEvent event,
                                aclrtIpcEventHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(event);
  aclrtIpcEventHandle out;
  const aclError code =
      ACL_RESULT(Sync().IpcGetEventHandle(event, out.reserved));
  if (code == ACL_SUCCESS) *handle = out;
  return code;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle,
                                 aclrtEvent* event) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_RETURN_VALUE(event, Sync().IpcOpenEventHandle(handle.reserved));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len,
                                 uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(key);
  return ACL_RESULT(Sync().NotifyGetExportKey(notify, key, len, flags));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid,
                                 size_t num) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(pid);
  return ACL_RESULT(Sync().NotifySetImportPids(notify, pid, num));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key,
                                uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(key);
  ACL_RETURN_VALUE(notify, Sync().NotifyImportByKey(key, flags));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
