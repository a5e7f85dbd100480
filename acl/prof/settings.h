// aclprofSetConfig's values (DESIGN.md §5.24): which are valid per key.
#ifndef ASCENDCL_ACL_PROF_SETTINGS_H_
#define ASCENDCL_ACL_PROF_SETTINGS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ascend::prof {

// The non-empty items of a comma list (spaces around items dropped).
std::vector<std::string> SplitList(const std::string& text);

// Whether `value` is valid for aclprofConfigType `type` (acl_prof.h's
// aclprofSetConfig comment lists the rules).
bool SettingValid(int32_t type, const std::string& value);

}  // namespace ascend::prof

#endif  // ASCENDCL_ACL_PROF_SETTINGS_H_
