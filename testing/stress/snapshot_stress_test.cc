// Stress: worker threads hammer the runtime on three devices while a
// controller thread loops Lock -> Backup -> (memory loss) -> Restore ->
// Unlock. Checks, exactly:
//  * every worker buffer holds what the worker's host shadow says, after
//    every snapshot cycle (workers verify their own buffers in their own
//    loop; device writes and memory losses never race with a verification
//    because verifying copies pass the API gate);
//  * every host function launched ran exactly once (no lost or duplicated
//    work), both by a host-side count and by the counter it increments in
//    device memory;
//  * stream and notify ids never change; stage callbacks run once per open
//    device with the right state visible;
//  * no deadlock (a watchdog aborts with the stuck thread's last call);
//  * no leak: each device's free memory returns to its start value.
//
// Environment: STRESS_SECONDS (default 8), STRESS_SEED (default: time),
// STRESS_WATCHDOG_SECONDS (default 30).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/fault_injection/snapshot_fixture.h"

namespace {

using ::ascend::testing::ProcessState;
using Clock = std::chrono::steady_clock;

constexpr int kDevices = 3;
constexpr int kWorkers = 6;
constexpr int kMaxBuffersPerWorker = 10;
constexpr int kMaxStreamsPerDevice = 3;

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed <= 0) return fallback;
  return static_cast<int>(parsed);
}

// --- Failure reporting from any thread
// ----------------------------------------

std::atomic<bool> g_failed{false};
std::atomic<bool> g_stop{false};
std::mutex g_report_mu;
int g_reports = 0;

void Fail(const std::string& what) {
  g_failed.store(true);
  g_stop.store(true);
  std::lock_guard<std::mutex> lock(g_report_mu);
  if (++g_reports <= 20) ADD_FAILURE() << what;
}

