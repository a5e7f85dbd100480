/* Compiles every public header as C99 and checks the ABI facts a C program
 * relies on: enum sizes, struct sizes and a few numeric values. */
#include <stddef.h>
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "ascendcl/timeline.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "runtime/rt_snapshot.h"
#include "securec.h"

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
  /* acl_dump.h: CANN's layouts and values. */
  EXPECT(sizeof(acldumpChunk) == 4120);
  EXPECT(offsetof(acldumpChunk, dataBuf) == 4116);
  EXPECT(sizeof(acldumpTensorInfo) == 456);
  EXPECT(offsetof(acldumpTensorInfo, shape) == 56);
  EXPECT(DATA_DUMP == 4 && OVERFLOW_DUMP == 5 && AIC_ERR_BRIEF_DUMP == 1);
  EXPECT(ACL_DUMP_ADDR_RAW == 2 && ACL_DUMP_PLACEMENT_END == 2);
  EXPECT(ACL_OP_DUMP_OP_AICORE_ARGS == 1U);
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
  /* The wider surface: a few values and sizes that C callers depend on. */
  EXPECT(ACL_MEM_P2P_HUGE1G == 17);
  EXPECT(ACL_RT_ERROR_L3_PORT == 5);
  EXPECT(ACL_ERROR_PROF_MODULES_UNSUPPORTED == 200007);
  EXPECT(ACL_DEV_ATTR_NPU_ARCH == 601);
  EXPECT(ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE == 2);
  EXPECT(ACL_KERNEL_TYPE_AICPU == 100);
  EXPECT(ACL_FORMAT_FRACTAL_NZ_C0_8 == 54);
  EXPECT(ACL_ERROR == 3);
  EXPECT(ACL_HOST_REG_PINNED == 0x10000000UL);
  EXPECT(sizeof(aclrtMemFabricHandle) == 128);
  EXPECT(sizeof(aclrtUuid) == 16);
  EXPECT(sizeof(aclrtIpcEventHandle) == ACL_IPC_EVENT_HANDLE_SIZE);
  EXPECT(sizeof(dim3) == 12);
  {
    aclmdlRITaskParams params;
    EXPECT(sizeof(params.rsv2) == 128);
  }
  {
    aclrtAllocatorAllocFunc alloc_func = 0;
    EXPECT(alloc_func == 0);
  }
  /* Profiling (DESIGN.md §5.24): CANN's values and record sizes. */
  EXPECT(ACL_PROF_MSPROFTX == 0x80);
  EXPECT(ACL_PROF_AICORE_SHAPE == 0x800000000ULL);
  EXPECT(ACL_AICORE_NONE == 0xFF && ACL_AICORE_MEMORY_ACCESS == 8);
  EXPECT(ACL_PROF_PATH == 16 && ACL_PROF_ARGS_MAX == 17);
  EXPECT(ACL_SUBSCRIBE_NONE == 0xFF && ACL_SUBSCRIBE_ATTRI_NONE == 1);
  EXPECT(sizeof(aclprofTensor) == 48);
  EXPECT(sizeof(struct MsprofApi) == 40);
  EXPECT(sizeof(struct MsprofEvent) == 40);
  EXPECT(sizeof(struct MsprofCompactInfo) == 64);
  EXPECT(sizeof(struct MsprofAdditionalInfo) == 256);
  EXPECT(PROF_COMMANDHANDLE_TYPE_MODEL_UNSUBSCRIBE == 5);
  EXPECT(MSTX_API_CORE2_DOMAIN_RANGE_END == 5 && MSTX_API_MODULE_CORE_MEM == 3);
  EXPECT(ASCENDCL_TASK_MARKER == 12);
  EXPECT(EOVERLAP_AND_RESET == (54 | 128));
  {
    /* Without a profiler in this program mstx does nothing. */
    uint64_t tool = 1;
    mstxGetToolId(&tool);
    EXPECT(tool == MSTX_TOOL_INVALID_ID);
    EXPECT(mstxRangeStartA("r", NULL) == 0);
    EXPECT(mstxDomainCreateA("d") == NULL);
  }
  if (failures == 0) printf("c_header_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
