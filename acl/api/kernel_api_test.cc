// Kernels through the ACL C API (DESIGN.md §5.20): binaries, functions,
// device globals, argument lists, launches on the simulated cores, device
// exceptions with the failure modes and callbacks, device printf, stopping
// and aborting, and what the snapshot brings back. The kernels are those of
// //testing/kernels:test_kernels.so, whose path is the first argument.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "aclsim/aclsim_kernel.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

std::string g_kernels;  // the test binary's path

struct VaddArgs {
  const float* x;
  const float* y;
  float* z;
  uint32_t n;
};

class KernelApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &bin_));
  }
  void TearDown() override {
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclrtSynchronizeStream(stream_);
    (void)aclrtBinaryUnLoad(bin_);
    (void)aclrtDestroyStreamForce(stream_);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  aclrtFuncHandle Function(const char* name) {
    aclrtFuncHandle f = nullptr;
    EXPECT_ACL_OK(aclrtBinaryGetFunction(bin_, name, &f));
    return f;
  }
  void* DeviceBuffer(size_t size) {
    void* p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
    buffers_.push_back(p);
    return p;
  }
  template <typename T>
  void Write(void* dst, const std::vector<T>& v) {
    ASSERT_ACL_OK(aclrtMemcpy(dst, v.size() * sizeof(T), v.data(),
                              v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
  }
  template <typename T>
  std::vector<T> Read(const void* src, size_t n) {
    std::vector<T> v(n);
    EXPECT_ACL_OK(aclrtMemcpy(v.data(), n * sizeof(T), src, n * sizeof(T),
                              ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  aclError LaunchHost(aclrtFuncHandle f, uint32_t blocks, void* args,
                      size_t size, aclrtLaunchKernelCfg* cfg = nullptr) {
    return aclrtLaunchKernelWithHostArgs(f, blocks, stream_, cfg, args, size,
                                         nullptr, 0);
  }
  // x, y on the device filled with i and 2i; z zeroed.
  void VaddBuffers(uint32_t n, float** x, float** y, float** z) {
    std::vector<float> hx(n), hy(n);
    for (uint32_t i = 0; i < n; ++i) {
      hx[i] = static_cast<float>(i);
      hy[i] = 2.0f * static_cast<float>(i);
    }
    *x = static_cast<float*>(DeviceBuffer(n * sizeof(float)));
    *y = static_cast<float*>(DeviceBuffer(n * sizeof(float)));
    *z = static_cast<float*>(DeviceBuffer(n * sizeof(float)));
    Write(*x, hx);
    Write(*y, hy);
  }
  void ExpectVadd(const float* z, uint32_t n) {
    std::vector<float> out = Read<float>(z, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], 3.0f * static_cast<float>(i)) << i;
    }
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle bin_ = nullptr;
  std::vector<void*> buffers_;
};

TEST_F(KernelApiTest, VectorAddOverEightBlocksWithHostArgs) {
  constexpr uint32_t kN = 4096;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  VaddArgs args{x, y, z, kN};
  ASSERT_ACL_OK(LaunchHost(Function("vadd"), 8, &args, sizeof args));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
}

TEST_F(KernelApiTest, LaunchKernelReadsItsArgumentsFromDeviceMemory) {
  constexpr uint32_t kN = 1000;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  VaddArgs args{x, y, z, kN};
  void* dev_args = DeviceBuffer(sizeof args);
  ASSERT_ACL_OK(aclrtMemcpy(dev_args, sizeof args, &args, sizeof args,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(
      aclrtLaunchKernel(Function("vadd"), 7, dev_args, sizeof args, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
  // Host memory is not device memory.
  EXPECT_EQ(aclrtLaunchKernel(Function("vadd"), 7, &args, sizeof args, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
}

// Kernels read and write device memory directly: plain, mapped (VMM) and
// managed memory alike.
TEST_F(KernelApiTest, KernelsWorkOnMappedAndManagedMemory) {
  constexpr uint32_t kN = 1024;
  const size_t bytes = kN * sizeof(float);
  // x in managed memory, y in physical memory mapped into a reservation.
  void* x = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&x, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  const size_t two_mib = size_t{2} << 20;
  aclrtDrvMemHandle physical = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&physical, two_mib, &prop, 0));
  void* y = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&y, two_mib, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(y, two_mib, 0, physical, 0));
  std::vector<float> hx(kN), hy(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = 2.0f * static_cast<float>(i);
  }
  ASSERT_ACL_OK(
      aclrtMemcpy(x, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(
      aclrtMemcpy(y, bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  auto* z = static_cast<float*>(DeviceBuffer(bytes));
  VaddArgs args{static_cast<float*>(x), static_cast<float*>(y), z, kN};
  ASSERT_ACL_OK(LaunchHost(Function("vadd"), 8, &args, sizeof args));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
  ASSERT_ACL_OK(aclrtUnmapMem(y));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(y));
  ASSERT_ACL_OK(aclrtFreePhysical(physical));
  ASSERT_ACL_OK(aclrtFree(x));
}

TEST_F(KernelApiTest, BlocksKnowTheirIndexCountOffsetAndDevice) {
  constexpr uint32_t kBlocks = 5;
  auto* out = static_cast<uint32_t*>(DeviceBuffer(3 * 16 * sizeof(uint32_t)));
  ASSERT_ACL_OK(aclrtMemset(out, 3 * 16 * 4, 0xFF, 3 * 16 * 4));
  aclrtLaunchKernelAttr attr{};
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
  attr.value.blockDimOffset = 3;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_ACL_OK(
      LaunchHost(Function("block_ids"), kBlocks, &out, sizeof out, &cfg));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint32_t> got = Read<uint32_t>(out, 3 * 16);
  for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(got[3 * b], 0xFFFFFFFFu);
  for (uint32_t b = 3; b < 3 + kBlocks; ++b) {
    EXPECT_EQ(got[3 * b], b);
    EXPECT_EQ(got[3 * b + 1], kBlocks);
    EXPECT_EQ(got[3 * b + 2], 0u);
  }
}

TEST_F(KernelApiTest, TheDevicePrintfTextComesOutBlockByBlock) {
  testing::internal::CaptureStdout();
  ASSERT_ACL_OK(LaunchHost(Function("hello"), 4, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out,
            "hello from block 0 of 4\nhello from block 1 of 4\n"
            "hello from block 2 of 4\nhello from block 3 of 4\n");
}

// A kernel handed to the device runs although its stream is force-destroyed
// and its device force-reset at once (CANN's memory/2_, 5_, 6_ and IPC
// examples do this): its printf comes out, and so do its memory writes
// (DESIGN.md §5.20).
TEST_F(KernelApiTest, AKernelLaunchedRightBeforeAForceTeardownStillRuns) {
  for (int round = 0; round < 20; ++round) {
    testing::internal::CaptureStdout();
    aclrtStream s = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(
        Function("hello"), 2, s, nullptr, nullptr, 0, nullptr, 0));
    ASSERT_ACL_OK(aclrtDestroyStreamForce(s));
    ASSERT_ACL_OK(aclrtBinaryUnLoad(bin_));
    ASSERT_ACL_OK(aclrtResetDeviceForce(0));
    EXPECT_EQ(testing::internal::GetCapturedStdout(),
              "hello from block 0 of 2\nhello from block 1 of 2\n")
        << "round " << round;
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &bin_));
  }
}

void Sleep50ms(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// aclFinalize lets kernels already handed to a device run first, so their
// printf is out when it returns (DESIGN.md §5.20), here queued behind a
// host function that takes a while.
TEST_F(KernelApiTest, AKernelQueuedAtAclFinalizeStillRunsAndPrints) {
  ASSERT_ACL_OK(aclInit(nullptr));
  testing::internal::CaptureStdout();
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Sleep50ms, nullptr));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("hello"), 2, stream_,
                                              nullptr, nullptr, 0, nullptr, 0));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "hello from block 0 of 2\nhello from block 1 of 2\n");
}

// A kernel queued when the memory it reads is freed still reads it: CANN's
// memory/6_ example launches a reading kernel, force-destroys its stream and
// frees the memory at once, and on hardware the kernel has long run by then.
// aclrtFree lets the launches in flight run first (DESIGN.md §5.20).
TEST_F(KernelApiTest, AKernelQueuedWhenItsInputIsFreedStillReadsIt) {
  constexpr uint32_t kN = 4096;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s, Sleep50ms, nullptr));
  VaddArgs args{x, y, z, kN};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("vadd"), 8, s, nullptr,
                                              &args, sizeof args, nullptr, 0));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(s));
  ASSERT_ACL_OK(aclrtFree(x));
  ASSERT_ACL_OK(aclrtFree(y));
  buffers_.erase(std::remove_if(buffers_.begin(), buffers_.end(),
                                [&](void* p) { return p == x || p == y; }),
                 buffers_.end());
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  ExpectVadd(z, kN);
}

