#include "runtime/process/families.h"

#include "runtime/kernel/kernel.h"
#include "runtime/model/model.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  return {
      ModelFamily(),
      KernelFamily(),
  };
}

}  // namespace ascend::rt
