/* A C99 program built with `pkg-config --cflags --libs ascendcl` against an
 * installed tree: init, set a device, copy to the device and back, verify.
 * Prints "VERDICT: PASS" on success. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                \
  do {                                                             \
    aclError ret_ = (call);                                        \
    if (ret_ != ACL_SUCCESS) {                                     \
      printf("[ERROR]  %s returned error code %d\n", #call, ret_); \
      return 1;                                                    \
    }                                                              \
  } while (0)

int main(void) {
  enum { kSize = 4096 };
  unsigned char host[kSize];
  unsigned char back[kSize];
  void *dev = NULL;
  int i;
  for (i = 0; i < kSize; ++i) host[i] = (unsigned char)(i ^ 0x5A);
  memset(back, 0, sizeof back);

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtMalloc(&dev, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev, kSize, host, kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(back, kSize, dev, kSize, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK(aclrtFree(dev));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (memcmp(host, back, kSize) != 0) {
    printf("[ERROR]  data read back differs\n");
    return 1;
  }
  printf("[INFO]  %d bytes round-tripped through %s\n", kSize,
         aclrtGetSocName());
  printf("VERDICT: PASS\n");
  return 0;
}