std::atomic<int> g_exceptions{0};
std::atomic<uint32_t> g_exception_code{0};
std::atomic<aclrtFuncHandle> g_exception_func{nullptr};
std::atomic<uint32_t> g_exception_args_len{0};
void OnException(aclrtExceptionInfo* info) {
  g_exceptions++;
  g_exception_code = aclrtGetErrorCodeFromExceptionInfo(info);
  aclrtFuncHandle f = nullptr;
  (void)aclrtGetFuncHandleFromExceptionInfo(info, &f);
  g_exception_func = f;
  void* args = nullptr;
  uint32_t len = 0;
  (void)aclrtGetArgsFromExceptionInfo(info, &args, &len);
  g_exception_args_len = len;
}
std::atomic<int> g_binary_exceptions{0};
void OnBinaryException(aclrtExceptionInfo* info, void* user) {
  g_binary_exceptions++;
  *static_cast<uint32_t*>(user) = aclrtGetErrorCodeFromExceptionInfo(info);
}

struct FailArgs {
  uint32_t code;
  uint32_t block;
};

TEST_F(KernelApiTest, ARaisedExceptionFailsTheTaskAndTellsTheCallbacks) {
  g_exceptions = 0;
  g_binary_exceptions = 0;
  uint32_t binary_code = 0;
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  ASSERT_ACL_OK(
      aclrtBinarySetExceptionCallback(bin_, &OnBinaryException, &binary_code));
  aclrtFuncHandle fail = Function("fail");
  FailArgs args{ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 2};
  ASSERT_ACL_OK(LaunchHost(fail, 4, &args, sizeof args));
  EXPECT_EQ(aclrtSynchronizeStream(stream_),
            ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(g_exceptions.load(), 1);
  EXPECT_EQ(g_exception_code.load(),
            static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  EXPECT_EQ(g_exception_func.load(), fail);
  EXPECT_EQ(g_exception_args_len.load(), sizeof args);
  EXPECT_EQ(g_binary_exceptions.load(), 1);
  EXPECT_EQ(binary_code,
            static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  // Code 0 is the AI Core exception.
  args = {0, 0};
  ASSERT_ACL_OK(LaunchHost(fail, 1, &args, sizeof args));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  ASSERT_ACL_OK(aclrtBinarySetExceptionCallback(bin_, nullptr, nullptr));
}

TEST_F(KernelApiTest, ATrapIsContainedAsATrapException) {
  ASSERT_ACL_OK(LaunchHost(Function("trap"), 3, nullptr, 0));
  EXPECT_EQ(aclrtSynchronizeStream(stream_),
            ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  // The cores work on: a launch afterwards runs.
  constexpr uint32_t kN = 64;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  VaddArgs args{x, y, z, kN};
  ASSERT_ACL_OK(LaunchHost(Function("vadd"), 4, &args, sizeof args));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
}

TEST_F(KernelApiTest, AKernelTouchingUnmappedMemoryFailsItsTask) {
  // Reserved device address space with nothing mapped: the access faults.
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&p, size_t{2} << 20, 0, nullptr, 0));
  struct {
    void* p;
    int32_t factor;
  } scale{p, 2};
  ASSERT_ACL_OK(LaunchHost(Function("scale"), 1, &scale, sizeof scale));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(p));
}

TEST_F(KernelApiTest, AForcedDestroyStillRunsTheQueuedKernels) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(
        Function("count"), 2, s, nullptr, nullptr, 0, nullptr, 0));
  }
  ASSERT_ACL_OK(aclrtDestroyStreamForce(s));
  // The destroy did not wait; the device's work is waited for as usual.
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  void* counter = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &counter, &size));
  EXPECT_EQ(Read<int64_t>(counter, 1)[0], 1006);
}

