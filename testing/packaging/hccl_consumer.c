/* A C program built with `pkg-config --cflags --libs hccl` against an
 * install tree: two ranks of one process (HcclCommInitAll), one thread
 * queueing an AllReduce on each rank's stream, then the results. Prints
 * "VERDICT: PASS" when both ranks hold the sums. */
#include <stdio.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

#define COUNT 4

int main(void) {
  int32_t devices[2] = {0, 1};
  HcclComm comms[2];
  aclrtStream streams[2];
  void* bufs[2];
  float host[COUNT];
  int ok = 1;
  int i, r;
  if (aclInit(NULL) != ACL_SUCCESS) return 1;
  for (r = 0; r < 2; ++r) {
    if (aclrtSetDevice(devices[r]) != ACL_SUCCESS ||
        aclrtCreateStream(&streams[r]) != ACL_SUCCESS ||
        aclrtMalloc(&bufs[r], sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST) !=
            ACL_SUCCESS) {
      return 1;
    }
    for (i = 0; i < COUNT; ++i) host[i] = (float)(i + 10 * r);
    if (aclrtMemcpy(bufs[r], sizeof(host), host, sizeof(host),
                    ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      return 1;
    }
  }
  if (HcclCommInitAll(2, devices, comms) != HCCL_SUCCESS) return 1;
  /* In place; both queued before either runs: each waits for the other. */
  for (r = 0; r < 2; ++r) {
    if (HcclAllReduce(bufs[r], bufs[r], COUNT, HCCL_DATA_TYPE_FP32,
                      HCCL_REDUCE_SUM, comms[r], streams[r]) != HCCL_SUCCESS) {
      return 1;
    }
  }
  for (r = 0; r < 2; ++r) {
    if (aclrtSynchronizeStream(streams[r]) != ACL_SUCCESS ||
        aclrtMemcpy(host, sizeof(host), bufs[r], sizeof(host),
                    ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      return 1;
    }
    for (i = 0; i < COUNT; ++i) ok = ok && host[i] == (float)(2 * i + 10);
    HcclCommDestroy(comms[r]);
    aclrtFree(bufs[r]);
    aclrtDestroyStream(streams[r]);
  }
  printf("hccl: AllReduce over two ranks %s\n", ok ? "summed" : "WRONG");
  printf("VERDICT: %s\n", ok ? "PASS" : "FAIL");
  aclFinalize();
  return ok ? 0 : 1;
}
