// One rank of a multi-process AllReduce, as a launcher runs a CANN job: each
// process gets RANK_ID and RANK_SIZE; rank 0 makes the root information
// (HcclGetRootInfo) and hands it to the others through ./file; every rank
// creates its communicator (HcclCommInitRootInfo), reduces 8 floats valued
// rank + 1 on its stream, and prints what it got. The bytes between the
// processes move over Gloo.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/example_utils.h"
#include "common/file_handshake.h"
#include "hccl/hccl.h"

#define HCCL_CHECK(call)                               \
  do {                                                 \
    const HcclResult example_ret_ = (call);            \
    if (example_ret_ != HCCL_SUCCESS) {                \
      EXAMPLE_ERROR("%s failed: %d (%s)", #call,       \
                    static_cast<int>(example_ret_),    \
                    HcclGetErrorString(example_ret_)); \
      return 1;                                        \
    }                                                  \
  } while (0)

int main() {
  const char* rank_env = std::getenv("RANK_ID");
  const char* size_env = std::getenv("RANK_SIZE");
  if (rank_env == nullptr || size_env == nullptr) {
    EXAMPLE_ERROR("set RANK_ID and RANK_SIZE (run.sh does)");
    return 1;
  }
  const uint32_t rank = static_cast<uint32_t>(std::atoi(rank_env));
  const uint32_t size = static_cast<uint32_t>(std::atoi(size_env));
  EXAMPLE_CHECK(aclInit(nullptr));
  uint32_t devices = 0;
  EXAMPLE_CHECK(aclrtGetDeviceCount(&devices));
  const int32_t device = static_cast<int32_t>(rank % devices);
  EXAMPLE_CHECK(aclrtSetDevice(device));

  HcclRootInfo root;
  if (rank == 0) {
    HCCL_CHECK(HcclGetRootInfo(&root));
    if (!HandOver("file/root_info", &root, sizeof(root))) {
      EXAMPLE_ERROR("cannot write file/root_info");
      return 1;
    }
  } else if (!TakeOver("file/root_info", &root, sizeof(root))) {
    EXAMPLE_ERROR("rank 0 did not hand over the root information");
    return 1;
  }
  HcclComm comm = nullptr;
  HCCL_CHECK(HcclCommInitRootInfo(size, &root, rank, &comm));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));

  const size_t count = 8;
  std::vector<float> host(count, static_cast<float>(rank + 1));
  void* buf = nullptr;
  EXAMPLE_CHECK(
      aclrtMalloc(&buf, count * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMemcpy(buf, count * sizeof(float), host.data(),
                            count * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  HCCL_CHECK(HcclAllReduce(buf, buf, count, HCCL_DATA_TYPE_FP32,
                           HCCL_REDUCE_SUM, comm, stream));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_CHECK(aclrtMemcpy(host.data(), count * sizeof(float), buf,
                            count * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
  std::string line = "rankId: " + std::to_string(rank) + ", output: [";
  for (float v : host) line += " " + std::to_string(static_cast<int>(v));
  std::printf("%s ]\n", line.c_str());

  EXAMPLE_CHECK(aclrtFree(buf));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  HCCL_CHECK(HcclCommDestroy(comm));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
