// Model runtime instances through the ACL C API (runtime/model/model.h): graph
// capture (single stream, fork/join, capture modes, external events, task
// groups and their updates), the build API with labels, stream switches and
// stream activation, conditional tasks, executions, and the task queries.
// CANN's samples model_ri/0..4 and label/0 are the call sequences these
// follow, with host functions, memcpys and value writes in place of aclnn
// operators.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/status_matchers.h"

namespace {

std::string g_kernels;  // test_kernels.so

struct VaddArgs {
  const float* x;
  const float* y;
  float* z;
  uint32_t n;
};

constexpr uint32_t kHead = 0x00000000U;     // ACL_MODEL_STREAM_FLAG_HEAD
constexpr uint32_t kDefault = 0x7FFFFFFFU;  // ACL_MODEL_STREAM_FLAG_DEFAULT

void Count(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

// Appends the byte the argument names to a log (host functions run in
// stream order, so the log shows the order tasks ran in).
struct Log {
  std::mutex mu;
  std::string text;
  void Add(char c) {
    std::lock_guard<std::mutex> lock(mu);
    text.push_back(c);
  }
  std::string Get() {
    std::lock_guard<std::mutex> lock(mu);
    return text;
  }
};
struct Mark {
  Log* log;
  char c;
};
void AddMark(void* arg) {
  auto* m = static_cast<Mark*>(arg);
  m->log->Add(m->c);
}

// Decrements the uint64_t the argument points at (device memory is host
// addressable in the simulator; host functions may touch it).
void CountDestroyCb(void*) {}

void Decrement(void* arg) { --*static_cast<uint64_t*>(arg); }

class ModelApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(dev_, kBytes, 0, kBytes));
  }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  std::vector<uint8_t> Read(const void* p, size_t n) {
    std::vector<uint8_t> out(n);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
  uint64_t ReadU64(const void* p) {
    uint64_t v = 0;
    EXPECT_ACL_OK(aclrtMemcpy(&v, 8, p, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  void WriteU64(void* p, uint64_t v) {
    ASSERT_ACL_OK(aclrtMemcpy(p, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  // Sets a word a value wait may be polling right now: with a value write
  // (an atomic store), as a device would, not a plain copy racing the poll.
  void ReleaseU64(void* p, uint64_t v) {
    aclrtStream s = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    ASSERT_ACL_OK(aclrtValueWrite(p, v, 0, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    ASSERT_ACL_OK(aclrtDestroyStream(s));
  }
  uint8_t* Dev(size_t offset) { return static_cast<uint8_t*>(dev_) + offset; }
  aclrtStream NewPersistent() {
    aclrtStream s = nullptr;
    EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    return s;
  }

  static constexpr size_t kBytes = 4096;
  aclrtStream stream_ = nullptr;
  void* dev_ = nullptr;
  std::atomic<int> counted_{0};
};

// --- 1. Capture basics ------------------------------------------------------

TEST_F(ModelApiTest, CapturedWorkRunsOnlyWhenExecuted) {
  std::atomic<int> calls{0};
  uint8_t host[64];
  std::memset(host, 0x5A, sizeof(host));
  void* pinned = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&pinned, 64));
  std::memset(pinned, 0x5A, 64);
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&ev));

  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  aclmdlRI info_model = reinterpret_cast<aclmdlRI>(0x1);
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, &info_model));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(info_model, nullptr);

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtMemcpyAsync(Dev(0), 64, pinned, 64,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(64), 64, 0x11, 64, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Count, &calls));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(128), 77, 0, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, stream_));

  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, &info_model));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(info_model, nullptr);
  // Either output alone may be NULL, not both.
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRICaptureGetInfo(stream_, nullptr, nullptr));
  // Another stream is not capturing.
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  aclmdlRI other_model = reinterpret_cast<aclmdlRI>(0x1);
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(other, &st, &other_model));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(other_model, nullptr);

  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  EXPECT_EQ(model, info_model);
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, &info_model));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(info_model, nullptr);

  // Nothing ran at capture time.
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(Read(dev_, 136), std::vector<uint8_t>(136, 0));

  for (int i = 0; i < 3; ++i)
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(Read(Dev(0), 64), std::vector<uint8_t>(64, 0x5A));
  EXPECT_EQ(Read(Dev(64), 64), std::vector<uint8_t>(64, 0x11));
  EXPECT_EQ(ReadU64(Dev(128)), 77u);
  // The recorded event completed with the executions.
  ASSERT_ACL_OK(aclrtSynchronizeEvent(ev));
  aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(ev, &es));
  EXPECT_EQ(es, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  // Executing on another stream works too.
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  EXPECT_EQ(calls.load(), 4);

  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtFreeHost(pinned));
}

TEST_F(ModelApiTest, IdsAndNames) {
  aclmdlRI a = nullptr, b = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&a, 0));
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&b, 0));
  uint32_t ia = 0, ib = 0;
  ASSERT_ACL_OK(aclmdlRIGetId(a, &ia));
  ASSERT_ACL_OK(aclmdlRIGetId(b, &ib));
  EXPECT_NE(ia, ib);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(a, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(nullptr, &ia));

  char name[32];
  std::memset(name, 'x', sizeof(name));
  ASSERT_ACL_OK(aclmdlRIGetName(a, sizeof(name), name));
  EXPECT_STREQ(name, "");
  ASSERT_ACL_OK(aclmdlRISetName(a, "first"));
  ASSERT_ACL_OK(aclmdlRISetName(a, "graph-one"));
  ASSERT_ACL_OK(aclmdlRIGetName(a, sizeof(name), name));
  EXPECT_STREQ(name, "graph-one");
  char small[4];
  ASSERT_ACL_OK(aclmdlRIGetName(a, sizeof(small), small));
  EXPECT_STREQ(small, "gra");
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetName(a, 0, name));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(a, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(a, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(nullptr, "x"));
  ASSERT_ACL_OK(aclmdlRIDestroy(a));
  ASSERT_ACL_OK(aclmdlRIDestroy(b));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(a));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(nullptr));
}

// --- 2. Fork and join -------------------------------------------------------

