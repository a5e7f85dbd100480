// A batch copy of 1,000 small buffers (64 B .. 4 KiB, host to device, and
// device to host) through aclrtMemcpyBatch / aclrtMemcpyBatchAsync, each
// against the same 1,000 copies issued one by one with aclrtMemcpy /
// aclrtMemcpyAsync, measured in the same iterations (alternating, so both see
// the same machine state). The device-to-device pair compares
// aclrtMemcpyAsync one by one with the same copies as 1,000 rows of one
// aclrtMemcpy2dAsync (a batch copies host to device or device to host only).
//
//   bazel run -c opt //acl/api:memcpy_batch_benchmark
//
// Counters: ratio_vs_one_by_one = one-by-one time / batch time (> 1: the
// batch is cheaper); one_by_one_us is the baseline's time per 1,000 copies.
// The async variants include the stream synchronize, so both sides pay for
// the copies themselves. RT_MEMCPY_BATCH_BENCHMARK_COPIES overrides the
// number of copies (the smoke test uses a few). Exits non-zero when a
// benchmark reports an error.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr size_t kSlot = 4096;

size_t Copies() {
  const char* n = std::getenv("RT_MEMCPY_BATCH_BENCHMARK_COPIES");
  const long value = n != nullptr ? std::strtol(n, nullptr, 10) : 0;
  return static_cast<size_t>(value > 0 ? value : 1000);
}

// Copy i moves sizes[i] bytes (64 B .. 4 KiB) between slot i of a page-locked
// host buffer and slot i of a device buffer (and of a second device buffer).
struct Setup {
  size_t copies = 0;
  aclrtStream stream = nullptr;
  unsigned char* host = nullptr;
  unsigned char* device_a = nullptr;
  unsigned char* device_b = nullptr;
  std::vector<size_t> sizes;
  std::vector<void*> h2d_dsts, h2d_srcs, d2h_dsts, d2h_srcs;
  std::string error;
};

Setup* MakeSetup() {
  auto* s = new Setup;
  s->copies = Copies();
  const size_t bytes = s->copies * kSlot;
  aclError ret = aclrtSetDevice(0);
  if (ret == ACL_SUCCESS) ret = aclrtCreateStream(&s->stream);
  void* p = nullptr;
  if (ret == ACL_SUCCESS) ret = aclrtMallocHost(&p, bytes);
  s->host = static_cast<unsigned char*>(p);
  if (ret == ACL_SUCCESS)
    ret = aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  s->device_a = static_cast<unsigned char*>(p);
  if (ret == ACL_SUCCESS)
    ret = aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  s->device_b = static_cast<unsigned char*>(p);
  if (ret == ACL_SUCCESS) ret = aclrtMemset(s->device_a, bytes, 1, bytes);
  if (ret == ACL_SUCCESS) ret = aclrtMemset(s->device_b, bytes, 2, bytes);
  if (ret != ACL_SUCCESS) {
    s->error = "setup failed with ACL error " + std::to_string(ret);
    return s;
  }
  for (size_t i = 0; i < bytes; ++i) {
    s->host[i] = static_cast<unsigned char>(i * 131 + (i >> 12));
  }
  for (size_t i = 0; i < s->copies; ++i) {
    // 64, 128, ... 4096 bytes, cycling.
    s->sizes.push_back(size_t{64} << (i % 7));
    s->h2d_dsts.push_back(s->device_a + i * kSlot);
    s->h2d_srcs.push_back(s->host + i * kSlot);
    s->d2h_dsts.push_back(s->host + i * kSlot);
    s->d2h_srcs.push_back(s->device_a + i * kSlot);
  }
  return s;
}

Setup& GetSetup() {
  static Setup* const setup = MakeSetup();
  return *setup;
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

aclrtMemcpyBatchAttr Attr(bool to_device) {
  aclrtMemcpyBatchAttr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.dstLoc.type =
      to_device ? ACL_MEM_LOCATION_TYPE_DEVICE : ACL_MEM_LOCATION_TYPE_HOST;
  attr.srcLoc.type =
      to_device ? ACL_MEM_LOCATION_TYPE_HOST : ACL_MEM_LOCATION_TYPE_DEVICE;
  return attr;
}

// Each iteration: the batch form (timed, manual time), then the one-by-one
// form of the same copies (timed separately).
template <typename Batch, typename OneByOne>
void RunAgainstOneByOne(benchmark::State& state, Batch batch,
                        OneByOne one_by_one) {
  Setup& s = GetSetup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  double batch_seconds = 0;
  double single_seconds = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    aclError ret = batch(s);
    const Clock::time_point batched = Clock::now();
    if (ret == ACL_SUCCESS) ret = one_by_one(s);
    const Clock::time_point done = Clock::now();
    if (ret != ACL_SUCCESS) {
      state.SkipWithError(
          ("copy failed with ACL error " + std::to_string(ret)).c_str());
      break;
    }
    batch_seconds += Seconds(batched - start);
    single_seconds += Seconds(done - batched);
    state.SetIterationTime(Seconds(batched - start));
  }
  if (batch_seconds > 0) {
    state.counters["ratio_vs_one_by_one"] = single_seconds / batch_seconds;
    state.counters["one_by_one_us"] =
        single_seconds / static_cast<double>(state.iterations()) * 1e6;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(s.copies));
}

