#include "runtime/resource_kinds.h"

#include "acl/error_codes/rt_error_codes.h"

namespace ascend::rt {
namespace {

// The synchronisation family's kinds (runtime/sync): what their device ids
// are drawn from and the code for running out of them. Closing a device
// cancels the waits queued on its notifies through the objects themselves.
const KindDescriptor kEventKind = {ObjectKind::kEvent, "event",
                                   device::ResourceKind::kEvent,
                                   ACL_ERROR_RT_NO_EVENT_RESOURCE, nullptr};
const KindDescriptor kNotifyKind = {ObjectKind::kNotify, "notify",
                                    device::ResourceKind::kNotify,
                                    ACL_ERROR_RT_NO_NOTIFY_RESOURCE, nullptr};
const KindDescriptor kCntNotifyKind = {
    ObjectKind::kCntNotify, "cnt_notify", device::ResourceKind::kCntNotify,
    ACL_ERROR_RT_NO_NOTIFY_RESOURCE, nullptr};

// Indexed by ObjectKind.
const KindDescriptor* const kKinds[] = {
    &kContextKind, &kStreamKind, &kEventKind, &kNotifyKind, &kCntNotifyKind,
};
static_assert(sizeof(kKinds) / sizeof(kKinds[0]) == kObjectKindCount,
              "every ObjectKind needs its descriptor listed here, in enum "
              "order");

}  // namespace

const KindDescriptor& Descriptor(ObjectKind kind) {
  return *kKinds[static_cast<int>(kind)];
}

}  // namespace ascend::rt