// aclmdlRIDestroy of a model its capture still records into is refused with
// ACL_ERROR_RT_MODEL_CAPTURED, as CANN's runtime does (15 model running
// instance management; 25-01 aclError lists 107026), and the capture goes
// on exactly as it was.
TEST_F(ModelApiTest, DestroyRefusesAModelStillBeingCaptured) {
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 4, 0x11, 4, stream_));
  aclmdlRI info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIDestroy(info));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, nullptr));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(4), 4, 0x22, 4, stream_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  EXPECT_EQ(model, info);
  // Both captured tasks replay: nothing of the capture was lost.
  ASSERT_ACL_OK(aclrtMemset(dev_, 8, 0, 8));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(dev_, 8), (std::vector<uint8_t>{0x11, 0x11, 0x11, 0x11, 0x22,
                                                 0x22, 0x22, 0x22}));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelApiTest, ForkJoinCaptureRunsBothStreamsInOrder) {
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  aclrtEvent e1 = nullptr, e2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  ASSERT_ACL_OK(aclrtCreateEvent(&e2));
  Log log;
  Mark a{&log, 'a'}, b{&log, 'b'}, c{&log, 'c'};

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, AddMark, &a));
  ASSERT_ACL_OK(aclrtRecordEvent(e1, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, e1));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI joined = nullptr, origin = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &st, &joined));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &origin));
  EXPECT_EQ(joined, origin);
  ASSERT_ACL_OK(aclrtLaunchHostFunc(side, AddMark, &b));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 16, 0x22, 16, side));
  ASSERT_ACL_OK(aclrtRecordEvent(e2, side));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, e2));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, AddMark, &c));
  aclmdlRI model = nullptr;
  // Only the origin stream ends the capture.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                   aclmdlRICaptureEnd(side, &model));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &st, nullptr));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(log.Get(), "");

  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(log.Get(), "abcabc");
  EXPECT_EQ(Read(dev_, 16), std::vector<uint8_t>(16, 0x22));
  // The side stream is an ordinary stream again.
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(16), 4, 0x33, 4, side));
  ASSERT_ACL_OK(aclrtSynchronizeStream(side));
  EXPECT_EQ(Read(Dev(16), 4), std::vector<uint8_t>(4, 0x33));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelApiTest, UnjoinedSideStreamFailsCaptureEnd) {
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  aclrtEvent e1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(e1, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, e1));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 16, 0x22, 16, side));
  aclmdlRI model = nullptr, info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_UNJOINED,
                   aclmdlRICaptureEnd(stream_, &model));
  EXPECT_EQ(model, nullptr);
  // The capture is torn down: its model is gone and both streams work.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(info));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &st, nullptr));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 4, 0x44, 4, side));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(4), 4, 0x55, 4, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(side));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(dev_, 8), (std::vector<uint8_t>{0x44, 0x44, 0x44, 0x44, 0x55,
                                                 0x55, 0x55, 0x55}));
  // And both can capture again.
  ASSERT_ACL_OK(aclmdlRICaptureBegin(side, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(side, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelApiTest, CaptureEndFromAnotherThreadOnlyWhenRelaxed) {
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  aclError ret = 0;
  aclmdlRI model = nullptr, info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  std::thread([&] {
    (void)aclrtSetCurrentContext(ctx);
    ret = aclmdlRICaptureEnd(stream_, &model);
  }).join();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, ret);
  // As in CANN, the refused end still exits the capture; the model stays
  // until destroyed.
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, nullptr));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(info));
  // THREAD_LOCAL, ended elsewhere: the beginning thread may make
  // synchronous calls again afterwards.
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                   aclrtMemset(dev_, 16, 1, 16));
  std::thread([&] {
    (void)aclrtSetCurrentContext(ctx);
    ret = aclmdlRICaptureEnd(stream_, &model);
  }).join();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, ret);
  EXPECT_ACL_OK(aclrtMemset(dev_, 16, 1, 16));
  ASSERT_ACL_OK(aclmdlRIDestroy(info));

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  model = nullptr;
  std::thread([&] {
    (void)aclrtSetCurrentContext(ctx);
    ret = aclmdlRICaptureEnd(stream_, &model);
  }).join();
  EXPECT_ACL_OK(ret);
  ASSERT_NE(model, nullptr);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// --- 3. Calls illegal during capture; capture modes; external events ---------

TEST_F(ModelApiTest, CapturingStreamRefusesSyncQueryDestroyExecute) {
  aclmdlRI built = nullptr;
  aclrtStream p = NewPersistent();
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&built, 0));
  ASSERT_ACL_OK(aclmdlRIBindStream(built, p, kHead));
  ASSERT_ACL_OK(aclmdlRIEndTask(built, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(built, nullptr));

  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_STREAM_CAPTURED,
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclrtSynchronizeStream(stream_));
  aclrtStreamStatus ss = ACL_STREAM_STATUS_RESERVED;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclrtStreamQuery(stream_, &ss));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED, aclrtDestroyStream(stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclmdlRIExecuteAsync(built, stream_));
  // Rejections do not invalidate the capture.
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 4, 0x66, 4, stream_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(dev_, 4), std::vector<uint8_t>(4, 0x66));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclmdlRIDestroy(built));
  ASSERT_ACL_OK(aclrtDestroyStream(stream_));
}

TEST_F(ModelApiTest, BadCaptureMode) {
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclmdlRICaptureBegin(stream_, static_cast<aclmdlRICaptureMode>(3)));
  aclmdlRICaptureMode m = static_cast<aclmdlRICaptureMode>(7);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRICaptureThreadExchangeMode(&m));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRICaptureThreadExchangeMode(nullptr));
}

// What a synchronous memset answers on the calling thread and on another
// thread while `stream` captures in `mode`.
struct ModeVerdict {
  aclError here;
  aclError other;
};

TEST_F(ModelApiTest, CaptureModesGateSynchronousCalls) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  auto probe = [&](aclmdlRICaptureMode mode) {
    EXPECT_ACL_OK(aclmdlRICaptureBegin(stream_, mode));
    ModeVerdict v{};
    v.here = aclrtMemset(dev_, 16, 1, 16);
    uint8_t buf[16] = {};
    aclError copy_here =
        aclrtMemcpy(buf, 16, dev_, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    EXPECT_EQ(copy_here, v.here);
    std::thread([&] {
      (void)aclrtSetCurrentContext(ctx);
      v.other = aclrtMemset(dev_, 16, 2, 16);
    }).join();
    aclmdlRI model = nullptr;
    EXPECT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
    return v;
  };
  ModeVerdict global = probe(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, global.here);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, global.other);
  ModeVerdict local = probe(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, local.here);
  EXPECT_ACL_OK(local.other);
  ModeVerdict relaxed = probe(ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  EXPECT_ACL_OK(relaxed.here);
  EXPECT_ACL_OK(relaxed.other);
  // With no capture, everything is allowed.
  EXPECT_ACL_OK(aclrtMemset(dev_, 16, 3, 16));

  // model_ri/0: the capturing thread switches itself to RELAXED.
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRICaptureMode m = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&m));
  EXPECT_EQ(m, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  EXPECT_ACL_OK(aclrtMemset(dev_, 16, 4, 16));
  ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&m));
  EXPECT_EQ(m, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                   aclrtMemset(dev_, 16, 5, 16));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  EXPECT_EQ(Read(dev_, 16), std::vector<uint8_t>(16, 4));
}

