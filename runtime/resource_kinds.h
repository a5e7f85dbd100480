// One descriptor per runtime object kind: its name, the device id space its
// objects draw ids from (if any), the ACL code for running out of those ids,
// and what closing a device does with each of its objects. Closing a device
// is a loop over the removed table entries calling their kind's hook, and
// allocating an id maps exhaustion through the kind's code, so a new kind
// cannot forget either step: it only needs its descriptor listed in
// resource_kinds.cc (a static assertion there counts them).
#ifndef ASCENDCL_RUNTIME_RESOURCE_KINDS_H_
#define ASCENDCL_RUNTIME_RESOURCE_KINDS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "device/device.h"
#include "runtime/handle_table.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

class Stream;

// What a device close hands its kinds' hooks: the work that must happen
// outside the runtime's lock is collected here.
struct CloseActions {
  // Streams to shut down and join once the lock is released.
  std::vector<std::shared_ptr<Stream>> streams;
  // Streams that left the table: the families hear of each
  // (Family::OnStreamGone) before the lock is released.
  std::vector<const void*> gone_streams;
};

struct KindDescriptor {
  ObjectKind kind;
  const char* name;  // "stream", as it appears in messages
  // The device id space objects of this kind draw their id from.
  std::optional<device::ResourceKind> id_space;
  // ACL code returned when that id space is exhausted.
  int32_t out_of_ids_code;
  // Runs under the runtime's lock for each object of a device being closed
  // (the entry is already out of the table), in ascending kind order; null
  // for the families' kinds, whose objects say what a close does to them
  // themselves (HandleTable::Insert).
  void (*on_close)(const HandleTable::Entry& entry, CloseActions& actions);
};

// The descriptor of `kind` (which must be < kCount).
const KindDescriptor& Descriptor(ObjectKind kind);

// The core's kinds' modules define their descriptors (the families' kinds
// are described in resource_kinds.cc).
extern const KindDescriptor kContextKind;
extern const KindDescriptor kStreamKind;

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_RESOURCE_KINDS_H_
