// The secure C functions in the way CANN's programs use them: fill and copy
// host buffers with memset_s / memcpy_s, format with sprintf_s / snprintf_s,
// parse with sscanf_s, and check that the bounds are kept (a copy that does
// not fit resets its destination and says so). The buffers travel through a
// device round trip so the library is used beside the runtime.
#include <cstring>

#include "common/example_utils.h"
#include "securec.h"

int main() {
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));

  char host[64];
  if (memset_s(host, sizeof host, 0, sizeof host) != EOK) return 1;
  const int n = sprintf_s(host, sizeof host, "tensor=%s size=%d", "x", 42);
  std::printf("sprintf_s wrote %d characters: %s\n", n, host);

  void* device = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&device, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMemcpy(device, sizeof host, host, sizeof host,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  char back[64];
  EXAMPLE_CHECK(aclrtMemcpy(back, sizeof back, device, sizeof host,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXAMPLE_CHECK(aclrtFree(device));

  char name[8];
  int size = 0;
  const int fields = sscanf_s(back, "tensor=%7s size=%d", name,
                              static_cast<unsigned>(sizeof name), &size);
  std::printf("sscanf_s read %d fields: name %s size %d\n", fields, name, size);

  char small[4] = "abc";
  const errno_t tooLong = memcpy_s(small, sizeof small, back, sizeof back);
  std::printf("memcpy_s into 4 bytes: %d, first byte %d\n", tooLong, small[0]);
  const int cut = snprintf_s(small, sizeof small, 2, "%s", "hello");
  std::printf("snprintf_s cut: %d \"%s\"\n", cut, small);
  char word[6] = "";
  const errno_t copied = strncpy_s(word, sizeof word, "secure-c", 6);
  std::printf("strncpy_s of 6 into 6: %d\n", copied);

  EXAMPLE_CHECK(aclrtResetDevice(0));
  EXAMPLE_CHECK(aclFinalize());
  std::printf("Secure C: done\n");
  return 0;
}