TEST_F(KernelApiTest, FailureModesDecideWhetherLaterTasksRun) {
  auto* p = static_cast<int32_t*>(DeviceBuffer(sizeof(int32_t)));
  Write(p, std::vector<int32_t>{3});
  struct {
    int32_t* p;
    int32_t factor;
  } scale{p, 2};
  FailArgs fail{0, 0};
  // Continue on failure (the default): the scale after the failure runs.
  ASSERT_ACL_OK(LaunchHost(Function("fail"), 1, &fail, sizeof fail));
  ASSERT_ACL_OK(LaunchHost(Function("scale"), 1, &scale, sizeof scale));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 6);
  // Stop on failure: skipped until the stream's synchronize reports it.
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
  ASSERT_ACL_OK(LaunchHost(Function("fail"), 1, &fail, sizeof fail));
  ASSERT_ACL_OK(LaunchHost(Function("scale"), 1, &scale, sizeof scale));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 6);
  ASSERT_ACL_OK(LaunchHost(Function("scale"), 1, &scale, sizeof scale));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 12);
}

TEST_F(KernelApiTest, DeviceGlobalsLiveInDeviceMemoryPerLoad) {
  void* addr = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &addr, &size));
  EXPECT_EQ(size, sizeof(int64_t));
  EXPECT_EQ(Read<int64_t>(addr, 1)[0], 1000);
  ASSERT_ACL_OK(LaunchHost(Function("count"), 8, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read<int64_t>(addr, 1)[0], 1008);
  EXPECT_EQ(aclrtBinaryGetGlobal(bin_, "nope", &addr, &size),
            ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  // 14, aclrtBinaryGetGlobal: one output may be NULL, not both.
  void* only_addr = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &only_addr, nullptr));
  EXPECT_EQ(only_addr, addr);
  size_t only_size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", nullptr, &only_size));
  EXPECT_EQ(only_size, sizeof(int64_t));
  EXPECT_EQ(aclrtBinaryGetGlobal(bin_, "counter", nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);

  // A second load from data is its own instance with its own counter.
  std::ifstream in(g_kernels, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  aclrtBinHandle second = nullptr;
  ASSERT_ACL_OK(
      aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &second));
  void* addr2 = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(second, "counter", &addr2, &size));
  EXPECT_NE(addr2, addr);
  aclrtFuncHandle count2 = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(second, "count", &count2));
  ASSERT_ACL_OK(LaunchHost(count2, 3, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read<int64_t>(addr2, 1)[0], 1003);
  EXPECT_EQ(Read<int64_t>(addr, 1)[0], 1008);
  ASSERT_ACL_OK(aclrtBinaryUnLoad(second));
}