// 15, aclmdlRICaptureBegin `mode`: an async copy with host memory that is
// not page-locked is one of the unsafe calls the modes gate, like
// aclrtMemcpy; from aclrtMallocHost memory it is safe (and is captured).
TEST_F(ModelApiTest, CaptureModesGateAsyncCopiesOfPageableMemory) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  void* pinned = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&pinned, 16));
  std::vector<uint8_t> pageable(16, 7);
  auto probe = [&](aclmdlRICaptureMode mode) {
    EXPECT_ACL_OK(aclmdlRICaptureBegin(stream_, mode));
    ModeVerdict v{};
    v.here = aclrtMemcpyAsync(dev_, 16, pageable.data(), 16,
                              ACL_MEMCPY_HOST_TO_DEVICE, stream_);
    EXPECT_EQ(aclrtMemcpyAsync(pageable.data(), 16, dev_, 16,
                               ACL_MEMCPY_DEVICE_TO_HOST, side),
              v.here);
    EXPECT_ACL_OK(aclrtMemcpyAsync(dev_, 16, pinned, 16,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    std::thread([&] {
      (void)aclrtSetCurrentContext(ctx);
      v.other = aclrtMemcpyAsync(dev_, 16, pageable.data(), 16,
                                 ACL_MEMCPY_HOST_TO_DEVICE, side);
    }).join();
    aclmdlRI model = nullptr;
    EXPECT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
    EXPECT_ACL_OK(aclmdlRIDestroy(model));
    EXPECT_ACL_OK(aclrtSynchronizeStream(side));
    return v;
  };
  ModeVerdict global = probe(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, global.here);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, global.other);
  ModeVerdict local = probe(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, local.here);
  EXPECT_ACL_OK(local.other);
  ModeVerdict relaxed = probe(ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  EXPECT_ACL_OK(relaxed.here);
  EXPECT_ACL_OK(relaxed.other);
  ASSERT_ACL_OK(aclrtFreeHost(pinned));
  ASSERT_ACL_OK(aclrtDestroyStream(side));
}

// A capture abandoned by destroying its model or resetting the device is
// undone completely: later captures gate synchronous calls by their own
// modes only.
TEST_F(ModelApiTest, AbandonedCapturesLeaveNoModeBehind) {
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  aclrtEvent e1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(aclrtRecordEvent(e1, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, e1));
  aclmdlRI info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  // Destroying the model is refused while it is captured; a failed end
  // (the side stream never joined back) abandons the capture instead.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIDestroy(info));
  aclmdlRI ended = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_UNJOINED,
                   aclmdlRICaptureEnd(stream_, &ended));
  EXPECT_ACL_OK(aclrtMemset(dev_, 16, 1, 16));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &st, nullptr));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

  // The same through a device reset, in both modes that gate this thread.
  for (aclmdlRICaptureMode mode : {ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
                                   ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL}) {
    ASSERT_ACL_OK(aclmdlRICaptureBegin(stream_, mode));
    ASSERT_ACL_OK(aclrtRecordEvent(e1, stream_));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(side, e1));
    ASSERT_ACL_OK(aclrtResetDeviceForce(0));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateStream(&side));
    ASSERT_ACL_OK(aclrtCreateEvent(&e1));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(
        aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    EXPECT_ACL_OK(aclrtMemset(dev_, 16, 2, 16)) << mode;
    aclmdlRI model = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
    ASSERT_ACL_OK(aclmdlRIDestroy(model));
  }
}

TEST_F(ModelApiTest, WaitsOnEventsRecordedOutsideTheCapture) {
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  aclrtEvent outside = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&outside));
  ASSERT_ACL_OK(aclrtRecordEvent(outside, other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                   aclrtStreamWaitEvent(stream_, outside));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));

  // model_ri/1's pattern: an ACL_EVENT_EXTERNAL event waited in the model
  // gates each execution until recorded outside, after the enqueue.
  aclrtEvent ext = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&ext, ACL_EVENT_EXTERNAL));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  // 07: the EXTERNAL flags take only aclrtCreateEventExWithFlag(SYNC) events
  // (and the refused call still fixes its event's wait flag: another event).
  aclrtEvent other_ext = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&other_ext, ACL_EVENT_EXTERNAL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEventWithFlag(stream_, other_ext, 0,
                                                ACL_EVENT_WAIT_EXTERNAL));
  ASSERT_ACL_OK(aclrtDestroyEvent(other_ext));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, ext));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 9, 0, stream_));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  // Not set yet: the model waits.
  aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtStreamQuery(stream_, &ss));
  EXPECT_EQ(ss, ACL_STREAM_STATUS_NOT_READY);
  EXPECT_EQ(ReadU64(dev_), 0u);
  ASSERT_ACL_OK(aclrtRecordEvent(ext, other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(dev_), 9u);
  // 15, aclmdlRIAbort constraints: not for a captured model.
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 1, 0, stream_));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIAbort(model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// Blocks a stream (a host function) until the test opens it.
struct Gate {
  std::atomic<bool> open{false};
  static void Wait(void* arg) {
    auto* gate = static_cast<Gate*>(arg);
    while (!gate->open.load()) std::this_thread::yield();
  }
};

// 07 (aclrtStreamWaitEventWithFlag, ACL_EVENT_WAIT_EXTERNAL; model_ri/4
// scenario 1): each execution waits for the record issued last before it,
// not for one an earlier execution already saw.
TEST_F(ModelApiTest, ExternalWaitWaitsForTheLatestRecordAtEachExecution) {
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(
      aclrtStreamWaitEventWithFlag(stream_, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Count, &counted_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));

  ASSERT_ACL_OK(aclrtRecordEvent(ev, other));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(counted_.load(), 1);

  // A second record, held back on its stream: the second execution waits
  // for it, although the first record is long complete.
  Gate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(other, &Gate::Wait, &gate));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, other));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtStreamQuery(stream_, &ss));
  EXPECT_EQ(ss, ACL_STREAM_STATUS_NOT_READY);
  EXPECT_EQ(counted_.load(), 1);
  gate.open = true;
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(counted_.load(), 2);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtDestroyEvent(ev));
  ASSERT_ACL_OK(aclrtDestroyStream(other));
}

// 07 (the EXTERNAL flags: "graph and graph synchronisation"; model_ri/4
// scenario 3): a producer model's external record orders a consumer model
// executed after it on another stream.
TEST_F(ModelApiTest, ExternalRecordAndWaitOrderTwoModels) {
  aclrtStream s1 = nullptr;
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
  Gate gate;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s1, &Gate::Wait, &gate));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 5, 0, s1));
  ASSERT_ACL_OK(aclrtRecordEventWithFlag(ev, s1, ACL_EVENT_RECORD_EXTERNAL));
  aclmdlRI producer = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &producer));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(
      aclrtStreamWaitEventWithFlag(s2, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(Dev(8), 8, Dev(0), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  aclmdlRI consumer = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s2, &consumer));

  for (uint64_t round = 1; round <= 2; ++round) {
    gate.open = false;
    ASSERT_ACL_OK(aclrtMemset(dev_, 16, 0, 16));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(producer, s1));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(consumer, s2));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
    ASSERT_ACL_OK(aclrtStreamQuery(s2, &ss));
    EXPECT_EQ(ss, ACL_STREAM_STATUS_NOT_READY) << "round " << round;
    gate.open = true;
    ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
    EXPECT_EQ(ReadU64(Dev(8)), 5u) << "round " << round;
    ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  }
  ASSERT_ACL_OK(aclmdlRIDestroy(consumer));
  ASSERT_ACL_OK(aclmdlRIDestroy(producer));
  ASSERT_ACL_OK(aclrtDestroyEvent(ev));
  ASSERT_ACL_OK(aclrtDestroyStream(s1));
  ASSERT_ACL_OK(aclrtDestroyStream(s2));
}

