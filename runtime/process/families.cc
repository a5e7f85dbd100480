#include "runtime/process/families.h"

#include "runtime/model/model.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies() {
  return {
      ModelFamily(),
  };
}

}  // namespace ascend::rt
