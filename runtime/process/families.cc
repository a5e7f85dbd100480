#include "runtime/process/families.h"

#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  return {
      MemoryFamily(),
      ModelFamily(),
      KernelFamily(),
  };
}

}  // namespace ascend::rt
