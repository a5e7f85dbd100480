// The data dump of a program: a dump round (aclmdlInitDump, aclmdlSetDump,
// aclmdlFinalizeDump) dumps a kernel's arguments and an aclnn operator's
// tensors into <dump_path>/<time>/<device>; a callback takes the next
// files instead; a second round enables the exception dump, and a trapping
// kernel leaves its exception information where
// acldumpGetExceptionInfoPath says, beside what acldumpSaveExceptionInfo
// saves.
#include <dirent.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "aclnnop/aclnn_add.h"
#include "common/example_utils.h"
#include "dump_kernels.h"

namespace {

constexpr uint32_t kCount = 1024;

// Regular files under `dir`, recursively.
int CountFiles(const std::string& dir, const char* part = "") {
  int n = 0;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return 0;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (e->d_type == DT_DIR) {
      n += CountFiles(dir + "/" + name, part);
    } else if (name.find(part) != std::string::npos) {
      ++n;
    }
  }
  closedir(d);
  return n;
}

std::atomic<int> g_lastChunks{0};
int32_t OnChunk(const acldumpChunk* chunk, int32_t len) {
  if (sizeof(acldumpChunk) + chunk->bufLen != static_cast<size_t>(len)) {
    return -1;
  }
  if (chunk->isLastChunk == 1) g_lastChunks++;
  return 0;
}

aclTensor* Tensor(void* data, int64_t n) {
  int64_t shape[1] = {n};
  int64_t strides[1] = {1};
  return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape,
                         1, data);
}

int RunAdd(aclrtStream stream, float* x, float* y, float* out) {
  aclTensor* a = Tensor(x, kCount);
  aclTensor* b = Tensor(y, kCount);
  aclTensor* c = Tensor(out, kCount);
  float one = 1;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  int ret = aclnnAddGetWorkspaceSize(a, b, alpha, c, &workspace, &executor);
  if (ret == 0) ret = aclnnAdd(nullptr, 0, executor, stream);
  aclDestroyTensor(a);
  aclDestroyTensor(b);
  aclDestroyTensor(c);
  aclDestroyScalar(alpha);
  return ret;
}

void WriteConfig(const char* name, const std::string& dump) {
  std::ofstream(name) << "{\"dump\": " << dump << "}\n";
}

}  // namespace

int main() {
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  std::vector<float> host(kCount);
  for (uint32_t i = 0; i < kCount; ++i) host[i] = static_cast<float>(i);
  float* x = nullptr;
  float* y = nullptr;
  const size_t bytes = kCount * sizeof(float);
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&x), bytes,
                            ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&y), bytes,
                            ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(
      aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  // 1. A data dump round: inputs and outputs, operators and kernels.
  WriteConfig("data.json",
              R"({"dump_path": "./", "dump_op_switch": "on",
                  "dump_mode": "all"})");
  EXAMPLE_CHECK(aclmdlInitDump());
  EXAMPLE_CHECK(aclmdlSetDump("data.json"));
  const char* dataPath = acldumpGetPath(DATA_DUMP);
  if (dataPath == nullptr) {
    EXAMPLE_ERROR("acldumpGetPath(DATA_DUMP) returned NULL");
    return 1;
  }
  const std::string data = dataPath;
  EXAMPLE_CHECK(ScaleDo(8, stream, x, y, kCount));
  EXAMPLE_CHECK(RunAdd(stream, x, y, y));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  std::printf("data dump: kernel files %d, operator files %d\n",
              CountFiles(data, "scale_kernel."),
              CountFiles(data, "Add.aclnnAdd."));
  // The callback takes the next files instead of the disk.
  EXAMPLE_CHECK(acldumpRegCallback(OnChunk, 0));
  EXAMPLE_CHECK(RunAdd(stream, x, y, y));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  acldumpUnregCallback();
  std::printf("callback: files %d, files on disk %d\n", g_lastChunks.load(),
              CountFiles(data));
  EXAMPLE_CHECK(aclmdlFinalizeDump());
  std::printf("after the round: path %s\n",
              acldumpGetPath(DATA_DUMP) == nullptr ? "none" : "set");

  // 2. An exception dump round: a trapping kernel and saved tensors.
  WriteConfig("exception.json",
              R"({"dump_path": "./", "dump_scene": "aic_err_brief_dump"})");
  EXAMPLE_CHECK(aclmdlInitDump());
  EXAMPLE_CHECK(aclmdlSetDump("exception.json"));
  char excPath[ACL_DUMP_MAX_FILE_PATH_LENGTH] = {0};
  EXAMPLE_CHECK(acldumpGetExceptionInfoPath(excPath, sizeof excPath));
  uint32_t* mark = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&mark), sizeof(uint32_t),
                            ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(TrapDo(stream, mark));
  const aclError sync = aclrtSynchronizeStream(stream);
  acldumpTensorInfo tensor;
  std::memset(&tensor, 0, sizeof tensor);
  tensor.type = ACL_DUMP_TENSOR_INPUT;
  tensor.tensorSize = bytes;
  tensor.format = ACL_FORMAT_ND;
  tensor.dataType = ACL_FLOAT;
  tensor.tensorAddr = reinterpret_cast<int64_t*>(x);
  tensor.addrType = ACL_DUMP_ADDR_RAW;
  tensor.placement = ACL_DUMP_PLACEMENT_DEVICE;
  tensor.shapeNum = 1;
  tensor.shape[0] = kCount;
  EXAMPLE_CHECK(acldumpSaveExceptionInfo("x", "example=13", &tensor, 1));
  std::printf("exception: synchronize %d, trap files %d, saved files %d\n",
              static_cast<int>(sync), CountFiles(excPath, "exception_info."),
              CountFiles(excPath, "x.custom."));
  EXAMPLE_CHECK(aclmdlFinalizeDump());

  EXAMPLE_CHECK(aclrtFree(mark));
  EXAMPLE_CHECK(aclrtFree(x));
  EXAMPLE_CHECK(aclrtFree(y));
  EXAMPLE_CHECK(aclrtDestroyStreamForce(stream));
  EXAMPLE_CHECK(aclrtResetDeviceForce(0));
  EXAMPLE_CHECK(aclFinalize());
  std::printf("Data dump: done\n");
  return 0;
}