// 07 (aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag,
// constraints): the first call with a flag fixes the event's record (wait)
// flag at the entry, whatever it returns; the other flag is refused after.
TEST_F(ModelApiTest, TheFirstFlaggedCallFixesTheEventsFlag) {
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
  // Refused (no stream is captured), yet it fixes EXTERNAL for records.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_STREAM_NOT_CAPTURED,
      aclrtRecordEventWithFlag(ev, other, ACL_EVENT_RECORD_EXTERNAL));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtRecordEventWithFlag(ev, other, ACL_EVENT_RECORD_DEFAULT));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordEvent(ev, other));
  // The wait flag is separate: DEFAULT fixed by a successful wait.
  ASSERT_ACL_OK(
      aclrtStreamWaitEventWithFlag(other, ev, 0, ACL_EVENT_WAIT_DEFAULT));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(other, ev));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtStreamWaitEventWithFlag(stream_, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
  // EXTERNAL records in the capture are what this event records now.
  ASSERT_ACL_OK(
      aclrtRecordEventWithFlag(ev, stream_, ACL_EVENT_RECORD_EXTERNAL));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));

  // A flag value outside the two fixes nothing.
  aclrtEvent fresh = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&fresh, ACL_EVENT_SYNC));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtRecordEventWithFlag(fresh, other, 7));
  ASSERT_ACL_OK(aclrtRecordEventWithFlag(fresh, other, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  ASSERT_ACL_OK(aclrtDestroyEvent(fresh));
  ASSERT_ACL_OK(aclrtDestroyEvent(ev));
  ASSERT_ACL_OK(aclrtDestroyStream(other));
}

// 07 (aclrtRecordEventWithFlag and aclrtStreamWaitEventWithFlag,
// constraints): in one graph an event has one ACL_EVENT_RECORD_EXTERNAL
// record or one ACL_EVENT_WAIT_EXTERNAL wait. A second is refused with
// 107000 and records nothing; the capture goes on; another graph (or
// another event) may have its own.
TEST_F(ModelApiTest, AnEventHasOneExternalRecordOrWaitPerGraph) {
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  aclrtEvent rec = nullptr;
  aclrtEvent waited = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&rec, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&waited, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(
      aclrtRecordEventWithFlag(rec, stream_, ACL_EVENT_RECORD_EXTERNAL));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtRecordEventWithFlag(rec, stream_, ACL_EVENT_RECORD_EXTERNAL));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(stream_, waited, 0,
                                             ACL_EVENT_WAIT_EXTERNAL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtStreamWaitEventWithFlag(stream_, waited, 0,
                                                ACL_EVENT_WAIT_EXTERNAL));
  // Nor one of each for the same event.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtStreamWaitEventWithFlag(stream_, rec, 0, ACL_EVENT_WAIT_EXTERNAL));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtRecordEventWithFlag(waited, stream_, ACL_EVENT_RECORD_EXTERNAL));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, &info));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  // Two tasks were recorded, not four.
  aclrtStream streams[4] = {};
  uint32_t num_streams = 4;
  ASSERT_ACL_OK(aclmdlRIGetStreams(model, streams, &num_streams));
  ASSERT_EQ(num_streams, 1u);
  uint32_t count = 0;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(streams[0], nullptr, &count));
  EXPECT_EQ(count, 2u);
  // Another graph has its own: the same event records externally there.
  ASSERT_ACL_OK(aclmdlRICaptureBegin(side, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEventWithFlag(rec, side, ACL_EVENT_RECORD_EXTERNAL));
  aclmdlRI second = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(side, &second));
  ASSERT_ACL_OK(aclmdlRIDestroy(second));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtDestroyEvent(rec));
  ASSERT_ACL_OK(aclrtDestroyEvent(waited));
  ASSERT_ACL_OK(aclrtDestroyStream(side));
}

// 06 (aclrtStreamAbort and aclrtStreamStop, constraints): a stream bound to
// a model runtime instance with aclmdlRIBindStream is not supported: 107000,
// while the model is built and after, and the model keeps its tasks.
// Unbound, the stream may be stopped and aborted again.
TEST_F(ModelApiTest, StreamAbortAndStopRefuseAStreamBoundToAModel) {
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  aclrtStream p = NewPersistent();
  ASSERT_ACL_OK(aclmdlRIBindStream(model, p, kHead));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 6, 0, p));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamAbort(p));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamStop(p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamAbort(p));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamStop(p));
  ASSERT_ACL_OK(aclmdlRIExecute(model, -1));
  EXPECT_EQ(ReadU64(Dev(0)), 6u);
  ASSERT_ACL_OK(aclmdlRIUnbindStream(model, p));
  ASSERT_ACL_OK(aclrtStreamStop(p));
  ASSERT_ACL_OK(aclrtStreamAbort(p));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  // An ordinary stream and a captured one's stream are not bound.
  ASSERT_ACL_OK(aclrtStreamStop(stream_));
  ASSERT_ACL_OK(aclrtStreamAbort(stream_));
  ASSERT_ACL_OK(aclrtDestroyStream(p));
}

// 07 (aclrtCreateEventExWithFlag, ACL_EVENT_IPC: not in capture scenarios):
// an IPC event is neither recorded nor waited for on a capturing stream.
TEST_F(ModelApiTest, AnIpcEventStaysOutOfCaptures) {
  aclrtEvent ipc = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtRecordEvent(ipc, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtStreamWaitEvent(stream_, ipc));
  // The capture goes on, unharmed.
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI info = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, &st, &info));
  EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  // Outside a capture it records as before.
  ASSERT_ACL_OK(aclrtRecordEvent(ipc, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyEvent(ipc));
}

// --- 4. Task groups and their update (model_ri/1) ----------------------------
//
// CANN allows only single-operator kernels in a task group; the simulator
// records whatever the group's tasks are, and this test uses value writes:
// each replacement must be a task of the same type.

TEST_F(ModelApiTest, TaskGroupUpdateReplacesTheGroupsTask) {
  aclrtStream update = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&update));
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   aclmdlRICaptureTaskGrpBegin(stream_));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  aclrtTaskGrp grp = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   aclmdlRICaptureTaskGrpEnd(stream_, &grp));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 1, 0, stream_));  // task A
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, ev));
  ASSERT_ACL_OK(aclrtResetEvent(ev, stream_));
  ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   aclmdlRICaptureTaskGrpBegin(stream_));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 100, 0, stream_));  // task B
  ASSERT_ACL_OK(aclmdlRICaptureTaskGrpEnd(stream_, &grp));
  ASSERT_NE(grp, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclmdlRICaptureTaskUpdateBegin(stream_, grp));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));

  // First execution: waits for the external event.
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(0)), 1u);
  EXPECT_EQ(ReadU64(Dev(8)), 100u);

  // Replace task B's value, then run again.
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 200, 0, update));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(update));
  // The update issued no work of its own.
  EXPECT_EQ(ReadU64(Dev(8)), 100u);
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(8)), 200u);

  // Count and type mismatches.
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   aclmdlRICaptureTaskUpdateBegin(update, grp));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INTERNAL_ERROR,
                   aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(8), 8, 0, 8, update));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                   aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(update));
  // The failed updates changed nothing and ran nothing.
  EXPECT_EQ(ReadU64(Dev(8)), 200u);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// --- 5. The build API, labels, stream switch and activation
// -------------------

TEST_F(ModelApiTest, LabelSwitchTakesTheIndexedBranch) {
  // label/0 with observable branches: the head stream reads an index and
  // jumps to label 0 (writes 10) or label 1 (writes 11); both end the stream.
  aclrtStream p = NewPersistent();
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  ASSERT_ACL_OK(aclmdlRIBindStream(model, p, kHead));
  aclrtLabel labels[2] = {nullptr, nullptr};
  ASSERT_ACL_OK(aclrtCreateLabel(&labels[0]));
  ASSERT_ACL_OK(aclrtCreateLabel(&labels[1]));
  aclrtLabelList list = nullptr;
  ASSERT_ACL_OK(aclrtCreateLabelList(labels, 2, &list));
  void* index = Dev(256);
  ASSERT_ACL_OK(aclrtSwitchLabelByIndex(index, 2, list, p));
  ASSERT_ACL_OK(aclrtSetLabel(labels[0], p));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 10, 0, p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  ASSERT_ACL_OK(aclrtSetLabel(labels[1], p));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 11, 0, p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));

  auto run = [&](uint32_t idx) {
    uint32_t v = idx;
    EXPECT_ACL_OK(aclrtMemcpy(index, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    WriteU64(Dev(0), 0);
    EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
    return ReadU64(Dev(0));
  };
  EXPECT_EQ(run(0), 10u);
  EXPECT_EQ(run(1), 11u);
  EXPECT_EQ(run(7), 11u);  // out of range: the last label
  EXPECT_EQ(run(0), 10u);

  ASSERT_ACL_OK(aclmdlRIUnbindStream(model, p));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtDestroyLabelList(list));
  ASSERT_ACL_OK(aclrtDestroyLabel(labels[0]));
  ASSERT_ACL_OK(aclrtDestroyLabel(labels[1]));
  ASSERT_ACL_OK(aclrtDestroyStream(p));
}

