/* Prints the installed runtime version as aclsysGetVersionStr and
 * aclsysGetVersionNum report it ("9.0.0 90000000"), reading
 * $ASCEND_HOME_PATH/share/info/runtime/version.info. Exits 1 on failure. */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
  char pkg[] = "runtime";
  char version[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num = 0;
  aclError ret = aclsysGetVersionStr(pkg, version);
  if (ret != ACL_SUCCESS) {
    fprintf(stderr, "aclsysGetVersionStr: %d\n", ret);
    return 1;
  }
  ret = aclsysGetVersionNum(pkg, &num);
  if (ret != ACL_SUCCESS) {
    fprintf(stderr, "aclsysGetVersionNum: %d\n", ret);
    return 1;
  }
  printf("%s %d\n", version, (int)num);
  return 0;
}