TEST_F(KernelApiTest, SymbolsNameDeviceGlobalsByTheirHostImage) {
  // The binary's own host symbol of the counter: counter_symbol() answers it.
  aclrtBinHandle h = bin_;
  void* image = nullptr;
  size_t image_size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(h, &image, &image_size));
  std::ifstream in(g_kernels, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  ASSERT_EQ(image_size, bytes.size());
  EXPECT_EQ(Read<char>(image, 16),
            std::vector<char>(bytes.begin(), bytes.begin() + 16));

  using SymbolFn = const void* (*)();
  aclrtFuncHandle sym_fn = Function("counter_symbol");
  aclrtBinHandle owner = nullptr;
  ASSERT_ACL_OK(aclrtFunctionGetBinary(sym_fn, &owner));
  EXPECT_EQ(owner, bin_);
  void* aic = nullptr;
  void* aiv = nullptr;
  ASSERT_ACL_OK(aclrtGetFunctionAddr(sym_fn, &aic, &aiv));
  const void* symbol = reinterpret_cast<SymbolFn>(aic)();
  void* dev = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtGetSymbolAddress(symbol, &dev));
  ASSERT_ACL_OK(aclrtGetSymbolSize(symbol, &size));
  void* global = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &global, &size));
  EXPECT_EQ(dev, global);
  const int64_t v = 77;
  ASSERT_ACL_OK(
      aclrtMemcpyToSymbol(symbol, &v, sizeof v, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  int64_t back = 0;
  ASSERT_ACL_OK(aclrtMemcpyFromSymbol(&back, sizeof back, symbol, sizeof back,
                                      0, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, 77);
  EXPECT_EQ(
      aclrtMemcpyToSymbol(symbol, &v, sizeof v, 4, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetSymbolAddress(&v, &dev), ACL_ERROR_RT_INVALID_SYMBOL);
}

TEST_F(KernelApiTest, ArgumentListsWithPlaceHoldersAndUpdates) {
  constexpr uint32_t kN = 256;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  aclrtFuncHandle vadd = Function("vadd");
  aclrtArgsHandle args = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(vadd, &args));
  aclrtParamHandle px, py, pz, pn;
  // x comes as a place-holder: its data travels with the launch.
  ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &px));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &y, sizeof y, &py));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &z, sizeof z, &pz));
  uint32_t n = kN / 2;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &pn));
  void* xbuf = nullptr;
  ASSERT_ACL_OK(
      aclrtKernelArgsGetPlaceHolderBuffer(args, px, kN * sizeof(float), &xbuf));
  for (uint32_t i = 0; i < kN; ++i) {
    static_cast<float*>(xbuf)[i] = static_cast<float>(i);
  }
  // Not finalized yet.
  EXPECT_EQ(
      aclrtLaunchKernelWithConfig(vadd, 4, stream_, nullptr, args, nullptr),
      ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(
      aclrtLaunchKernelWithConfig(vadd, 4, stream_, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<float> out = Read<float>(z, kN);
  EXPECT_EQ(out[kN / 2 - 1], 3.0f * (kN / 2 - 1));
  EXPECT_EQ(out[kN / 2], 0.0f);
  // The full length after an update.
  n = kN;
  ASSERT_ACL_OK(aclrtKernelArgsParaUpdate(args, pn, &n, sizeof n));
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, pn, &n, 8),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, px, &n, sizeof n),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(
      aclrtLaunchKernelWithConfig(vadd, 4, stream_, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
  // Another function's list.
  EXPECT_EQ(aclrtLaunchKernelWithConfig(Function("empty"), 1, stream_, nullptr,
                                        args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  int reserve = 0;
  EXPECT_EQ(
      aclrtLaunchKernelWithConfig(vadd, 4, stream_, nullptr, args, &reserve),
      ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelApiTest, ArgumentListsInTheCallersMemory) {
  constexpr uint32_t kN = 128;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  aclrtFuncHandle vadd = Function("vadd");
  size_t handle_size = 0;
  size_t mem_size = 0;
  ASSERT_ACL_OK(aclrtKernelArgsGetHandleMemSize(vadd, &handle_size));
  ASSERT_ACL_OK(aclrtKernelArgsGetMemSize(vadd, 28, &mem_size));
  EXPECT_EQ(mem_size, 32u);
  std::vector<uint8_t> handle_mem(handle_size);
  std::vector<uint8_t> mem(mem_size);
  aclrtArgsHandle args = handle_mem.data();
  ASSERT_ACL_OK(
      aclrtKernelArgsInitByUserMem(vadd, args, mem.data(), mem.size()));
  aclrtParamHandle p;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &x, sizeof x, &p));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &y, sizeof y, &p));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &z, sizeof z, &p));
  uint32_t n = kN;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
  // Full.
  EXPECT_EQ(aclrtKernelArgsAppend(args, &x, sizeof x, &p),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(
      aclrtLaunchKernelWithConfig(vadd, 2, stream_, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
}

TEST_F(KernelApiTest, ArgumentArraysNeedADescribedKernel) {
  constexpr uint32_t kN = 100;
  float *x, *y, *z;
  VaddBuffers(kN, &x, &y, &z);
  aclrtFuncHandle vadd = Function("vadd");
  size_t count = 0;
  ASSERT_ACL_OK(aclrtFunctionGetParamCount(vadd, &count));
  EXPECT_EQ(count, 4u);
  size_t offset = 0, size = 0;
  ASSERT_ACL_OK(aclrtFunctionGetParamInfo(vadd, 3, &offset, &size));
  EXPECT_EQ(offset, offsetof(VaddArgs, n));
  EXPECT_EQ(size, sizeof(uint32_t));
  EXPECT_EQ(aclrtFunctionGetParamInfo(vadd, 4, &offset, &size),
            ACL_ERROR_INVALID_PARAM);
  uint32_t n = kN;
  void* values[] = {&x, &y, &z, &n};
  ASSERT_ACL_OK(
      aclrtLaunchKernelWithArgsArray(vadd, 3, stream_, nullptr, values));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectVadd(z, kN);
  EXPECT_EQ(aclrtFunctionGetParamCount(Function("empty"), &count),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(Function("empty"), 1, stream_,
                                           nullptr, values),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(KernelApiTest, FunctionQueries) {
  aclrtFuncHandle vadd = Function("vadd");
  aclrtFuncHandle again = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin_, "vadd", &again));
  EXPECT_EQ(again, vadd);
  char name[16];
  ASSERT_ACL_OK(aclrtGetFunctionName(vadd, sizeof name, name));
  EXPECT_STREQ(name, "vadd");
  EXPECT_EQ(aclrtGetFunctionName(vadd, 4, name), ACL_ERROR_INVALID_PARAM);
  // A kernel with its own entry keeps its name.
  ASSERT_ACL_OK(aclrtGetFunctionName(Function("scale"), sizeof name, name));
  EXPECT_STREQ(name, "scale");
  int64_t type = -1;
  ASSERT_ACL_OK(
      aclrtGetFunctionAttribute(vadd, ACL_FUNC_ATTR_KERNEL_TYPE, &type));
  EXPECT_EQ(type, ACL_KERNEL_TYPE_AICORE);
  EXPECT_EQ(aclrtGetFunctionAttribute(vadd, static_cast<aclrtFuncAttribute>(9),
                                      &type),
            ACL_ERROR_INVALID_PARAM);
  void* aic = nullptr;
  void* aiv = nullptr;
  ASSERT_ACL_OK(aclrtGetFunctionAddr(vadd, &aic, &aiv));
  aclrtFuncHandle by_entry = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunctionByEntry(
      bin_, reinterpret_cast<uint64_t>(aic), &by_entry));
  EXPECT_EQ(by_entry, vadd);
  aclrtFuncHandle by_symbol = nullptr;
  ASSERT_ACL_OK(aclrtGetFuncBySymbol(aic, &by_symbol));
  EXPECT_EQ(by_symbol, vadd);
  size_t aic_size = 0, aiv_size = 0;
  ASSERT_ACL_OK(aclrtGetFunctionSize(vadd, &aic_size, &aiv_size));
  EXPECT_GT(aic_size, 0u);
  // A CPU kernel registered by its function's name, in a binary loaded in
  // CPU-kernel mode; any other binary is refused (14, aclrtRegisterCpuFunc).
  aclrtFuncHandle cpu = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtRegisterCpuFunc(bin_, "empty", "EmptyCpu", &cpu));
  EXPECT_EQ(cpu, nullptr);
  aclrtBinaryLoadOption cpu_mode{};
  cpu_mode.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  cpu_mode.value.cpuKernelMode = 1;
  aclrtBinaryLoadOptions cpu_options{&cpu_mode, 1};
  aclrtBinHandle cpu_bin = nullptr;
  ASSERT_ACL_OK(
      aclrtBinaryLoadFromFile(g_kernels.c_str(), &cpu_options, &cpu_bin));
  ASSERT_ACL_OK(aclrtRegisterCpuFunc(cpu_bin, "empty", "EmptyCpu", &cpu));
  ASSERT_ACL_OK(
      aclrtGetFunctionAttribute(cpu, ACL_FUNC_ATTR_KERNEL_TYPE, &type));
  EXPECT_EQ(type, ACL_KERNEL_TYPE_AICPU);
  ASSERT_ACL_OK(LaunchHost(cpu, 2, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(cpu_bin));
}

// 14, aclrtBinaryGetDevAddress `binAddr`: a binary loaded lazily has no
// device address until it is loaded (here: its first function looked up).
TEST_F(KernelApiTest, LazyLoadHasNoDeviceAddressUntilLoaded) {
  aclrtBinaryLoadOption lazy{};
  lazy.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  lazy.value.isLazyLoad = 1;
  aclrtBinaryLoadOptions options{&lazy, 1};
  aclrtBinHandle bin = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), &options, &bin));
  void* addr = reinterpret_cast<void*>(0x1);
  size_t size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(bin, &addr, &size));
  EXPECT_EQ(addr, nullptr);
  EXPECT_GT(size, 0u);
  aclrtFuncHandle vadd = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
  size_t loaded_size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(bin, &addr, &loaded_size));
  ASSERT_NE(addr, nullptr);
  EXPECT_EQ(loaded_size, size);
  // The image's bytes are in device memory now.
  std::vector<uint8_t> head(16, 0);
  ASSERT_ACL_OK(aclrtMemcpy(head.data(), head.size(), addr, head.size(),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(head[0], 0x7F);  // an ELF image
  EXPECT_EQ(head[1], 'E');
  ASSERT_ACL_OK(aclrtBinaryUnLoad(bin));
  // Without the option: an address at once.
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(bin_, &addr, &size));
  EXPECT_NE(addr, nullptr);
}