TEST_F(ModelApiTest, SwitchStreamAndActiveStream) {
  // head: switch (left cond right) -> true stream writes 1; otherwise the
  // head activates `act`, which writes 2.
  aclrtStream head = NewPersistent();
  aclrtStream yes = NewPersistent();
  aclrtStream act = NewPersistent();
  for (int dt = 0; dt < 2; ++dt) {
    aclmdlRI model = nullptr;
    void* left = Dev(512);
    void* right = Dev(520);
    for (int cond = ACL_RT_EQUAL; cond <= ACL_RT_LESS_OR_EQUAL; ++cond) {
      ASSERT_ACL_OK(aclrtPersistentTaskClean(head));
      ASSERT_ACL_OK(aclrtPersistentTaskClean(yes));
      ASSERT_ACL_OK(aclrtPersistentTaskClean(act));
      ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
      ASSERT_ACL_OK(aclmdlRIBindStream(model, head, kHead));
      ASSERT_ACL_OK(aclmdlRIBindStream(model, yes, kDefault));
      ASSERT_ACL_OK(aclmdlRIBindStream(model, act, kDefault));
      ASSERT_ACL_OK(aclrtSwitchStream(
          left, static_cast<aclrtCondition>(cond), right,
          static_cast<aclrtCompareDataType>(dt), yes, nullptr, head));
      ASSERT_ACL_OK(aclrtActiveStream(act, head));
      ASSERT_ACL_OK(aclmdlRIEndTask(model, head));
      ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 1, 0, yes));
      ASSERT_ACL_OK(aclmdlRIEndTask(model, yes));
      ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 2, 0, act));
      ASSERT_ACL_OK(aclmdlRIEndTask(model, act));
      ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
      // Values compared: left -1/5/9 against right 5, as int32 or int64 (a
      // negative left shows the comparison is signed).
      for (int64_t l : {int64_t{-1}, int64_t{5}, int64_t{9}}) {
        int64_t r = 5;
        if (dt == ACL_RT_SWITCH_INT32) {
          int32_t l32 = static_cast<int32_t>(l), r32 = 5;
          // Garbage in the high halves must not matter for int32.
          WriteU64(left, 0xABCD000000000000ULL);
          WriteU64(right, 0x1234000000000000ULL);
          ASSERT_ACL_OK(
              aclrtMemcpy(left, 4, &l32, 4, ACL_MEMCPY_HOST_TO_DEVICE));
          ASSERT_ACL_OK(
              aclrtMemcpy(right, 4, &r32, 4, ACL_MEMCPY_HOST_TO_DEVICE));
        } else {
          WriteU64(left, static_cast<uint64_t>(l));
          WriteU64(right, static_cast<uint64_t>(r));
        }
        bool truth = false;
        switch (cond) {
          case ACL_RT_EQUAL:
            truth = l == r;
            break;
          case ACL_RT_NOT_EQUAL:
            truth = l != r;
            break;
          case ACL_RT_GREATER:
            truth = l > r;
            break;
          case ACL_RT_GREATER_OR_EQUAL:
            truth = l >= r;
            break;
          case ACL_RT_LESS:
            truth = l < r;
            break;
          case ACL_RT_LESS_OR_EQUAL:
            truth = l <= r;
            break;
        }
        WriteU64(Dev(0), 0);
        ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
        ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
        EXPECT_EQ(ReadU64(Dev(0)), truth ? 1u : 2u)
            << "dataType " << dt << " cond " << cond << " left " << l;
      }
      ASSERT_ACL_OK(aclmdlRIDestroy(model));
    }
  }
}

TEST_F(ModelApiTest, SwitchStreamRejectsBadArguments) {
  aclrtStream p = NewPersistent();
  aclrtStream t = NewPersistent();
  void* l = Dev(0);
  void* r = Dev(8);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSwitchStream(nullptr, ACL_RT_EQUAL, r,
                                     ACL_RT_SWITCH_INT32, t, nullptr, p));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtSwitchStream(l, ACL_RT_EQUAL, r, ACL_RT_SWITCH_INT32, t, t, p));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSwitchStream(l, static_cast<aclrtCondition>(6), r,
                                     ACL_RT_SWITCH_INT32, t, nullptr, p));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtSwitchStream(l, ACL_RT_EQUAL, r,
                        static_cast<aclrtCompareDataType>(2), t, nullptr, p));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtActiveStream(nullptr, p));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtActiveStream(t, nullptr));
}

