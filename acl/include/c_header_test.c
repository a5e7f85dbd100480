/* Compiles every public header as C99 and checks the ABI facts a C program
 * relies on: enum sizes, struct sizes and a few numeric values. */
#include <stdio.h>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "runtime/rt_snapshot.h"

#define EXPECT(cond)                          \
  do {                                        \
    if (!(cond)) {                            \
      fprintf(stderr, "FAILED: %s\n", #cond); \
      ++failures;                             \
    }                                         \
  } while (0)

int main(void) {
  int failures = 0;
  aclrtSnapShotBackupArgs backup_args;
  aclrtSnapShotRestoreArgs restore_args;
  EXPECT(sizeof(aclrtSnapShotStage) == 4);
  EXPECT(sizeof(backup_args) == 64);
  EXPECT(sizeof(restore_args) == 64);
  EXPECT(sizeof(aclError) == sizeof(int));
  EXPECT(sizeof(rtError_t) == 4);
  EXPECT(ACL_SUCCESS == 0);
  EXPECT(ACL_ERROR_INVALID_PARAM == 100000);
  EXPECT(ACL_ERROR_REPEAT_INITIALIZE == 100002);
  EXPECT(ACL_ERROR_INVALID_FILE == 100003);
  EXPECT(ACL_ERROR_PARSE_FILE == 100006);
  EXPECT(ACL_ERROR_REPEAT_FINALIZE == 100037);
  EXPECT(ACL_ERROR_INTERNAL_ERROR == 500000);
  EXPECT(ACL_ERROR_FAILURE == 500001);
  EXPECT(ACL_ERROR_RT_PARAM_INVALID == 107000);
  EXPECT(ACL_ERROR_RT_CONTEXT_NULL == 107002);
  EXPECT(ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000);
  EXPECT(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT == 507905);
  EXPECT(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED == 507913);
  EXPECT(ACL_REG_TYPE_OTHER == 0xFFFF);
  EXPECT(ACL_RT_SNAPSHOT_UNLOCK_POST == 5);
  EXPECT(RT_SNAPSHOT_UNLOCK_POST == 5);
  EXPECT(RT_PROCESS_STATE_BACKED_UP == 2);
  EXPECT(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7);
  EXPECT(ACLSIM_FAULT_NEXT_COPY_CORRUPTS == 2);
  EXPECT(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17);
  if (failures == 0) printf("c_header_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
