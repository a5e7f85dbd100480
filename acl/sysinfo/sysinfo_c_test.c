/* The system-information declarations from plain C99: ABI facts of the
 * types a C program sees (sizes, offsets, enum values), and one call of each
 * entry point through the library. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define EXPECT(cond)                          \
  do {                                        \
    if (!(cond)) {                            \
      fprintf(stderr, "FAILED: %s\n", #cond); \
      ++failures;                             \
    }                                         \
  } while (0)

int main(void) {
  int failures = 0;
  char pkg[] = "no-such-package";
  char version[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num = 0;
  int32_t value = -1;
  const aclCannAttr *attrs = NULL;
  size_t count = 0;
  aclrtRunMode mode = ACL_DEVICE;
  aclrtErrorInfo info;
  const char *soc = aclrtGetSocName();
  const int32_t bad[] = {99, -1, 0x40000000};
  size_t i;

  /* ABI facts (LP64). */
  EXPECT(ACL_PKG_VERSION_MAX_SIZE == 128);
  EXPECT(ACL_PKG_VERSION_PARTS_MAX_SIZE == 64);
  EXPECT(sizeof(aclDataType) == 4 && ACL_DT_UNDEFINED == -1);
  EXPECT(ACL_BF16 == 27 && ACL_COMPLEX128 == 17 && ACL_FLOAT4_E1M2 == 41);
  EXPECT(sizeof(aclCannAttr) == 4 && ACL_CANN_ATTR_JIT_COMPILE == 2);
  EXPECT(ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV == 21);
  EXPECT(ACL_DEV_FEATURE_SUPPORT == 1 && ACL_DEV_FEATURE_NOT_SUPPORT == 0);
  EXPECT(ACL_RT_ERROR_OTHERS == 0xFFFF && ACL_RT_ERROR_LINK == 4);
  EXPECT(ACL_RT_AICORE_ERROR_HW_LOCAL == 2);
  EXPECT(sizeof(aclrtMemUceInfo) == 16 * sizeof(size_t));
  EXPECT(sizeof(aclrtErrorInfoDetail) ==
         sizeof(size_t) +
             ACL_RT_MEM_UCE_INFO_MAX_NUM * sizeof(aclrtMemUceInfo));
  EXPECT(offsetof(aclrtErrorInfo, errorType) == 4);
  EXPECT(offsetof(aclrtErrorInfo, detail) == 8);
  EXPECT(sizeof(aclrtErrorInfo) == 8 + sizeof(aclrtErrorInfoDetail));

  /* One call of each entry point. */
  EXPECT(aclsysGetVersionStr(pkg, version) == ACL_ERROR_INVALID_FILE);
  EXPECT(aclsysGetVersionNum(pkg, &num) == ACL_ERROR_INVALID_FILE);
  EXPECT(aclrtGetRunMode(&mode) == ACL_SUCCESS && mode == ACL_HOST);
  EXPECT(soc != NULL);
  EXPECT(aclrtCheckArchCompatibility(soc, &value) == ACL_SUCCESS && value == 1);
  EXPECT(aclrtGetDeviceCapability(0,
                                  ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV,
                                  &value) == ACL_SUCCESS &&
         value == ACL_DEV_FEATURE_NOT_SUPPORT);
  memset(&info, 0xFF, sizeof info);
  EXPECT(aclrtGetErrorVerbose(0, &info) == ACL_SUCCESS &&
         info.errorType == ACL_RT_NO_ERROR);
  EXPECT(aclGetCannAttributeList(&attrs, &count) == ACL_SUCCESS && count == 1 &&
         attrs[0] == ACL_CANN_ATTR_INF_NAN);
  EXPECT(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &value) == ACL_SUCCESS &&
         value == 0);
  EXPECT(aclDataTypeSize(ACL_FLOAT16) == 2);
  EXPECT(aclFloatToFloat16(1.0f) == 0x3C00);
  EXPECT(aclFloat16ToFloat(0xC000) == -2.0f);

  /* Enum arguments outside their enum (legal to pass from C): the documented
   * code, outputs untouched, no undefined behaviour in the library (run under
   * --config=clang --config=ubsan too). */
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    value = 7;
    EXPECT(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)bad[i], &value) ==
               ACL_ERROR_INVALID_PARAM &&
           value == 7);
    EXPECT(aclGetCannAttribute((aclCannAttr)bad[i], &value) ==
               ACL_ERROR_INVALID_PARAM &&
           value == 7);
    EXPECT(aclDataTypeSize((aclDataType)bad[i]) == 0);
  }
  EXPECT(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value) ==
         ACL_ERROR_INVALID_PARAM);
  EXPECT(aclDataTypeSize(ACL_DT_UNDEFINED) == 0);
  EXPECT(aclDataTypeSize((aclDataType)-100) == 0);
  EXPECT(aclDataTypeSize((aclDataType)5) == 0); /* a gap in the enum */

  if (failures == 0) printf("sysinfo_c_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
