// HcclGroupStart / HcclGroupEnd (per thread, nesting): communicator
// creations in a group run together at the end, each on the device that was
// current at its call, so one thread can create the ranks of several
// devices; sends and receives are queued at the end as one batch per
// communicator and stream, so that none waits for another; collectives are
// queued as called (they must not depend on each other). One kind per group.
#ifndef ASCENDCL_HCCL_CORE_GROUP_H_
#define ASCENDCL_HCCL_CORE_GROUP_H_

#include <functional>

#include "acl/acl.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

bool GroupActive();
void GroupStart();
// HCCL_E_PARA without a start; else the first failure of what ran.
HcclResult GroupEnd(const char* api);

enum class GroupUse { kComm, kCollective, kPointToPoint };
// Records that the group holds a call of this kind: HCCL_E_PARA when it
// already holds another kind (logged under api).
HcclResult GroupNote(const char* api, GroupUse use);
// Runs `make` at the group's end (a communicator creation).
void GroupDefer(std::function<HcclResult()> make);
// Queues a send or receive (already checked) at the group's end.
void GroupDeferTransfer(HcclComm comm, aclrtStream stream,
                        const HcclSendRecvItem& item);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_GROUP_H_
