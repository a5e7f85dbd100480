// Process A of IPC notify + IPC memory, in the sequence of CANN's examples
// notify/0_ipc_notify_withpid and 1_ipc_notify_withoutpid: device memory on
// device 2 shared under a key (without pid validation), a notify shared
// under a key (whitelisting process B in mode "withpid"), then A's stream
// waits for the notify that B records once it has written the memory, and
// A reads what B wrote (a copy here, where CANN's example runs a kernel).
//
//   proc_a withpid|withoutpid
#include <cstring>
#include <string>

#include "common/example_utils.h"
#include "common/file_handshake.h"

int main(int argc, char** argv) {
  const bool with_pid = argc > 1 && std::string(argv[1]) == "withpid";
  const int32_t device = 2;
  const int32_t peer = 3;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  int32_t can_access = 0;
  EXAMPLE_CHECK(aclrtDeviceCanAccessPeer(&can_access, device, peer));
  if (can_access != 1) {
    EXAMPLE_ERROR("devices %d and %d cannot exchange data", device, peer);
    return 1;
  }
  EXAMPLE_CHECK(aclrtDeviceEnablePeerAccess(peer, 0));
  const size_t size = 1 << 20;
  int* dev = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&dev), size,
                            ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMemset(dev, size, 0, size));
  char mem_key[65] = {};
  EXAMPLE_CHECK(aclrtIpcMemGetExportKey(
      dev, size, mem_key, sizeof mem_key,
      ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  if (!HandOver("file/mem_key.bin", mem_key, std::strlen(mem_key))) return 1;

  aclrtNotify notify = nullptr;
  EXAMPLE_CHECK(aclrtCreateNotify(&notify, 0));
  char notify_key[65] = {};
  EXAMPLE_CHECK(aclrtNotifyGetExportKey(
      notify, notify_key, sizeof notify_key,
      with_pid ? ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT
               : ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  if (with_pid) {
    int32_t pid = 0;
    if (!TakeOver("file/pid.bin", &pid, sizeof pid)) return 1;
    EXAMPLE_CHECK(aclrtNotifySetImportPid(notify, &pid, 1));
  }
  if (!HandOver("file/notify_key.bin", notify_key, std::strlen(notify_key))) {
    return 1;
  }
  // The wait is a task of A's stream: the read after it sees B's write.
  EXAMPLE_CHECK(aclrtWaitAndResetNotify(notify, stream, 0));
  int* value = nullptr;
  EXAMPLE_CHECK(
      aclrtMallocHost(reinterpret_cast<void**>(&value), sizeof *value));
  EXAMPLE_CHECK(aclrtMemcpyAsync(value, sizeof *value, dev, sizeof *value,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_INFO("Destination data: %d", *value);
  const int done = 1;
  if (!HandOver("file/flag.bin", &done, sizeof done)) return 1;
  EXAMPLE_CHECK(aclrtIpcMemClose(mem_key));
  EXAMPLE_CHECK(aclrtFree(dev));
  EXAMPLE_CHECK(aclrtFreeHost(value));
  EXAMPLE_CHECK(aclrtDestroyNotify(notify));
  EXAMPLE_CHECK(aclrtDestroyStreamForce(stream));
  EXAMPLE_CHECK(aclrtResetDeviceForce(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
