// Process B of IPC memory sharing: hand over its pid (mode "withpid"),
// import A's key, read the value A wrote on a stream, tell A it is done,
// close the key.
//
//   proc_b withpid|withoutpid
#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  if (with_pid) {
    int32_t pid = 0;
    EXAMPLE_CHECK(aclrtDeviceGetBareTgid(&pid));
    if (!HandOver("file/pid.bin", &pid, sizeof pid)) return 1;
  }
  char key[65] = {};
  if (!TakeOver("file/key.bin", key, sizeof key - 1)) return 1;
  void* dev = nullptr;
  EXAMPLE_CHECK(aclrtIpcMemImportByKey(&dev, key, 0));
  int* value = nullptr;
  EXAMPLE_CHECK(
      aclrtMallocHost(reinterpret_cast<void**>(&value), sizeof *value));
  EXAMPLE_CHECK(aclrtMemcpyAsync(value, sizeof *value, dev, sizeof *value,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_INFO("Destination data: %d", *value);
  const int done = 1;
  if (!HandOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtIpcMemClose(key));
  EXAMPLE_CHECK(aclrtFreeHost(value));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDeviceForce(0));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
