// Process B of IPC notify + IPC memory: on device 3, import A's memory and
// notify, write a value into the memory on B's stream (a copy here, where
// CANN's example runs a kernel), then record the notify, which lets A's
// stream go on.
//
//   proc_b withpid|withoutpid
#include <unistd.h>

#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  const int32_t device = 3;
  const int32_t peer = 2;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  EXAMPLE_CHECK(aclrtDeviceEnablePeerAccess(peer, 0));
  char mem_key[65] = {};
  if (!TakeOver("file/mem_key.bin", mem_key, sizeof mem_key - 1)) return 1;
  void* dev = nullptr;
  EXAMPLE_CHECK(aclrtIpcMemImportByKey(&dev, mem_key, 0));
  if (with_pid) {
    int32_t pid = 0;
    EXAMPLE_CHECK(aclrtDeviceGetBareTgid(&pid));
    if (!HandOver("file/pid.bin", &pid, sizeof pid)) return 1;
  }
  char notify_key[65] = {};
  if (!TakeOver("file/notify_key.bin", notify_key, sizeof notify_key - 1)) {
    return 1;
  }
  aclrtNotify notify = nullptr;
  EXAMPLE_CHECK(aclrtNotifyImportByKey(&notify, notify_key, 0));
  // A is waiting by now; make it wait a little longer.
  usleep(200 * 1000);
  static const int value = 123;
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev, sizeof value, &value, sizeof value,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXAMPLE_INFO("Source data: %d", value);
  EXAMPLE_CHECK(aclrtRecordNotify(notify, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  int done = 0;
  if (!TakeOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtIpcMemClose(mem_key));
  EXAMPLE_CHECK(aclrtDestroyNotify(notify));
  EXAMPLE_CHECK(aclrtDestroyStreamForce(stream));
  EXAMPLE_CHECK(aclrtResetDeviceForce(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
