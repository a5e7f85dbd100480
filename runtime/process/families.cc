#include "runtime/process/families.h"

#include "runtime/dump/dump.h"
#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  return {
      MemoryFamily(),
      SyncFamily(),
      // Before the models: its hook sees a kernel launch before a capture
      // takes it (DESIGN.md §5.25).
      DumpFamily(),
      ModelFamily(),
      KernelFamily(),
  };
}

}  // namespace ascend::rt
