// The other process of vmm_share_api_test: imports memory another process
// shared, checks and changes its bytes, and reports through its exit code.
//
//   vmm_share_peer physical <shareable> <size> <expect> <write> <go_fd>
//   <hold_fd> vmm_share_peer ipc <key> <size> <expect> <write> <go_fd>
//   <hold_fd>
//
// It waits for one byte on go_fd (-1: no wait) before importing, checks that
// every byte reads `expect`, writes `write` over the first half, then waits
// for one byte on hold_fd (-1: no wait) before letting go of the import.
// Mode ipc-keep is ipc that, once held, checks again that the bytes are
// still there (the first half `write`, the rest `expect`): the exporter
// freed its memory and reset its device meanwhile.
// Exit codes: 0 done, 3 the import was refused with 207006 (not
// whitelisted), 4 any other import failure, 5 wrong bytes, 6 other errors.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

void WaitFor(int fd) {
  if (fd < 0) return;
  char byte = 0;
  (void)read(fd, &byte, 1);
}

int Check(void* ptr, size_t size, int expect, int write) {
  std::vector<uint8_t> bytes(size);
  if (aclrtMemcpy(bytes.data(), size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST) !=
      ACL_SUCCESS) {
    return 6;
  }
  for (uint8_t b : bytes) {
    if (b != expect) {
      std::fprintf(stderr, "peer: read %d, expected %d\n", b, expect);
      return 5;
    }
  }
  std::vector<uint8_t> half(size / 2, static_cast<uint8_t>(write));
  if (aclrtMemcpy(ptr, size, half.data(), half.size(),
                  ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return 6;
  }
  return 0;
}

// What Check left: `write` over the first half, `expect` after it.
int Recheck(void* ptr, size_t size, int expect, int write) {
  std::vector<uint8_t> bytes(size);
  if (aclrtMemcpy(bytes.data(), size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST) !=
      ACL_SUCCESS) {
    return 6;
  }
  for (size_t i = 0; i < size; ++i) {
    const int want = i < size / 2 ? write : expect;
    if (bytes[i] != want) {
      std::fprintf(
          stderr,
          "peer: byte %zu reads %d after the exporter let go, expected %d\n", i,
          bytes[i], want);
      return 5;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) return 6;
  const std::string mode = argv[1];
  const size_t size = std::strtoull(argv[3], nullptr, 10);
  const int expect = std::atoi(argv[4]);
  const int write = std::atoi(argv[5]);
  const int go_fd = std::atoi(argv[6]);
  const int hold_fd = std::atoi(argv[7]);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    return 6;
  }
  WaitFor(go_fd);
  int result = 0;
  if (mode == "physical") {
    const uint64_t shareable = std::strtoull(argv[2], nullptr, 10);
    aclrtDrvMemHandle handle = nullptr;
    const aclError imported =
        aclrtMemImportFromShareableHandle(shareable, 0, &handle);
    if (imported != ACL_SUCCESS) {
      std::fprintf(stderr, "peer: import failed with %d\n", imported);
      return imported == ACL_ERROR_RT_NO_PERMISSION ? 3 : 4;
    }
    void* va = nullptr;
    if (aclrtReserveMemAddress(&va, size, 0, nullptr, 0) != ACL_SUCCESS ||
        aclrtMapMem(va, size, 0, handle, 0) != ACL_SUCCESS) {
      return 6;
    }
    result = Check(va, size, expect, write);
    WaitFor(hold_fd);
    if (aclrtUnmapMem(va) != ACL_SUCCESS ||
        aclrtReleaseMemAddress(va) != ACL_SUCCESS ||
        aclrtFreePhysical(handle) != ACL_SUCCESS) {
      return 6;
    }
  } else if (mode == "ipc" || mode == "ipc-keep") {
    void* ptr = nullptr;
    const aclError imported = aclrtIpcMemImportByKey(&ptr, argv[2], 0);
    if (imported != ACL_SUCCESS) {
      std::fprintf(stderr, "peer: import failed with %d\n", imported);
      return imported == ACL_ERROR_RT_NO_PERMISSION ? 3 : 4;
    }
    result = Check(ptr, size, expect, write);
    WaitFor(hold_fd);
    if (result == 0 && mode == "ipc-keep")
      result = Recheck(ptr, size, expect, write);
    if (aclrtIpcMemClose(argv[2]) != ACL_SUCCESS) return 6;
  } else {
    return 6;
  }
  (void)aclrtResetDeviceForce(0);
  (void)aclFinalize();
  return result;
}
