// ACL entry points: count notifies (aclrtCntNotify*; DESIGN.md §5.13).
#include <cstdint>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/sync/cnt_notify.h"
#include "runtime/sync/sync.h"

using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

namespace {
// The process runtime always has the synchronisation family (runtime/process).
ascend::rt::Sync& Sync() { return ascend::acl::Fam<ascend::rt::Sync>(); }
}  // namespace

extern "C" {

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(cntNotify);
  ACL_RETURN_VALUE(cntNotify, Sync().CreateCntNotify(flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(cntNotify);
  return ACL_RESULT(Sync().DestroyCntNotify(cntNotify));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo* info) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(cntNotify);
  const int32_t raw_mode = RawEnum(info->mode);
  if (!ascend::rt::IsCntNotifyRecordMode(raw_mode)) {
    return InvalidEnum(__func__, "info->mode", "aclrtCntNotifyRecordMode",
                       raw_mode, ACL_ERROR_RT_PARAM_INVALID);
  }
  return ACL_RESULT(
      Sync().RecordCntNotify(cntNotify, stream, info->mode, info->value));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify,
                                       aclrtStream stream,
                                       aclrtCntNotifyWaitInfo* info) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(info);
  ACL_REQUIRE_NOT_NULL(cntNotify);
  const int32_t raw_mode = RawEnum(info->mode);
  if (!ascend::rt::IsCntNotifyWaitMode(raw_mode)) {
    return InvalidEnum(__func__, "info->mode", "aclrtCntNotifyWaitMode",
                       raw_mode, ACL_ERROR_RT_PARAM_INVALID);
  }
  return ACL_RESULT(Sync().WaitCntNotify(cntNotify, stream, info->mode,
                                         info->value, info->timeout,
                                         info->isClear != 0));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(cntNotify);
  return ACL_RESULT(Sync().ResetCntNotify(cntNotify, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) try {
  ACL_REQUIRE_NOT_NULL(cntNotify);
  ACL_REQUIRE_NOT_NULL(notifyId);
  ACL_RETURN_VALUE(notifyId, Sync().CntNotifyId(cntNotify));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