// 14, aclrtFunctionGetAvailDynUbufPerBlock: for a non-SIMT kernel (every
// simulated one) success and 0; `flags` is reserved (0).
TEST_F(KernelApiTest, AvailableDynamicUbufOfANonSimtKernelIsZero) {
  aclrtFuncHandle vadd = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin_, "vadd", &vadd));
  size_t ubuf = 123;
  ASSERT_ACL_OK(aclrtFunctionGetAvailDynUbufPerBlock(vadd, 0, &ubuf));
  EXPECT_EQ(ubuf, 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtFunctionGetAvailDynUbufPerBlock(nullptr, 0, &ubuf));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtFunctionGetAvailDynUbufPerBlock(vadd, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtFunctionGetAvailDynUbufPerBlock(vadd, 1, &ubuf));
}

TEST_F(KernelApiTest, BadInputGetsTheDocumentedCodes) {
  aclrtBinHandle h = nullptr;
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &h),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/k.so", nullptr, &h),
            ACL_ERROR_RT_PARAM_INVALID);
  const char junk[] = "not an ELF file";
  EXPECT_EQ(aclrtBinaryLoadFromData(junk, sizeof junk, nullptr, &h),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryLoadFromData(junk, 0, nullptr, &h),
            ACL_ERROR_INVALID_PARAM);
  aclrtBinaryLoadOption bad_option{};
  bad_option.type = static_cast<aclrtBinaryLoadOptionType>(42);
  aclrtBinaryLoadOptions options{&bad_option, 1};
  EXPECT_EQ(aclrtBinaryLoadFromFile(g_kernels.c_str(), &options, &h),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "no_such_kernel", &f),
            ACL_ERROR_RT_KERNEL_LOOKUP);
  int not_a_handle = 0;
  EXPECT_EQ(aclrtBinaryGetFunction(&not_a_handle, "vadd", &f),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(LaunchHost(&not_a_handle, 1, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(LaunchHost(Function("empty"), 0, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(LaunchHost(Function("empty"), 65536, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  aclrtLaunchKernelAttr attr{};
  attr.id = static_cast<aclrtLaunchKernelAttrId>(77);
  aclrtLaunchKernelCfg cfg{&attr, 1};
  EXPECT_EQ(LaunchHost(Function("empty"), 1, nullptr, 0, &cfg),
            ACL_ERROR_INVALID_PARAM);
  // An unloaded binary's handles are gone; queued work is not.
  aclrtBinHandle other = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &other));
  aclrtFuncHandle other_empty = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(other, "empty", &other_empty));
  ASSERT_ACL_OK(LaunchHost(other_empty, 2, nullptr, 0));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(LaunchHost(other_empty, 1, nullptr, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryUnLoad(other), ACL_ERROR_RT_PARAM_INVALID);
  // aclrtCreateBinary descriptions.
  EXPECT_EQ(aclrtCreateBinary(nullptr, 4), nullptr);
  EXPECT_EQ(aclrtDestroyBinary(&not_a_handle), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelApiTest, ABinaryRunsOnlyOnTheDeviceItWasLoadedOn) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(Function("empty"), 1, other, nullptr,
                                          nullptr, 0, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtDestroyStream(other));
  ASSERT_ACL_OK(aclrtResetDevice(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
}

TEST_F(KernelApiTest, ResettingTheDeviceUnloadsItsBinaries) {
  aclrtFuncHandle empty = Function("empty");
  ASSERT_ACL_OK(aclrtDestroyStream(stream_));
  stream_ = nullptr;
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "empty", &f),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(empty, 1, nullptr, nullptr, nullptr,
                                          0, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &bin_));
}

// A kernel compiled into this program.
void DoubleAll(const aclsimKernelContext* ctx, void* args) {
  int32_t* p = *static_cast<int32_t**>(args);
  p[ctx->blockIdx] *= 2;
}

TEST_F(KernelApiTest, ProgramKernelsLaunchOnEveryDevice) {
  aclrtFuncHandle f = nullptr;
  ASSERT_ACL_OK(aclsimRegisterKernel(reinterpret_cast<const void*>(&DoubleAll),
                                     "DoubleAll", &DoubleAll, nullptr, &f));
  aclrtFuncHandle again = nullptr;
  ASSERT_ACL_OK(aclsimRegisterKernel(reinterpret_cast<const void*>(&DoubleAll),
                                     "DoubleAll", &DoubleAll, nullptr, &again));
  EXPECT_EQ(again, f);
  aclrtFuncHandle by_symbol = nullptr;
  ASSERT_ACL_OK(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&DoubleAll),
                                     &by_symbol));
  EXPECT_EQ(by_symbol, f);
  for (int32_t device : {0, 1}) {
    ASSERT_ACL_OK(aclrtSetDevice(device));
    aclrtStream s = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    void* p = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<int32_t> v{1, 2, 3, 4};
    ASSERT_ACL_OK(aclrtMemcpy(p, 16, v.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(f, 4, s, nullptr, &p, sizeof p,
                                                nullptr, 0));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    ASSERT_ACL_OK(aclrtMemcpy(v.data(), 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(v, (std::vector<int32_t>{2, 4, 6, 8}));
    ASSERT_ACL_OK(aclrtFree(p));
    ASSERT_ACL_OK(aclrtDestroyStream(s));
  }
  ASSERT_ACL_OK(aclrtResetDevice(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(aclsimRegisterKernel(nullptr, "x", &DoubleAll, nullptr, &f),
            ACL_ERROR_INVALID_PARAM);
}

struct SpinArgs {
  uint64_t iterations;
  double* out;
};

TEST_F(KernelApiTest, StopEndsTheRunningKernelAndAbortDiscardsThePending) {
  // Many long blocks on one core: a stop lets the running block finish and
  // runs no more of them.
  aclrtStream limited = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&limited));
  ASSERT_ACL_OK(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, 1));
  auto* out = static_cast<double*>(DeviceBuffer(1000 * sizeof(double)));
  ASSERT_ACL_OK(aclrtMemset(out, 8000, 0, 8000));
  SpinArgs spin{2'000'000, out};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("spin"), 1000, limited,
                                              nullptr, &spin, sizeof spin,
                                              nullptr, 0));
  auto* p = static_cast<int32_t*>(DeviceBuffer(sizeof(int32_t)));
  Write(p, std::vector<int32_t>{5});
  struct {
    int32_t* p;
    int32_t factor;
  } scale{p, 3};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("scale"), 1, limited,
                                              nullptr, &scale, sizeof scale,
                                              nullptr, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_ACL_OK(aclrtStreamStop(limited));
  ASSERT_ACL_OK(aclrtSynchronizeStream(limited));
  std::vector<double> got = Read<double>(out, 1000);
  EXPECT_EQ(got[999], 0.0) << "the stop ran every block";
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 15) << "the task after the stop ran";
  EXPECT_EQ(aclrtStreamStop(nullptr), ACL_ERROR_INVALID_PARAM);

  // Abort: the running kernel stops, the pending scale is discarded.
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("spin"), 1000, limited,
                                              nullptr, &spin, sizeof spin,
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("scale"), 1, limited,
                                              nullptr, &scale, sizeof scale,
                                              nullptr, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_ACL_OK(aclrtStreamAbort(limited));
  ASSERT_ACL_OK(aclrtSynchronizeStream(limited));
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 15) << "the aborted scale ran";
  // Usable afterwards.
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Function("scale"), 1, limited,
                                              nullptr, &scale, sizeof scale,
                                              nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(limited));
  EXPECT_EQ(Read<int32_t>(p, 1)[0], 45);
  ASSERT_ACL_OK(aclrtDestroyStream(limited));
}

