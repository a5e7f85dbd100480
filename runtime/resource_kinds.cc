#include "runtime/resource_kinds.h"

#include <cstdlib>

namespace ascend::rt {
namespace {

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