// Runs an ACL call that must succeed; on failure records it and returns
// false from the enclosing bool function.
#define STRESS_OK(expr)                                                     \
  do {                                                                      \
    const aclError stress_rc_ = (expr);                                     \
    if (stress_rc_ != ACL_SUCCESS) {                                        \
      const char* stress_msg_ = aclGetRecentErrMsg();                       \
      Fail(std::string(#expr) + " returned " + std::to_string(stress_rc_) + \
           ": " + (stress_msg_ ? stress_msg_ : ""));                        \
      return false;                                                         \
    }                                                                       \
  } while (false)

// --- Watchdog
// -----------------------------------------------------------------

struct Heartbeat {
  std::atomic<int64_t> at_ns{0};
  std::atomic<const char*> doing{"starting"};
  void Beat(const char* what) {
    doing.store(what, std::memory_order_relaxed);
    at_ns.store(Clock::now().time_since_epoch().count(),
                std::memory_order_relaxed);
  }
};

// [0, kWorkers): workers; kWorkers: controller.
std::array<Heartbeat, kWorkers + 1> g_heartbeats;

void Watchdog(std::atomic<bool>* done, int limit_seconds) {
  const int64_t limit_ns = int64_t{limit_seconds} * 1000000000;
  while (!done->load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int64_t now = Clock::now().time_since_epoch().count();
    for (size_t i = 0; i < g_heartbeats.size(); ++i) {
      const int64_t at = g_heartbeats[i].at_ns.load();
      if (at != 0 && now - at > limit_ns && !done->load()) {
        std::fprintf(stderr,
                     "\nstress watchdog: %s %zu made no progress for %d s "
                     "(process state %d). Last call of every thread:\n",
                     i == kWorkers ? "controller" : "worker", i, limit_seconds,
                     ProcessState());
        for (size_t j = 0; j < g_heartbeats.size(); ++j) {
          std::fprintf(stderr, "  %s %zu: %s, %.1f s ago\n",
                       j == kWorkers ? "controller" : "worker", j,
                       g_heartbeats[j].doing.load(),
                       (now - g_heartbeats[j].at_ns.load()) / 1e9);
        }
        std::fprintf(stderr, "stress watchdog: deadlock, aborting\n");
        std::fflush(stderr);
        std::abort();
      }
    }
  }
}

// --- Statistics
// -----------------------------------------------------------------

std::atomic<uint64_t> g_calls{0};
std::atomic<uint64_t> g_bytes_verified{0};
std::atomic<uint64_t> g_verifications{0};
std::atomic<uint64_t> g_host_funcs_launched{0};
std::atomic<uint64_t> g_host_funcs_run{0};
// Completed controller cycles; workers re-verify everything when it moves.
std::atomic<uint64_t> g_cycles{0};

// --- Stage callbacks
// --------------------------------------------------------------

struct StageCounters {
  std::array<std::atomic<uint64_t>, 6> calls{};
  std::array<std::array<std::atomic<uint64_t>, kDevices>, 6> per_device{};
  std::atomic<uint64_t> wrong_state{0};
  std::atomic<uint64_t> wrong_device{0};
};
StageCounters g_stages;

template <int kStage>
uint32_t CountStage(int32_t device, void*) {
  g_stages.calls[kStage].fetch_add(1);
  if (device < 0 || device >= kDevices) {
    g_stages.wrong_device.fetch_add(1);
  } else {
    g_stages.per_device[kStage][device].fetch_add(1);
  }
  // The state each stage must see (GetState works inside callbacks).
  const int32_t state = ProcessState();
  int32_t expected = RT_PROCESS_STATE_RUNNING;
  switch (kStage) {
    case ACL_RT_SNAPSHOT_LOCK_PRE:
    case ACL_RT_SNAPSHOT_UNLOCK_POST:
      expected = RT_PROCESS_STATE_RUNNING;
      break;
    case ACL_RT_SNAPSHOT_BACKUP_PRE:
    case ACL_RT_SNAPSHOT_BACKUP_POST:
      expected = RT_PROCESS_STATE_LOCKED;
      break;
    default:
      expected = RT_PROCESS_STATE_BACKED_UP;
      break;
  }
  if (state != expected) g_stages.wrong_state.fetch_add(1);
  return 0;
}

const std::array<aclrtSnapShotCallBack, 6> kStageCallbacks = {
    &CountStage<0>, &CountStage<1>, &CountStage<2>,
    &CountStage<3>, &CountStage<4>, &CountStage<5>};

// --- Host functions
// ---------------------------------------------------------------

// Increments a 64-bit counter in (host-addressable) simulated device memory.
struct CounterArgs {
  void* device_counter = nullptr;
  std::atomic<uint64_t> runs{0};
};

void IncrementCounter(void* p) {
  auto* args = static_cast<CounterArgs*>(p);
  uint64_t value = 0;
  std::memcpy(&value, args->device_counter, sizeof(value));
  ++value;
  std::memcpy(args->device_counter, &value, sizeof(value));
  args->runs.fetch_add(1);
  g_host_funcs_run.fetch_add(1);
}

// --- Worker
// -------------------------------------------------------------------------

struct Buffer {
  int device = 0;
  uint8_t* ptr = nullptr;
  size_t size = 0;
  std::vector<uint8_t> shadow;
  // The stream whose queued work touches the buffer and has not been waited
  // for; null when none. All queued work on a buffer is on this one stream,
  // so its final contents are exactly the shadow.
  aclrtStream pending = nullptr;
  // Counter buffers (8 bytes) are only changed by IncrementCounter.
  std::unique_ptr<CounterArgs> counter;
  uint64_t launched = 0;
};

struct StreamInfo {
  aclrtStream handle = nullptr;
  int32_t id = -1;
  // Recorded only on this stream, so its records complete in order.
  aclrtEvent event = nullptr;
  // Host memory queued async copies read or write; kept until a sync.
  std::vector<std::unique_ptr<std::vector<uint8_t>>> staging;
  // Device-to-host copies to check once the stream has drained.
  struct Readback {
    const std::vector<uint8_t>* landed;
    std::vector<uint8_t> expected;
  };
  std::vector<Readback> readbacks;
};

class Worker {
 public:
  Worker(int index, uint64_t seed) : index_(index), rng_(seed) {}

  // Runs until g_stop; returns with every resource released.
  void Run() {
    Heartbeat& hb = g_heartbeats[index_];
    hb.Beat("setup");
    if (!Setup()) return;
    uint64_t verified_cycle = g_cycles.load();
    while (!g_stop.load()) {
      const uint64_t cycle = g_cycles.load();
      if (cycle != verified_cycle) {
        hb.Beat("verify all");
        if (!VerifyAll()) break;
        verified_cycle = cycle;
      }
      if (!Step(hb)) break;
      ++ops_;
    }
    hb.Beat("final verify");
    if (!g_failed.load()) VerifyAll();
    hb.Beat("teardown");
    Teardown();
    hb.Beat("done");
    hb.at_ns.store(0);  // finished: the watchdog stops looking
  }

  uint64_t ops() const { return ops_; }

 private:
  int Rand(int n) {
    return static_cast<int>(rng_() % static_cast<uint64_t>(n));
  }
  size_t RandSize(size_t lo, size_t hi) {
    return lo + static_cast<size_t>(rng_() % (hi - lo + 1));
  }
  void Call() { g_calls.fetch_add(1, std::memory_order_relaxed); }

  bool UseDevice(int device) {
    Call();
    STRESS_OK(aclrtSetCurrentContext(contexts_[device]));
    return true;
  }

  bool Setup() {
    for (int d = 0; d < kDevices; ++d) {
      Call();
      STRESS_OK(aclrtSetDevice(d));
      Call();
      STRESS_OK(aclrtGetCurrentContext(&contexts_[d]));
      if (!CreateStream(d)) return false;
      Call();
      STRESS_OK(aclrtCreateNotify(&notifies_[d], 0));
      Call();
      STRESS_OK(aclrtGetNotifyId(notifies_[d], &notify_ids_[d]));
    }
    return true;
  }

  void Teardown() {
    // Best effort after a failure; exact otherwise (checked by the caller
    // through the free-memory comparison).
    SyncAll();
    for (Buffer& b : buffers_) {
      (void)aclrtSetCurrentContext(contexts_[b.device]);
      if (aclrtFree(b.ptr) != 0) Fail("aclrtFree in teardown failed");
      Call();
    }
    buffers_.clear();
    for (int d = 0; d < kDevices; ++d) {
      if (contexts_[d] == nullptr) continue;
      (void)aclrtSetCurrentContext(contexts_[d]);
      for (StreamInfo& s : streams_[d]) {
        if (aclrtDestroyStream(s.handle) != 0) Fail("aclrtDestroyStream");
        if (aclrtDestroyEvent(s.event) != 0) Fail("aclrtDestroyEvent");
        g_calls.fetch_add(2, std::memory_order_relaxed);
      }
      streams_[d].clear();
      if (notifies_[d] && aclrtDestroyNotify(notifies_[d]) != 0) {
        Fail("aclrtDestroyNotify");
      }
      if (aclrtResetDevice(d) != 0) Fail("aclrtResetDevice");
      g_calls.fetch_add(2, std::memory_order_relaxed);
    }
  }

  bool CreateStream(int d) {
    if (!UseDevice(d)) return false;
    StreamInfo s;
    Call();
    STRESS_OK(aclrtCreateStream(&s.handle));
    Call();
    STRESS_OK(aclrtStreamGetId(s.handle, &s.id));
    Call();
    STRESS_OK(aclrtCreateEvent(&s.event));
    streams_[d].push_back(std::move(s));
    return true;
  }

  StreamInfo* FindStream(aclrtStream handle, int* device = nullptr) {
    for (int d = 0; d < kDevices; ++d) {
      for (StreamInfo& s : streams_[d]) {
        if (s.handle == handle) {
          if (device) *device = d;
          return &s;
        }
      }
    }
    return nullptr;
  }

  // Everything queued on the stream has finished: release staging memory,
  // check read-backs, and mark its buffers settled.
  bool Drained(StreamInfo& s) {
    for (const StreamInfo::Readback& r : s.readbacks) {
      g_bytes_verified.fetch_add(r.expected.size(), std::memory_order_relaxed);
      if (*r.landed != r.expected) {
        Fail("worker " + std::to_string(index_) +
             ": an async device-to-host copy read wrong bytes");
        return false;
      }
    }
    s.readbacks.clear();
    s.staging.clear();
    for (Buffer& b : buffers_) {
      if (b.pending == s.handle) b.pending = nullptr;
    }
    return true;
  }

  bool Sync(aclrtStream handle) {
    StreamInfo* s = FindStream(handle);
    Call();
    STRESS_OK(aclrtSynchronizeStream(handle));
    return Drained(*s);
  }

  bool SyncAll() {
    for (int d = 0; d < kDevices; ++d) {
      for (StreamInfo& s : streams_[d]) {
        Call();
        STRESS_OK(aclrtSynchronizeStream(s.handle));
        if (!Drained(s)) return false;
      }
    }
    return true;
  }

  // Orders every queued access to `b` before what is enqueued next on
  // `stream` (null: before the next synchronous call).
  bool Settle(Buffer& b, aclrtStream stream) {
    if (b.pending == nullptr || b.pending == stream) return true;
    if (stream != nullptr && Rand(2) == 0) {
      // Same device: an event makes `stream` wait for the old one.
      StreamInfo* old = FindStream(b.pending);
      Call();
      STRESS_OK(aclrtRecordEvent(old->event, old->handle));
      Call();
      STRESS_OK(aclrtStreamWaitEvent(stream, old->event));
      b.pending = stream;
      return true;
    }
    return Sync(b.pending);
  }

  Buffer* PickBuffer(bool counter) {
    std::vector<Buffer*> match;
    for (Buffer& b : buffers_) {
      if ((b.counter != nullptr) == counter) match.push_back(&b);
    }
    if (match.empty()) return nullptr;
    return match[Rand(static_cast<int>(match.size()))];
  }

  aclrtStream PickStream(int d) {
    return streams_[d][Rand(static_cast<int>(streams_[d].size()))].handle;
  }

  std::vector<uint8_t> RandomBytes(size_t n) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(rng_());
    return bytes;
  }

  // A random non-empty [offset, offset + len) inside a buffer.
  std::pair<size_t, size_t> Range(const Buffer& b) {
    const size_t offset = Rand(static_cast<int>(b.size));
    const size_t len = RandSize(1, b.size - offset);
    return {offset, len};
  }

  bool Malloc() {
    if (buffers_.size() >= kMaxBuffersPerWorker) return Free();
    const int d = Rand(kDevices);
    if (!UseDevice(d)) return false;
    Buffer b;
    b.device = d;
    const bool counter = Rand(4) == 0;
    const int shape = Rand(10);
    b.size = counter     ? 8
             : shape < 7 ? RandSize(1, 16 << 10)
             : shape < 9 ? RandSize(16 << 10, 300 << 10)
                         : RandSize(300 << 10, 600 << 10);
    void* ptr = nullptr;
    Call();
    STRESS_OK(aclrtMalloc(&ptr, b.size, ACL_MEM_MALLOC_HUGE_FIRST));
    b.ptr = static_cast<uint8_t*>(ptr);
    b.shadow.assign(b.size, 0);  // fresh allocations are zero-filled
    if (counter) {
      b.counter = std::make_unique<CounterArgs>();
      b.counter->device_counter = b.ptr;
    }
    buffers_.push_back(std::move(b));
    return true;
  }

  bool Free() {
    if (buffers_.empty()) return true;
    const size_t i = Rand(static_cast<int>(buffers_.size()));
    Buffer& b = buffers_[i];
    if (!Settle(b, nullptr)) return false;
    if (!Verify(b)) return false;
    if (!UseDevice(b.device)) return false;
    Call();
    STRESS_OK(aclrtFree(b.ptr));
    buffers_.erase(buffers_.begin() + static_cast<ptrdiff_t>(i));
    return true;
  }

  bool Verify(Buffer& b) {
    if (!Settle(b, nullptr)) return false;
    std::vector<uint8_t> back(b.size);
    Call();
    STRESS_OK(aclrtMemcpy(back.data(), back.size(), b.ptr, b.size,
                          ACL_MEMCPY_DEVICE_TO_HOST));
    g_bytes_verified.fetch_add(b.size, std::memory_order_relaxed);
    g_verifications.fetch_add(1, std::memory_order_relaxed);
    if (back != b.shadow) {
      size_t first = 0;
      while (first < b.size && back[first] == b.shadow[first]) ++first;
      Fail("worker " + std::to_string(index_) + ": device " +
           std::to_string(b.device) + " buffer of " + std::to_string(b.size) +
           " bytes differs from its shadow at offset " + std::to_string(first) +
           " (device " + std::to_string(back[first]) + ", expected " +
           std::to_string(b.shadow[first]) + "), cycle " +
           std::to_string(g_cycles.load()));
      return false;
    }
    if (b.counter) {
      // Settled: every launched increment has run, exactly once.
      const uint64_t runs = b.counter->runs.load();
      if (runs != b.launched) {
        Fail("worker " + std::to_string(index_) + ": " +
             std::to_string(b.launched) + " host functions launched, " +
             std::to_string(runs) + " ran");
        return false;
      }
    }
    return true;
  }

  bool VerifyAll() {
    if (!SyncAll()) return false;
    for (Buffer& b : buffers_) {
      if (!Verify(b)) return false;
    }
    // Ids survive every Backup/Restore.
    for (int d = 0; d < kDevices; ++d) {
      for (StreamInfo& s : streams_[d]) {
        int32_t id = -1;
        Call();
        STRESS_OK(aclrtStreamGetId(s.handle, &id));
        if (id != s.id) {
          Fail("stream id changed from " + std::to_string(s.id) + " to " +
               std::to_string(id));
          return false;
        }
      }
      uint32_t nid = 0;
      Call();
      STRESS_OK(aclrtGetNotifyId(notifies_[d], &nid));
      if (nid != notify_ids_[d]) {
        Fail("notify id changed");
        return false;
      }
    }
    return true;
  }

  bool WriteSync() {
    Buffer* b = PickBuffer(false);
    if (b == nullptr) return Malloc();
    if (!Settle(*b, nullptr)) return false;
    const auto [offset, len] = Range(*b);
    std::vector<uint8_t> bytes = RandomBytes(len);
    Call();
    STRESS_OK(aclrtMemcpy(b->ptr + offset, b->size - offset, bytes.data(), len,
                          ACL_MEMCPY_HOST_TO_DEVICE));
    std::memcpy(b->shadow.data() + offset, bytes.data(), len);
    return true;
  }

  bool WriteAsync() {
    Buffer* b = PickBuffer(false);
    if (b == nullptr) return Malloc();
    aclrtStream stream = PickStream(b->device);
    if (!Settle(*b, stream)) return false;
    const auto [offset, len] = Range(*b);
    auto bytes = std::make_unique<std::vector<uint8_t>>(RandomBytes(len));
    Call();
    STRESS_OK(aclrtMemcpyAsync(b->ptr + offset, b->size - offset, bytes->data(),
                               len, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    std::memcpy(b->shadow.data() + offset, bytes->data(), len);
    b->pending = stream;
    FindStream(stream)->staging.push_back(std::move(bytes));
    return true;
  }

  bool ReadAsync() {
    Buffer* b = PickBuffer(Rand(3) == 0);
    if (b == nullptr) return Malloc();
    aclrtStream stream = PickStream(b->device);
    if (!Settle(*b, stream)) return false;
    const auto [offset, len] = Range(*b);
    auto landing = std::make_unique<std::vector<uint8_t>>(len, 0xA5);
    Call();
    STRESS_OK(aclrtMemcpyAsync(landing->data(), len, b->ptr + offset, len,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream));
    b->pending = stream;
    StreamInfo* s = FindStream(stream);
    s->readbacks.push_back(StreamInfo::Readback{
        landing.get(), std::vector<uint8_t>(b->shadow.begin() + offset,
                                            b->shadow.begin() + offset + len)});
    s->staging.push_back(std::move(landing));
    return true;
  }

  // Two different non-counter buffers, on one device when `same_device`.
  std::pair<Buffer*, Buffer*> PickPair(bool same_device) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      Buffer* a = PickBuffer(false);
      Buffer* b = PickBuffer(false);
      if (a == nullptr || b == nullptr || a == b) continue;
      if (same_device != (a->device == b->device)) continue;
      return {a, b};
    }
    return {nullptr, nullptr};
  }

  bool CopyAsyncWithinDevice() {
    auto [dst, src] = PickPair(true);
    if (dst == nullptr) return Malloc();
    aclrtStream stream = PickStream(dst->device);
    if (!Settle(*dst, stream) || !Settle(*src, stream)) return false;
    const size_t len = RandSize(1, std::min(dst->size, src->size));
    const size_t doff = RandSize(0, dst->size - len);
    const size_t soff = RandSize(0, src->size - len);
    Call();
    STRESS_OK(aclrtMemcpyAsync(dst->ptr + doff, dst->size - doff,
                               src->ptr + soff, len,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    std::memmove(dst->shadow.data() + doff, src->shadow.data() + soff, len);
    dst->pending = stream;
    src->pending = stream;
    return true;
  }

  bool CopySyncPeer() {
    auto [dst, src] = PickPair(false);
    if (dst == nullptr) return Malloc();
    if (!Settle(*dst, nullptr) || !Settle(*src, nullptr)) return false;
    const size_t len = RandSize(1, std::min(dst->size, src->size));
    const size_t doff = RandSize(0, dst->size - len);
    const size_t soff = RandSize(0, src->size - len);
    Call();
    STRESS_OK(aclrtMemcpy(dst->ptr + doff, dst->size - doff, src->ptr + soff,
                          len, ACL_MEMCPY_DEVICE_TO_DEVICE));
    std::memmove(dst->shadow.data() + doff, src->shadow.data() + soff, len);
    return true;
  }

  bool Memset(bool async) {
    Buffer* b = PickBuffer(false);
    if (b == nullptr) return Malloc();
    const auto [offset, len] = Range(*b);
    const int value = Rand(256);
    if (async) {
      aclrtStream stream = PickStream(b->device);
      if (!Settle(*b, stream)) return false;
      Call();
      STRESS_OK(aclrtMemsetAsync(b->ptr + offset, b->size - offset, value, len,
                                 stream));
      b->pending = stream;
    } else {
      if (!Settle(*b, nullptr)) return false;
      Call();
      STRESS_OK(aclrtMemset(b->ptr + offset, b->size - offset, value, len));
    }
    std::memset(b->shadow.data() + offset, value, len);
    return true;
  }

  bool HostFunc() {
    Buffer* b = PickBuffer(true);
    if (b == nullptr) return Malloc();
    aclrtStream stream = PickStream(b->device);
    if (!Settle(*b, stream)) return false;
    const int n = 1 + Rand(4);
    for (int i = 0; i < n; ++i) {
      Call();
      STRESS_OK(
          aclrtLaunchHostFunc(stream, &IncrementCounter, b->counter.get()));
      ++b->launched;
      g_host_funcs_launched.fetch_add(1, std::memory_order_relaxed);
      uint64_t value = 0;
      std::memcpy(&value, b->shadow.data(), sizeof(value));
      ++value;
      std::memcpy(b->shadow.data(), &value, sizeof(value));
    }
    b->pending = stream;
    return true;
  }

  bool EventRecordAndSync() {
    const int d = Rand(kDevices);
    StreamInfo& s = streams_[d][Rand(static_cast<int>(streams_[d].size()))];
    Call();
    STRESS_OK(aclrtRecordEvent(s.event, s.handle));
    Call();
    STRESS_OK(aclrtSynchronizeEvent(s.event));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    Call();
    STRESS_OK(aclrtQueryEventStatus(s.event, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
      Fail("event not complete after aclrtSynchronizeEvent");
      return false;
    }
    // This thread is the only one enqueuing on the stream: it has drained.
    return Drained(s);
  }

  bool StreamCreateOrDestroy() {
    const int d = Rand(kDevices);
    if (streams_[d].size() < kMaxStreamsPerDevice &&
        (streams_[d].size() == 1 || Rand(2) == 0)) {
      return CreateStream(d);
    }
    if (streams_[d].size() <= 1) return true;
    const size_t i = Rand(static_cast<int>(streams_[d].size()));
    StreamInfo& s = streams_[d][i];
    if (!UseDevice(d)) return false;
    Call();
    // Waits for the stream's work first.
    STRESS_OK(aclrtDestroyStream(s.handle));
    if (!Drained(s)) return false;
    Call();
    STRESS_OK(aclrtDestroyEvent(s.event));
    streams_[d].erase(streams_[d].begin() + static_cast<ptrdiff_t>(i));
    return true;
  }

  bool Queries() {
    const int d = Rand(kDevices);
    if (!UseDevice(d)) return false;
    size_t free_bytes = 0;
    size_t total = 0;
    Call();
    STRESS_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
    if (free_bytes > total) {
      Fail("aclrtGetMemInfo: free > total");
      return false;
    }
    int32_t device = -1;
    Call();
    STRESS_OK(aclrtGetDevice(&device));
    if (device != d) {
      Fail("aclrtGetDevice returned " + std::to_string(device));
      return false;
    }
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    Call();
    STRESS_OK(aclrtStreamQuery(PickStream(d), &status));
    if (status != ACL_STREAM_STATUS_COMPLETE &&
        status != ACL_STREAM_STATUS_NOT_READY) {
      Fail("aclrtStreamQuery: bad status");
      return false;
    }
    const int32_t state = ProcessState();
    Call();
    if (state < RT_PROCESS_STATE_RUNNING ||
        state > RT_PROCESS_STATE_BACKED_UP) {
      Fail("rtSnapShotProcessGetState: bad state " + std::to_string(state));
      return false;
    }
    return true;
  }

  bool Step(Heartbeat& hb) {
    const int op = Rand(100);
    if (op < 8) {
      hb.Beat("malloc");
      return Malloc();
    }
    if (op < 13) {
      hb.Beat("free");
      return Free();
    }
    if (op < 23) {
      hb.Beat("memcpy H2D");
      return WriteSync();
    }
    if (op < 36) {
      hb.Beat("memcpy async H2D");
      return WriteAsync();
    }
    if (op < 44) {
      hb.Beat("memcpy async D2H");
      return ReadAsync();
    }
    if (op < 51) {
      hb.Beat("memcpy async D2D");
      return CopyAsyncWithinDevice();
    }
    if (op < 55) {
      hb.Beat("memcpy peer D2D");
      return CopySyncPeer();
    }
    if (op < 62) {
      hb.Beat("memset async");
      return Memset(true);
    }
    if (op < 65) {
      hb.Beat("memset");
      return Memset(false);
    }
    if (op < 77) {
      hb.Beat("launch host func");
      return HostFunc();
    }
    if (op < 82) {
      hb.Beat("event record/sync");
      return EventRecordAndSync();
    }
    if (op < 86) {
      hb.Beat("stream create/destroy");
      return StreamCreateOrDestroy();
    }
    if (op < 94) {
      hb.Beat("queries");
      return Queries();
    }
    hb.Beat("verify one");
    Buffer* b = PickBuffer(Rand(2) == 0);
    return b == nullptr || Verify(*b);
  }

  const int index_;
  std::mt19937_64 rng_;
  uint64_t ops_ = 0;
  std::array<aclrtContext, kDevices> contexts_{};
  std::array<std::vector<StreamInfo>, kDevices> streams_;
  std::array<aclrtNotify, kDevices> notifies_{};
  std::array<uint32_t, kDevices> notify_ids_{};
  std::vector<Buffer> buffers_;
};

// --- Controller
// -----------------------------------------------------------------------

struct ControllerStats {
  uint64_t locks = 0;
  uint64_t backups = 0;
  uint64_t restores = 0;
  uint64_t unlocks = 0;
  uint64_t memory_losses = 0;
};

#define CONTROLLER_STEP(expr, state_after)                            \
  do {                                                                \
    const aclError rc_ = (expr);                                      \
    if (rc_ != ACL_SUCCESS) {                                         \
      const char* msg_ = aclGetRecentErrMsg();                        \
      Fail(std::string("controller: ") + #expr + " returned " +       \
           std::to_string(rc_) + ": " + (msg_ ? msg_ : ""));          \
      return;                                                         \
    }                                                                 \
    if (ProcessState() != (state_after)) {                            \
      Fail(std::string("controller: state after ") + #expr + " is " + \
           std::to_string(ProcessState()));                           \
      return;                                                         \
    }                                                                 \
  } while (false)

void Controller(uint64_t seed, Clock::time_point until, ControllerStats* st) {
  std::mt19937_64 rng(seed);
  Heartbeat& hb = g_heartbeats[kWorkers];
  const int pid = getpid();
  while (!g_stop.load() && Clock::now() < until) {
    hb.Beat("sleeping");
    std::this_thread::sleep_for(std::chrono::microseconds(500 + rng() % 8000));
    hb.Beat("Lock");
    CONTROLLER_STEP(aclrtSnapShotProcessLock(pid, nullptr),
                    RT_PROCESS_STATE_LOCKED);
    ++st->locks;
    const int variant = static_cast<int>(rng() % 10);
    if (variant < 8) {
      // One or two Backup/Restore rounds inside the lock.
      const int rounds = variant < 2 ? 2 : 1;
      for (int r = 0; r < rounds; ++r) {
        hb.Beat("Backup");
        CONTROLLER_STEP(aclrtSnapShotProcessBackup(pid, nullptr),
                        RT_PROCESS_STATE_BACKED_UP);
        ++st->backups;
        if (variant == 7 && r == rounds - 1) break;  // Backup, then Unlock
        if (rng() % 4 != 0) {
          const int device = static_cast<int>(rng() % kDevices);
          hb.Beat("inject memory loss");
          CONTROLLER_STEP(
              aclsimInjectFault(device, ACLSIM_FAULT_DEVICE_MEMORY_LOSS),
              RT_PROCESS_STATE_BACKED_UP);
          ++st->memory_losses;
          if (rng() % 3 == 0) {
            const int other = (device + 1) % kDevices;
            CONTROLLER_STEP(
                aclsimInjectFault(other, ACLSIM_FAULT_DEVICE_MEMORY_LOSS),
                RT_PROCESS_STATE_BACKED_UP);
            ++st->memory_losses;
          }
        }
        hb.Beat("Restore");
        CONTROLLER_STEP(aclrtSnapShotProcessRestore(pid, nullptr),
                        RT_PROCESS_STATE_LOCKED);
        ++st->restores;
      }
    }
    hb.Beat("Unlock");
    CONTROLLER_STEP(aclrtSnapShotProcessUnlock(pid, nullptr),
                    RT_PROCESS_STATE_RUNNING);
    ++st->unlocks;
    g_cycles.fetch_add(1);
  }
  hb.Beat("done");
  hb.at_ns.store(0);
}

TEST(SnapshotStressTest, WorkersAndSnapshotCyclesKeepEveryByte) {
  const int seconds = EnvInt("STRESS_SECONDS", 8);
  const int watchdog_seconds = EnvInt("STRESS_WATCHDOG_SECONDS", 30);
  const uint64_t seed =
      static_cast<uint64_t>(EnvInt("STRESS_SEED", 0)) != 0
          ? static_cast<uint64_t>(EnvInt("STRESS_SEED", 0))
          : static_cast<uint64_t>(
                std::chrono::system_clock::now().time_since_epoch().count() %
                1000000007);
  std::printf("stress: %d s, %d workers, %d devices, seed %" PRIu64
              " (STRESS_SEED to repeat the random choices)\n",
              seconds, kWorkers, kDevices, seed);

  // The main thread keeps devices 0..kDevices-1 open throughout, so every
  // stage callback runs once per device per cycle.
  std::array<aclrtContext, kDevices> contexts{};
  std::array<size_t, kDevices> free_at_start{};
  for (int d = 0; d < kDevices; ++d) {
    ASSERT_EQ(aclrtSetDevice(d), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&contexts[d]), ACL_SUCCESS);
    size_t total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_at_start[d], &total),
              ACL_SUCCESS);
  }
  // Workers copy between devices (CopySyncPeer): that needs peer access.
  // The devices stay open, so it stays enabled.
  for (int d = 0; d < kDevices; ++d) {
    ASSERT_EQ(aclrtSetCurrentContext(contexts[d]), ACL_SUCCESS);
    for (int peer = 0; peer < kDevices; ++peer) {
      if (peer != d) {
        ASSERT_EQ(aclrtDeviceEnablePeerAccess(peer, 0), ACL_SUCCESS);
      }
    }
  }
  for (int stage = 0; stage < 6; ++stage) {
    ASSERT_EQ(
        aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(stage),
                                      kStageCallbacks[stage], nullptr),
        ACL_SUCCESS);
  }

  std::atomic<bool> watchdog_done{false};
  for (Heartbeat& hb : g_heartbeats) hb.Beat("starting");
  std::thread watchdog(Watchdog, &watchdog_done, watchdog_seconds);

  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::thread> threads;
  for (int i = 0; i < kWorkers; ++i) {
    workers.push_back(std::make_unique<Worker>(i, seed * 7919 + i));
  }
  const auto start = Clock::now();
  for (int i = 0; i < kWorkers; ++i) {
    threads.emplace_back([w = workers[i].get()] { w->Run(); });
  }
  ControllerStats stats;
  std::thread controller(Controller, seed ^ 0x5eed,
                         start + std::chrono::seconds(seconds), &stats);
  controller.join();
  g_stop.store(true);
  for (std::thread& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  watchdog_done.store(true);
  watchdog.join();

  for (int stage = 0; stage < 6; ++stage) {
    EXPECT_EQ(
        aclrtSnapShotCallbackUnregister(static_cast<aclrtSnapShotStage>(stage),
                                        kStageCallbacks[stage]),
        ACL_SUCCESS);
  }
  ASSERT_EQ(ProcessState(), RT_PROCESS_STATE_RUNNING);

  // No host function lost or run twice, also after a grace period.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(g_host_funcs_run.load(), g_host_funcs_launched.load());

  // Every cycle ran each stage callback once per open device.
  const uint64_t per_stage[6] = {stats.locks,    stats.backups,  stats.backups,
                                 stats.restores, stats.restores, stats.unlocks};
  for (int stage = 0; stage < 6; ++stage) {
    for (int d = 0; d < kDevices; ++d) {
      EXPECT_EQ(g_stages.per_device[stage][d].load(), per_stage[stage])
          << "stage " << stage << " device " << d;
    }
  }
  EXPECT_EQ(g_stages.wrong_state.load(), 0u);
  EXPECT_EQ(g_stages.wrong_device.load(), 0u);

  // No leak: every worker allocation was freed.
  for (int d = 0; d < kDevices; ++d) {
    ASSERT_EQ(aclrtSetCurrentContext(contexts[d]), ACL_SUCCESS);
    size_t free_now = 0;
    size_t total = 0;
    ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_now, &total), ACL_SUCCESS);
    EXPECT_EQ(free_now, free_at_start[d]) << "device " << d << " leaked";
  }
  for (int d = 0; d < kDevices; ++d) {
    EXPECT_EQ(aclrtResetDevice(d), ACL_SUCCESS);
  }

  uint64_t ops = 0;
  for (const auto& w : workers) ops += w->ops();
  std::printf("stress: %.1f s: %" PRIu64 " snapshot cycles (%" PRIu64
              " backups, %" PRIu64 " restores, %" PRIu64
              " memory losses), %" PRIu64 " worker operations, %" PRIu64
              " API calls, %" PRIu64 " buffer verifications, %" PRIu64
              " bytes verified, %" PRIu64 " host functions run exactly once\n",
              elapsed, g_cycles.load(), stats.backups, stats.restores,
              stats.memory_losses, ops, g_calls.load(), g_verifications.load(),
              g_bytes_verified.load(), g_host_funcs_run.load());
  EXPECT_FALSE(g_failed.load());
  // The run must have exercised the snapshot path at all.
  EXPECT_GT(g_cycles.load(), 0u);
  EXPECT_GT(stats.restores, 0u);
}

}  // namespace
