// Every resource family of the process runtime, in construction order
// (DESIGN.md §1.7). Adding a family is one line in families.cc.
#ifndef ASCENDCL_RUNTIME_PROCESS_FAMILIES_H_
#define ASCENDCL_RUNTIME_PROCESS_FAMILIES_H_

#include <vector>

#include "runtime/family.h"

namespace ascend::rt {

std::vector<FamilyRegistration> AllFamilies();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_PROCESS_FAMILIES_H_