TEST_F(ModelApiTest, BuildApiErrors) {
  aclmdlRI model = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBuildBegin(&model, 1));
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  aclrtStream p = NewPersistent();
  // An ordinary stream cannot be bound.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIBindStream(model, stream_, kHead));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(model, p, 5));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRIBindStream(nullptr, p, kHead));
  aclrtLabel label = nullptr;
  ASSERT_ACL_OK(aclrtCreateLabel(&label));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_MODEL, aclrtSetLabel(label, p));
  ASSERT_ACL_OK(aclmdlRIBindStream(model, p, kHead));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_MODEL,
                   aclmdlRIBindStream(model, p, kHead));
  aclmdlRI second = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&second, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_MODEL,
                   aclmdlRIBindStream(second, p, kHead));
  ASSERT_ACL_OK(aclmdlRIDestroy(second));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 3, 0, p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  // Recorded, not run.
  EXPECT_EQ(ReadU64(Dev(0)), 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_EXECUTE,
                   aclmdlRIExecuteAsync(model, stream_));
  int reserve = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(model, &reserve));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(model, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(model, -2));
  ASSERT_ACL_OK(aclmdlRIExecute(model, -1));
  EXPECT_EQ(ReadU64(Dev(0)), 3u);
  WriteU64(Dev(0), 0);
  ASSERT_ACL_OK(aclmdlRIExecute(model, 5000));
  EXPECT_EQ(ReadU64(Dev(0)), 3u);

  aclrtLabelList list = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCreateLabelList(&label, 0, &list));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateLabel(nullptr));

  // A capture model is not run by aclmdlRIExecute.
  aclmdlRI captured = nullptr;
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &captured));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(captured, -1));
  ASSERT_ACL_OK(aclmdlRIDestroy(captured));

  ASSERT_ACL_OK(aclmdlRIUnbindStream(model, p));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  // PersistentTaskClean empties a persistent stream for a new model.
  ASSERT_ACL_OK(aclrtPersistentTaskClean(p));
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  ASSERT_ACL_OK(aclmdlRIBindStream(model, p, kHead));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 4, 0, p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  WriteU64(Dev(0), 0);
  ASSERT_ACL_OK(aclmdlRIExecute(model, -1));
  EXPECT_EQ(ReadU64(Dev(0)), 0u);
  EXPECT_EQ(ReadU64(Dev(8)), 4u);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelApiTest, ExecuteTimesOutAndAborts) {
  std::atomic<int> started{0};
  aclrtStream p = NewPersistent();
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  ASSERT_ACL_OK(aclmdlRIBindStream(model, p, kHead));
  // Waits for a value nobody writes, then writes 5.
  ASSERT_ACL_OK(aclrtLaunchHostFunc(p, Count, &started));
  ASSERT_ACL_OK(aclrtValueWait(Dev(0), 1, ACL_STREAM_WAIT_VALUE_EQ, p));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 5, 0, p));
  ASSERT_ACL_OK(aclmdlRIEndTask(model, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(model, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclmdlRIExecute(model, 50));
  // Aborted: setting the value later does not resume it.
  ReleaseU64(Dev(0), 1);
  // The timeout was reported by aclmdlRIExecute; the device has no further
  // failure to report.
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(ReadU64(Dev(8)), 0u);
  // It runs again when executed again.
  ASSERT_ACL_OK(aclmdlRIExecute(model, 5000));
  EXPECT_EQ(ReadU64(Dev(8)), 5u);

  // aclmdlRIAbort stops an asynchronous execution.
  WriteU64(Dev(0), 0);
  WriteU64(Dev(8), 0);
  started = 0;
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  // Abort once the model runs (it is blocked in its value wait then).
  while (started.load() == 0) std::this_thread::yield();
  ASSERT_ACL_OK(aclmdlRIAbort(model));
  // The execution ends as aborted (507023 ACL_ERROR_RT_MODEL_ABORT_NORMAL;
  // CANN's code for an aborted model, by its name).
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                   aclrtSynchronizeStream(stream_));
  (void)aclrtSynchronizeDevice();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  ReleaseU64(Dev(0), 1);
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(ReadU64(Dev(8)), 0u);
  // An abort also stops an execution still queued behind other work (it
  // used to be lost: the execution cleared it when it started).
  WriteU64(Dev(0), 0);
  WriteU64(Dev(8), 0);
  WriteU64(Dev(32), 0);
  ASSERT_ACL_OK(aclrtValueWait(Dev(32), 1, ACL_STREAM_WAIT_VALUE_EQ, stream_));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclmdlRIAbort(model));
  ReleaseU64(Dev(0), 1);
  ReleaseU64(Dev(32), 1);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                   aclrtSynchronizeStream(stream_));
  (void)aclrtSynchronizeDevice();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(ReadU64(Dev(8)), 0u);
  // And a later execution runs.
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(8)), 5u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAbort(nullptr));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// --- 6. Conditional tasks ---------------------------------------------------

TEST_F(ModelApiTest, ConditionalIfWhileSwitch) {
  aclrtStream sub = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&sub));
  std::atomic<int> loops{0};

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &model));
  // IF: value reset to 1 per launch (ASSIGN_DEFAULT) unless overwritten.
  aclmdlRICondHandle if_h = nullptr, while_h = nullptr, sw_h = nullptr;
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(
      model, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &if_h));
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(
      model, 3, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &while_h));
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(
      model, 0, static_cast<aclmdlRICondHandleFlag>(0), &sw_h));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclmdlRICondHandleCreate(model, 0, static_cast<aclmdlRICondHandleFlag>(2),
                               &sw_h));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclmdlRICondHandleCreate(
          model, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, nullptr));
  uint64_t* if_ptr = nullptr;
  uint64_t* while_ptr = nullptr;
  uint64_t* sw_ptr = nullptr;
  ASSERT_ACL_OK(aclmdlRICondHandleGetCondPtr(if_h, &if_ptr));
  ASSERT_ACL_OK(aclmdlRICondHandleGetCondPtr(while_h, &while_ptr));
  ASSERT_ACL_OK(aclmdlRICondHandleGetCondPtr(sw_h, &sw_ptr));
  ASSERT_NE(if_ptr, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRICondHandleGetCondPtr(if_h, nullptr));

  aclmdlRI if_subs[2] = {nullptr, nullptr};
  aclmdlRICondTaskParams ifp{if_h, ACL_MODEL_RI_COND_TYPE_IF, 2, if_subs};
  ASSERT_ACL_OK(aclmdlRIAddCondTask(ifp, stream_, 0));
  aclmdlRI while_sub[1] = {nullptr};
  aclmdlRICondTaskParams wp{while_h, ACL_MODEL_RI_COND_TYPE_WHILE, 1,
                            while_sub};
  ASSERT_ACL_OK(aclmdlRIAddCondTask(wp, stream_, 0));
  aclmdlRI sw_subs[3] = {nullptr, nullptr, nullptr};
  aclmdlRICondTaskParams sp{sw_h, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, sw_subs};
  ASSERT_ACL_OK(aclmdlRIAddCondTask(sp, stream_, 0));
  aclmdlRICondTaskParams bad = sp;
  bad.type = static_cast<aclmdlRICondTaskType>(3);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIAddCondTask(bad, stream_, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIAddCondTask(sp, stream_, 1));
  bad = sp;
  bad.modelRIArray = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIAddCondTask(bad, stream_, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRIAddCondTask(sp, nullptr, 0));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));

  // Fill the sub-models. IF: then writes 1 at 0, else writes 2 at 0.
  auto fill = [&](aclmdlRI sub_model, auto&& body) {
    ASSERT_ACL_OK(aclmdlRICaptureToModelRIBegin(
        sub, sub_model, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    body();
    aclmdlRI out = nullptr;
    ASSERT_ACL_OK(aclmdlRICaptureEnd(sub, &out));
  };
  fill(if_subs[0], [&] { ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 1, 0, sub)); });
  fill(if_subs[1], [&] { ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 2, 0, sub)); });
  // WHILE: counts and decrements its value.
  fill(while_sub[0], [&] {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(sub, Count, &loops));
    ASSERT_ACL_OK(aclrtLaunchHostFunc(sub, Decrement, while_ptr));
  });
  for (uint64_t i = 0; i < 3; ++i) {
    fill(sw_subs[i],
         [&] { ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 100 + i, 0, sub)); });
  }
  // A sub-model is captured once.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_CAPTURED,
                   aclmdlRICaptureToModelRIBegin(
                       sub, if_subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  // And only a sub-model.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRICaptureToModelRIBegin(
                       sub, model, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));

  WriteU64(sw_ptr, 2);
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(0)), 1u);
  EXPECT_EQ(loops.load(), 3);
  EXPECT_EQ(ReadU64(while_ptr), 0u);
  EXPECT_EQ(ReadU64(Dev(8)), 102u);

  // IF's value is reset to its default each launch, so writing 0 now is
  // overwritten; SWITCH's (no ASSIGN_DEFAULT) keeps what is written.
  WriteU64(if_ptr, 0);
  WriteU64(sw_ptr, 0);
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(0)), 1u);
  EXPECT_EQ(loops.load(), 6);
  EXPECT_EQ(ReadU64(Dev(8)), 100u);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(nullptr));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// --- 7. Queries, parameter updates, debug output, destroy callbacks
// -----------

void CountDestroy(void* arg) {
  static_cast<std::atomic<int>*>(arg)->fetch_add(1);
}

