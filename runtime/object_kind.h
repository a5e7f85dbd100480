// The kinds of runtime objects an application holds handles to. Each kind
// has a descriptor (runtime/resource_kinds.h) and a module of its own
// (runtime/context.h, stream.h, runtime/sync/event.h, notify.h,
// cnt_notify.h, ...). A new
// kind goes before kCount, and the static assertions of resource_kinds.cc then
// ask for its descriptor.
#ifndef ASCENDCL_RUNTIME_OBJECT_KIND_H_
#define ASCENDCL_RUNTIME_OBJECT_KIND_H_

namespace ascend::rt {

enum class ObjectKind : int {
  kContext = 0,
  kStream = 1,
  kEvent = 2,
  kNotify = 3,
  kCntNotify = 4,
  kCount
};
inline constexpr int kObjectKindCount = static_cast<int>(ObjectKind::kCount);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_OBJECT_KIND_H_
