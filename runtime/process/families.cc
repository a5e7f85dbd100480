#include "runtime/process/families.h"

#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  return {
      MemoryFamily(),
      SyncFamily(),
      ModelFamily(),
      KernelFamily(),
  };
}

}  // namespace ascend::rt