TEST_F(ModelApiTest, TaskQueriesAndUpdates) {
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&ev));
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, ev));
  ASSERT_ACL_OK(aclrtResetEvent(ev, stream_));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(0), 41, 0, stream_));
  ASSERT_ACL_OK(aclrtValueWait(Dev(0), 41, ACL_STREAM_WAIT_VALUE_EQ, stream_));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 7, 0, stream_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));

  uint32_t n = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIGetStreams(model, nullptr, nullptr));
  ASSERT_ACL_OK(aclmdlRIGetStreams(model, nullptr, &n));
  ASSERT_EQ(n, 1u);
  std::vector<aclrtStream> streams(n);
  uint32_t zero = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                   aclmdlRIGetStreams(model, streams.data(), &zero));
  ASSERT_ACL_OK(aclmdlRIGetStreams(model, streams.data(), &n));
  uint32_t nt = 0;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(streams[0], nullptr, &nt));
  ASSERT_EQ(nt, 6u);
  std::vector<aclmdlRITask> tasks(nt);
  uint32_t few = 2;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                   aclmdlRIGetTasksByStream(streams[0], tasks.data(), &few));
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(streams[0], tasks.data(), &nt));
  const aclmdlRITaskType want[] = {
      ACL_MODEL_RI_TASK_EVENT_RECORD, ACL_MODEL_RI_TASK_EVENT_WAIT,
      ACL_MODEL_RI_TASK_EVENT_RESET,  ACL_MODEL_RI_TASK_VALUE_WRITE,
      ACL_MODEL_RI_TASK_VALUE_WAIT,   ACL_MODEL_RI_TASK_VALUE_WRITE};
  uint32_t last_id = 0;
  for (uint32_t i = 0; i < nt; ++i) {
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    ASSERT_ACL_OK(aclmdlRITaskGetType(tasks[i], &type));
    EXPECT_EQ(type, want[i]) << i;
    uint32_t id = 0;
    ASSERT_ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &id));
    if (i > 0) {
      EXPECT_GT(id, last_id);
    }
    last_id = id;
    aclmdlRITaskParams params;
    std::memset(&params, 0, sizeof(params));
    ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[i], &params));
    EXPECT_EQ(params.type, want[i]);
  }
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRITaskGetType(tasks[0], nullptr));
  aclmdlRITaskParams params;
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[0], &params));
  EXPECT_EQ(params.eventRecordTaskParams.event, ev);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[1], &params));
  EXPECT_EQ(params.eventWaitTaskParams.event, ev);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[2], &params));
  EXPECT_EQ(params.eventResetTaskParams.event, ev);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[4], &params));
  EXPECT_EQ(params.valueWaitTaskParams.devAddr, Dev(0));
  EXPECT_EQ(params.valueWaitTaskParams.value, 41u);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[5], &params));
  EXPECT_EQ(params.valueWriteTaskParams.devAddr, Dev(8));
  EXPECT_EQ(params.valueWriteTaskParams.value, 7u);
  aclrtLaunchKernelAttrValue attr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIKernelTaskGetAttribute(
                       tasks[5], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &attr));

  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(8)), 7u);

  // A new value, applied by aclmdlRIUpdate.
  params.valueWriteTaskParams.value = 8;
  ASSERT_ACL_OK(aclmdlRITaskSetParams(tasks[5], &params));
  ASSERT_ACL_OK(aclmdlRIUpdate(model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(8)), 8u);
  // Disabled: skipped.
  WriteU64(Dev(8), 0);
  ASSERT_ACL_OK(aclmdlRITaskDisable(tasks[5]));
  ASSERT_ACL_OK(aclmdlRIUpdate(model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(ReadU64(Dev(8)), 0u);

  // Debug output.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_ACL_OK(aclmdlRIDebugPrint(model));
#pragma GCC diagnostic pop
  std::string path = ::testing::TempDir() + "/model_debug.json";
  ASSERT_ACL_OK(aclmdlRIDebugJsonPrint(model, path.c_str(),
                                       ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string json = text.str();
  nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << json;
  EXPECT_NE(json.find("VALUE_WRITE"), std::string::npos) << json;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRIDebugJsonPrint(model, nullptr, 0));

  // Destroy callbacks: run once; unregistered ones not at all.
  std::atomic<int> kept{0}, dropped{0};
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(model, CountDestroy, &kept));
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(model, Count, &dropped));
  ASSERT_ACL_OK(aclmdlRIDestroyUnregisterCallback(model, Count));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIDestroyRegisterCallback(model, nullptr, &kept));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  EXPECT_EQ(kept.load(), 1);
  EXPECT_EQ(dropped.load(), 0);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(model));
  EXPECT_EQ(kept.load(), 1);
}

// A kernel in a task group (CANN's rule: only single-operator kernels may
// be), replaced by an update with other arguments; and the kernel task's
// queries.
TEST_F(ModelApiTest, KernelTaskGroupUpdateAndQueries) {
  aclrtBinHandle bin = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(g_kernels.c_str(), nullptr, &bin));
  aclrtFuncHandle vadd = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin, "vadd", &vadd));
  constexpr uint32_t kN = 64;
  float* x = reinterpret_cast<float*>(Dev(0));
  float* y = reinterpret_cast<float*>(Dev(kN * 4));
  float* z1 = reinterpret_cast<float*>(Dev(2 * kN * 4));
  float* z2 = reinterpret_cast<float*>(Dev(3 * kN * 4));
  std::vector<float> hx(kN), hy(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = static_cast<float>(2 * i);
  }
  ASSERT_ACL_OK(
      aclrtMemcpy(x, kN * 4, hx.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(
      aclrtMemcpy(y, kN * 4, hy.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  auto read = [&](const float* p) {
    std::vector<float> v(kN);
    EXPECT_ACL_OK(
        aclrtMemcpy(v.data(), kN * 4, p, kN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  };
  std::vector<float> zero(kN, 0.0f), sum(kN);
  for (uint32_t i = 0; i < kN; ++i) sum[i] = static_cast<float>(3 * i);

  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(stream_));
  VaddArgs args{x, y, z1, kN};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(vadd, 4, stream_, nullptr, &args,
                                              sizeof args, nullptr, 0));
  aclrtTaskGrp grp = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureTaskGrpEnd(stream_, &grp));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  EXPECT_EQ(read(z1), zero);

  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(read(z1), sum);

  // Queries of the kernel task.
  uint32_t n = 1;
  aclrtStream ms = nullptr;
  ASSERT_ACL_OK(aclmdlRIGetStreams(model, &ms, &n));
  aclmdlRITask task = nullptr;
  uint32_t nt = 1;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(ms, &task, &nt));
  ASSERT_EQ(nt, 1u);
  aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
  ASSERT_ACL_OK(aclmdlRITaskGetType(task, &type));
  EXPECT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
  aclmdlRITaskParams params;
  std::memset(&params, 0, sizeof(params));
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &params));
  EXPECT_EQ(params.type, ACL_MODEL_RI_TASK_KERNEL);
  EXPECT_EQ(params.kernelTaskParams.funcHandle, vadd);
  EXPECT_EQ(params.kernelTaskParams.numBlocks, 4u);
  EXPECT_EQ(params.kernelTaskParams.argsSize, sizeof args);
  aclrtLaunchKernelAttrValue value;
  std::memset(&value, 0, sizeof(value));
  EXPECT_ACL_OK(aclmdlRIKernelTaskGetAttribute(
      task, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIKernelTaskGetAttribute(
                       task, ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &value));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRIKernelTaskGetAttribute(
                       task, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, nullptr));

  // The update: the same kernel writing z2.
  aclrtStream update = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&update));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  VaddArgs args2{x, y, z2, kN};
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(vadd, 2, update, nullptr, &args2,
                                              sizeof args2, nullptr, 0));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclrtSynchronizeStream(update));
  EXPECT_EQ(read(z2), zero);  // the update ran no kernel
  ASSERT_ACL_OK(aclrtMemset(z1, kN * 4, 0, kN * 4));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(read(z2), sum);
  EXPECT_EQ(read(z1), zero);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(task, &params));
  EXPECT_EQ(params.kernelTaskParams.numBlocks, 2u);

  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(bin));
}

