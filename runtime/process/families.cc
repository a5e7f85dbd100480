#include "runtime/process/families.h"

#include "runtime/builtin_task/builtin_task.h"
#include "runtime/device_info/device_info.h"
#include "runtime/dump/dump.h"
#include "runtime/host_func/host_func.h"
#include "runtime/kernel/kernel.h"
#include "runtime/mbuf/mbuf.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"
#include "runtime/snapshot_support/snapshot_support.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"
#include "runtime/timeline/timeline.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  // The streams and contexts first: every other family's work is on them.
  // Then the device information and settings: the sync and kernel families
  // read them. Then the timeline: its hook on the task path sees a
  // submission before the capture's hook takes it into a model (DESIGN.md
  // §5.24); the dump before the models too, so it sees a kernel launch a
  // capture takes (DESIGN.md §5.25).
  return {StreamsFamily(),     DeviceInfoFamily(), TimelineFamily(),
          MemoryFamily(),      SyncFamily(),       DumpFamily(),
          ModelFamily(),       KernelFamily(),     HostFuncFamily(),
          BuiltinTaskFamily(), MbufFamily(),       SnapshotSupportFamily()};
}

}  // namespace ascend::rt
