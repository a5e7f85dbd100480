// ACL entry points: package versions (aclsysGetVersionStr/Num). The rules are
// documented in acl/acl_rt.h; the parsing lives in version_info.h.
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/status/statusor.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "acl/sysinfo/version_info.h"

namespace {

// The version text of pkgName under $ASCEND_HOME_PATH.
absl::StatusOr<std::string> InstalledVersion(const char* pkgName) {
  const char* home = std::getenv("ASCEND_HOME_PATH");
  return ascend::acl::sysinfo::ReadPackageVersion(home == nullptr ? "" : home,
                                                  pkgName);
}

}  // namespace

extern "C" {

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) try {
  ACL_REQUIRE_NOT_NULL(pkgName);
  ACL_REQUIRE_NOT_NULL(versionStr);
  absl::StatusOr<std::string> version = InstalledVersion(pkgName);
  if (!version.ok()) return ACL_RESULT(version.status());
  // ReadPackageVersion guarantees size() < ACL_PKG_VERSION_MAX_SIZE.
  std::memcpy(versionStr, version->c_str(), version->size() + 1);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) try {
  ACL_REQUIRE_NOT_NULL(pkgName);
  ACL_REQUIRE_NOT_NULL(versionNum);
  absl::StatusOr<std::string> version = InstalledVersion(pkgName);
  if (!version.ok()) return ACL_RESULT(version.status());
  ACL_RETURN_VALUE(versionNum, ascend::acl::sysinfo::EncodeVersion(*version));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