TEST_F(KernelApiTest, BinariesAndGlobalsSurviveASnapshotWithMemoryLoss) {
  void* counter = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &counter, &size));
  void* image = nullptr;
  size_t image_size = 0;
  ASSERT_ACL_OK(aclrtBinaryGetDevAddress(bin_, &image, &image_size));
  aclrtFuncHandle count = Function("count");
  aclrtArgsHandle args = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(Function("vadd"), &args));
  ASSERT_ACL_OK(LaunchHost(count, 5, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<char> image_before = Read<char>(image, image_size);

  const int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(pid, nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(pid, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));

  // Same handles, same addresses, same bytes.
  void* counter_after = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetGlobal(bin_, "counter", &counter_after, &size));
  EXPECT_EQ(counter_after, counter);
  EXPECT_EQ(Read<int64_t>(counter, 1)[0], 1005);
  EXPECT_EQ(Read<char>(image, image_size), image_before);
  EXPECT_EQ(Function("count"), count);
  // Launches behave as before.
  ASSERT_ACL_OK(LaunchHost(count, 2, nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read<int64_t>(counter, 1)[0], 1007);
  aclrtParamHandle p;
  float* f = nullptr;
  EXPECT_ACL_OK(aclrtKernelArgsAppend(args, &f, sizeof f, &p));
}

TEST_F(KernelApiTest, LaunchesAreGatedWhileLocked) {
  const int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(pid, nullptr));
  std::atomic<bool> launched{false};
  std::thread t([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(LaunchHost(Function("empty"), 1, nullptr, 0));
    launched = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(launched.load());
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(pid, nullptr));
  t.join();
  EXPECT_TRUE(launched.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <test_kernels.so>\n", argv[0]);
    return 2;
  }
  g_kernels = argv[1];
  return RUN_ALL_TESTS();
}