aclError Batch(Setup& s, bool to_device, bool async) {
  aclrtMemcpyBatchAttr attr = Attr(to_device);
  size_t zero = 0;
  size_t fail = 0;
  std::vector<void*>& dsts = to_device ? s.h2d_dsts : s.d2h_dsts;
  std::vector<void*>& srcs = to_device ? s.h2d_srcs : s.d2h_srcs;
  if (!async) {
    return aclrtMemcpyBatch(dsts.data(), s.sizes.data(), srcs.data(),
                            s.sizes.data(), s.copies, &attr, &zero, 1, &fail);
  }
  const aclError ret = aclrtMemcpyBatchAsync(
      dsts.data(), s.sizes.data(), srcs.data(), s.sizes.data(), s.copies, &attr,
      &zero, 1, &fail, s.stream);
  return ret != ACL_SUCCESS ? ret : aclrtSynchronizeStream(s.stream);
}

aclError OneByOne(Setup& s, bool to_device, bool async) {
  const std::vector<void*>& dsts = to_device ? s.h2d_dsts : s.d2h_dsts;
  const std::vector<void*>& srcs = to_device ? s.h2d_srcs : s.d2h_srcs;
  const aclrtMemcpyKind kind =
      to_device ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST;
  for (size_t i = 0; i < s.copies; ++i) {
    const aclError ret =
        async ? aclrtMemcpyAsync(dsts[i], s.sizes[i], srcs[i], s.sizes[i], kind,
                                 s.stream)
              : aclrtMemcpy(dsts[i], s.sizes[i], srcs[i], s.sizes[i], kind);
    if (ret != ACL_SUCCESS) return ret;
  }
  return async ? aclrtSynchronizeStream(s.stream) : ACL_SUCCESS;
}

void BM_BatchHostToDevice(benchmark::State& state) {
  RunAgainstOneByOne(
      state, [](Setup& s) { return Batch(s, true, false); },
      [](Setup& s) { return OneByOne(s, true, false); });
}

void BM_BatchDeviceToHost(benchmark::State& state) {
  RunAgainstOneByOne(
      state, [](Setup& s) { return Batch(s, false, false); },
      [](Setup& s) { return OneByOne(s, false, false); });
}

void BM_BatchAsyncHostToDevice(benchmark::State& state) {
  RunAgainstOneByOne(
      state, [](Setup& s) { return Batch(s, true, true); },
      [](Setup& s) { return OneByOne(s, true, true); });
}

void BM_BatchAsyncDeviceToHost(benchmark::State& state) {
  RunAgainstOneByOne(
      state, [](Setup& s) { return Batch(s, false, true); },
      [](Setup& s) { return OneByOne(s, false, true); });
}

// Device to device: 1,000 rows of kSlot pitch as one 2-D task, against 1,000
// aclrtMemcpyAsync calls of the same rows (a fixed 1 KiB each, since a 2-D
// copy has one width).
void BM_Rows2dAsyncDeviceToDevice(benchmark::State& state) {
  constexpr size_t kWidth = 1024;
  RunAgainstOneByOne(
      state,
      [](Setup& s) {
        const aclError ret =
            aclrtMemcpy2dAsync(s.device_b, kSlot, s.device_a, kSlot, kWidth,
                               s.copies, ACL_MEMCPY_DEVICE_TO_DEVICE, s.stream);
        return ret != ACL_SUCCESS ? ret : aclrtSynchronizeStream(s.stream);
      },
      [](Setup& s) {
        for (size_t i = 0; i < s.copies; ++i) {
          const aclError ret = aclrtMemcpyAsync(
              s.device_b + i * kSlot, kWidth, s.device_a + i * kSlot, kWidth,
              ACL_MEMCPY_DEVICE_TO_DEVICE, s.stream);
          if (ret != ACL_SUCCESS) return ret;
        }
        return aclrtSynchronizeStream(s.stream);
      });
}

BENCHMARK(BM_BatchHostToDevice)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchDeviceToHost)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchAsyncHostToDevice)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchAsyncDeviceToHost)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rows2dAsyncDeviceToDevice)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