// The remaining error codes of the family (runtime/model/model.h; CANN's
// codes).
TEST_F(ModelApiTest, MoreErrorCodes) {
  aclrtEvent ev = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&ev));
  aclrtStream side = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&side));
  // A stream joined to a capture cannot begin its own.
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(ev, stream_));
  // An event recorded in a capture is not synchronised or queried.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_CAPTURED, aclrtSynchronizeEvent(ev));
  aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEventStatus(ev, &es));
  float ms = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_CAPTURED,
                   aclrtEventElapsedTime(&ms, ev, ev));
  // Another event is not part of the capture.
  aclrtEvent free_event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&free_event));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(free_event));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, ev));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_STREAM_CAPTURED,
      aclmdlRICaptureBegin(side, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  aclrtEvent back = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&back));
  ASSERT_ACL_OK(aclrtRecordEvent(back, side));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, back));
  // A task group still open fails the end, and the model is gone.
  ASSERT_ACL_OK(aclmdlRICaptureTaskGrpBegin(stream_));
  aclmdlRI info = nullptr, model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   aclmdlRICaptureEnd(stream_, &model));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(info));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   aclmdlRICaptureEnd(stream_, &model));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRICaptureEnd(stream_, nullptr));
  // Once the capture is over the event is an ordinary one again.
  EXPECT_ACL_OK(aclrtSynchronizeEvent(ev));

  // Capture models refuse the build API; built ones the capture-only calls.
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  aclmdlRICondHandle cond = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(stream_, nullptr, &info));
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(
      info, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
  aclmdlRI subs[1] = {nullptr};
  aclmdlRICondTaskParams ifp{cond, ACL_MODEL_RI_COND_TYPE_IF, 1, subs};
  ASSERT_ACL_OK(aclmdlRIAddCondTask(ifp, stream_, 0));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  // Not on a stream that is not capturing.
  aclmdlRI subs2[1] = {nullptr};
  aclmdlRICondTaskParams ifp2{cond, ACL_MODEL_RI_COND_TYPE_IF, 1, subs2};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   aclmdlRIAddCondTask(ifp2, stream_, 0));
  aclrtStream p = NewPersistent();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIEndTask(model, p));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclmdlRIBuildEnd(model, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIUnbindStream(model, p));
  // Sub-models live and die with their parent.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIDestroy(subs[0]));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIAbort(subs[0]));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIUpdate(subs[0]));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclmdlRIDestroyRegisterCallback(subs[0], CountDestroyCb, nullptr));
  uint32_t n = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclmdlRIGetStreams(subs[0], nullptr, &n));
  // An IF whose branch was never captured fails the execution.
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_EXECUTE, aclrtSynchronizeStream(stream_));
  (void)aclrtSynchronizeDevice();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  ASSERT_ACL_OK(aclmdlRIDestroy(model));

  aclmdlRI built = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&built, 0));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclmdlRICondHandleCreate(built, 0,
                               ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_MODEL, aclmdlRIUnbindStream(built, p));
  ASSERT_ACL_OK(aclmdlRIBindStream(built, p, kHead));
  // A model-bound stream neither captures nor updates task groups.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclmdlRICaptureBegin(p, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIEndTask(built, nullptr));
  ASSERT_ACL_OK(aclmdlRIEndTask(built, p));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(built, nullptr));
  std::string bad_path = "/nonexistent-dir/x/model.json";
  EXPECT_NE(0, aclmdlRIDebugJsonPrint(built, bad_path.c_str(), 0));
  ASSERT_ACL_OK(aclmdlRIDestroy(built));
}

// Destroying a model while an execution of it is blocked: the execution
// ends, nothing crashes, and the stream works afterwards.
TEST_F(ModelApiTest, DestroyWhileExecuting) {
  std::atomic<int> started{0};
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Count, &started));
  ASSERT_ACL_OK(aclrtValueWait(Dev(0), 1, ACL_STREAM_WAIT_VALUE_EQ, stream_));
  ASSERT_ACL_OK(aclrtValueWrite(Dev(8), 5, 0, stream_));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, stream_));
  while (started.load() == 0) std::this_thread::yield();
  // The simulator destroys it at once (CANN may answer 107037 instead; not
  // traced) and the execution stops without running the rest.
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ReleaseU64(Dev(0), 1);
  EXPECT_NE(0, aclrtSynchronizeStream(stream_));
  (void)aclrtSynchronizeDevice();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(ReadU64(Dev(8)), 0u);
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(16), 4, 1, 4, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(Dev(16), 4), std::vector<uint8_t>(4, 1));
}

// One captured model executed from two threads on two streams at once:
// executions of a model take turns, and each runs every task once.
TEST_F(ModelApiTest, ConcurrentExecutionsFromTwoThreads) {
  std::atomic<int> calls{0};
  ASSERT_ACL_OK(
      aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Count, &calls));
  ASSERT_ACL_OK(aclrtMemsetAsync(Dev(0), 64, 0x7E, 64, stream_));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Count, &calls));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &model));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  constexpr int kRuns = 20;
  std::atomic<int> failures{0};
  auto worker = [&] {
    if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) ++failures;
    aclrtStream s = nullptr;
    if (aclrtCreateStream(&s) != ACL_SUCCESS) {
      ++failures;
      return;
    }
    for (int i = 0; i < kRuns; ++i) {
      if (aclmdlRIExecuteAsync(model, s) != ACL_SUCCESS) ++failures;
      // A capture status query meanwhile (frameworks' allocators ask).
      aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
      if (aclmdlRICaptureGetInfo(s, &st, nullptr) != ACL_SUCCESS ||
          st != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
        ++failures;
      }
    }
    if (aclrtSynchronizeStream(s) != ACL_SUCCESS) ++failures;
    if (aclrtDestroyStream(s) != ACL_SUCCESS) ++failures;
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(calls.load(), 2 * 2 * kRuns);
  EXPECT_EQ(Read(dev_, 64), std::vector<uint8_t>(64, 0x7E));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

TEST_F(ModelApiTest, UpdateOfABuiltModelIsNotSupported) {
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&model, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIUpdate(model));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIUpdate(nullptr));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
}

// A stream of device 1 captured while device 0 is current: the model's
// runners belong to device 1, so resetting device 0 does not touch it, and it
// replays on device 1.
TEST_F(ModelApiTest, CaptureOfAnotherDevicesStreamRunsOnThatDevice) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  if (count < 2) GTEST_SKIP() << "needs two simulated devices";
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream s1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  void* buf = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtSetDevice(0));  // current again: device 0

  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf, 64, 0x5A, 64, s1));
  aclmdlRI model = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &model));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));

  // Device 0 goes away and comes back; the model (device 1) is unaffected.
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtMemset(buf, 64, 0, 64));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(model, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_EQ(Read(buf, 64), std::vector<uint8_t>(64, 0x5A));
  ASSERT_ACL_OK(aclmdlRIDestroy(model));
  ASSERT_ACL_OK(aclrtFree(buf));
  ASSERT_ACL_OK(aclrtDestroyStream(s1));
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
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
