// Process A of IPC memory sharing, in the sequence of CANN's examples
// 10_ipc_memory_withpid / 11_ipc_memory_withoutpid: allocate device memory,
// write a value (an asynchronous copy here, where CANN's example runs a
// kernel), export an IPC key, whitelist process B (mode "withpid"), hand the
// key over, wait for B, close the key and free.
//
//   proc_a withpid|withoutpid
#include <cstring>
#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  const size_t size = 1 << 20;
  int* dev = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&dev), size,
                            ACL_MEM_MALLOC_HUGE_FIRST));
  static const int value = 123;
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev, size, &value, sizeof value,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_INFO("Source data: %d", value);

  char key[65] = {};
  EXAMPLE_CHECK(aclrtIpcMemGetExportKey(
      dev, size, key, sizeof key,
      with_pid ? ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT
               : ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  EXAMPLE_INFO("Process A: exported key %s", key);
  if (with_pid) {
    int32_t pid = 0;
    if (!TakeOver("file/pid.bin", &pid, sizeof pid)) return 1;
    EXAMPLE_CHECK(aclrtIpcMemSetImportPid(key, &pid, 1));
  }
  if (!HandOver("file/key.bin", key, std::strlen(key))) return 1;
  int done = 0;
  if (!TakeOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtIpcMemClose(key));
  EXAMPLE_CHECK(aclrtFree(dev));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDeviceForce(0));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
