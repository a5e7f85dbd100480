// HCCL's speed against baselines measured in the same run (DESIGN.md §5.27,
// §7.1), through the C API as a program calls it. Each figure is the median
// of `pairs` pairs (baseline, then HCCL); RATIO lines give it and its range.
//
//   AllReduce of --ar_mib MiB fp32 per rank (default 256) over --ranks ranks
//     (default 8) as threads of one process, against an all-core memcpy of
//     every rank's send buffer to its receive buffer (the same memory
//     traffic: each input read once, each output written once). Target: at
//     least 0.5x its speed. Also the bus bandwidth, algbw x 2(n-1)/n.
//   AllReduce of --mp_mib MiB fp32 (default 64) over --mp_ranks processes
//     (default 4) on this host, through libhccl (Gloo underneath), against
//     gloo::allreduce called directly on the same device buffers with a
//     Gloo context of its own. Target: at least 0.8x.
//   The latency of a 1-element AllReduce (--ranks threads, one process):
//     HcclAllReduce + aclrtSynchronizeStream, against the launch of an empty
//     registered kernel + aclrtSynchronizeStream (reported).
//
//   bazel run --config=bench //hccl:hccl_benchmark
//   ... -- --ar_mib=N --ranks=N --mp_mib=N --mp_ranks=N --mp_iters=N
//          --lat_iters=N --pairs=N
//
// The benchmark process is rank 0 of the multi-process job; it starts the
// others (itself, with --child_rank) and kills them if they do not finish.
// Exits non-zero when a measurement failed (not when a target is missed).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim_kernel.h"
#include "benchmark/benchmark.h"
#include "gloo/allreduce.h"
#include "gloo/math.h"
#include "gloo/rendezvous/context.h"
#include "gloo/rendezvous/file_store.h"
#include "gloo/transport/tcp/device.h"
#include "hccl/hccl.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

int64_t g_ar_mib = 256;
uint32_t g_ranks = 8;
int64_t g_mp_mib = 64;
uint32_t g_mp_ranks = 4;
int g_mp_iters = 5;
int g_lat_iters = 2000;
int g_pairs = 3;
bool g_failed = false;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Pairs {
  std::vector<double> base_s, hccl_s;
  std::vector<double> Ratios() const {  // speed of HCCL over the baseline's
    std::vector<double> r;
    for (size_t i = 0; i < base_s.size(); ++i)
      r.push_back(base_s[i] / hccl_s[i]);
    return r;
  }
};
Pairs g_inproc, g_mp, g_latency;

#define FAIL_IF(cond, what)                                      \
  do {                                                           \
    if (cond) {                                                  \
      std::fprintf(stderr, "hccl_benchmark: %s failed\n", what); \
      g_failed = true;                                           \
      return;                                                    \
    }                                                            \
  } while (0)

// --- Ranks as threads, each with a communicator, a stream and buffers ------

class ThreadRanks {
 public:
  ThreadRanks(uint32_t n, uint64_t count) : n_(n), count_(count), ok_(true) {
    HcclRootInfo root;
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS) {
      ok_ = false;
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      threads_.emplace_back([this, i, root] { Serve(i, root); });
    }
    Run([](ThreadRanks&, uint32_t) { return true; });  // every rank is ready
  }
  ~ThreadRanks() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      ++gen_;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  bool ok() const { return ok_; }
  // Runs fn on every rank's thread at once; returns when all finished.
  bool Run(std::function<bool(ThreadRanks&, uint32_t)> fn) {
    std::unique_lock<std::mutex> lock(mu_);
    work_ = std::move(fn);
    done_ = 0;
    ++gen_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return done_ == n_; });
    return ok_;
  }
  HcclComm comm(uint32_t i) const { return comms_[i]; }
  aclrtStream stream(uint32_t i) const { return streams_[i]; }
  void* send(uint32_t i) const { return send_[i]; }
  void* recv(uint32_t i) const { return recv_[i]; }
  uint64_t count() const { return count_; }
  uint32_t size() const { return n_; }

 private:
  void Serve(uint32_t i, HcclRootInfo root) {
    bool good = aclrtSetDevice(static_cast<int32_t>(i)) == ACL_SUCCESS;
    HcclComm comm = nullptr;
    aclrtStream stream = nullptr;
    void* s = nullptr;
    void* r = nullptr;
    const size_t bytes = count_ * sizeof(float);
    good = good && HcclCommInitRootInfo(n_, &root, i, &comm) == HCCL_SUCCESS &&
           aclrtCreateStream(&stream) == ACL_SUCCESS &&
           aclrtMalloc(&s, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
           aclrtMalloc(&r, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (comms_.empty()) {
        comms_.resize(n_);
        streams_.resize(n_);
        send_.resize(n_);
        recv_.resize(n_);
      }
      comms_[i] = comm;
      streams_[i] = stream;
      send_[i] = s;
      recv_[i] = r;
      if (!good) ok_ = false;
    }
    uint64_t seen = 0;
    for (;;) {
      std::function<bool(ThreadRanks&, uint32_t)> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return gen_ != seen; });
        seen = gen_;
        if (stop_) break;
        fn = work_;
      }
      const bool worked = !good || fn(*this, i);
      std::lock_guard<std::mutex> lock(mu_);
      if (!worked) ok_ = false;
      if (++done_ == n_) cv_.notify_all();
    }
    if (s != nullptr) aclrtFree(s);
    if (r != nullptr) aclrtFree(r);
    if (stream != nullptr) aclrtDestroyStream(stream);
    if (comm != nullptr) HcclCommDestroy(comm);
  }

  const uint32_t n_;
  const uint64_t count_;
  bool ok_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t gen_ = 0;
  uint32_t done_ = 0;
  bool stop_ = false;
  std::function<bool(ThreadRanks&, uint32_t)> work_;
  std::vector<std::thread> threads_;
  std::vector<HcclComm> comms_;
  std::vector<aclrtStream> streams_;
  std::vector<void*> send_, recv_;
};

bool AllReduce(ThreadRanks& t, uint32_t i, uint64_t count) {
  return HcclAllReduce(t.send(i), t.recv(i), count, HCCL_DATA_TYPE_FP32,
                       HCCL_REDUCE_SUM, t.comm(i),
                       t.stream(i)) == HCCL_SUCCESS &&
         aclrtSynchronizeStream(t.stream(i)) == ACL_SUCCESS;
}

// A pool of one thread per core copying slices of every buffer: the
// all-core memcpy.
class CopyPool {
 public:
  CopyPool() : n_(std::max(1u, std::thread::hardware_concurrency())) {
    for (unsigned i = 0; i < n_; ++i)
      threads_.emplace_back([this, i] { Serve(i); });
  }
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      ++gen_;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void Copy(const std::vector<std::pair<void*, const void*>>& jobs,
            size_t bytes) {
    std::unique_lock<std::mutex> lock(mu_);
    jobs_ = &jobs;
    bytes_ = bytes;
    done_ = 0;
    ++gen_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return done_ == n_; });
  }

 private:
  void Serve(unsigned i) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return gen_ != seen; });
        seen = gen_;
        if (stop_) return;
      }
      const size_t per = (bytes_ / n_ + 63) / 64 * 64;
      const size_t begin = std::min(bytes_, per * i);
      const size_t end = std::min(bytes_, begin + per);
      for (const auto& [dst, src] : *jobs_) {
        std::memcpy(static_cast<char*>(dst) + begin,
                    static_cast<const char*>(src) + begin, end - begin);
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (++done_ == n_) cv_.notify_all();
    }
  }
  const unsigned n_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t gen_ = 0;
  unsigned done_ = 0;
  bool stop_ = false;
  const std::vector<std::pair<void*, const void*>>* jobs_ = nullptr;
  size_t bytes_ = 0;
  std::vector<std::thread> threads_;
};

void BM_AllReduceThreads(benchmark::State& state) {
  const uint64_t count = static_cast<uint64_t>(g_ar_mib) << 18;  // fp32
  ThreadRanks ranks(g_ranks, count);
  CopyPool pool;
  std::vector<std::pair<void*, const void*>> jobs;
  for (uint32_t i = 0; i < g_ranks; ++i)
    jobs.emplace_back(ranks.recv(i), ranks.send(i));
  auto allreduce = [&] {
    return ranks.Run(
        [count](ThreadRanks& t, uint32_t i) { return AllReduce(t, i, count); });
  };
  for (auto _ : state) {
    if (!ranks.ok() || !allreduce()) {  // also warms every page
      state.SkipWithError("AllReduce failed");
      g_failed = true;
      return;
    }
    pool.Copy(jobs, count * sizeof(float));
    for (int p = 0; p < g_pairs; ++p) {
      auto t0 = Clock::now();
      pool.Copy(jobs, count * sizeof(float));
      auto t1 = Clock::now();
      if (!allreduce()) {
        state.SkipWithError("AllReduce failed");
        g_failed = true;
        return;
      }
      auto t2 = Clock::now();
      g_inproc.base_s.push_back(Seconds(t0, t1));
      g_inproc.hccl_s.push_back(Seconds(t1, t2));
    }
  }
  state.counters["ratio"] = Median(g_inproc.Ratios());
}

void EmptyKernel(const aclsimKernelContext*, void*) {}

void BM_Latency(benchmark::State& state) {
  ThreadRanks ranks(g_ranks, 1);
  for (auto _ : state) {
    aclrtFuncHandle empty = nullptr;
    aclrtStream stream = nullptr;
    if (!ranks.ok() || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclsimRegisterKernel(reinterpret_cast<const void*>(&EmptyKernel),
                             "hccl_benchmark_empty", &EmptyKernel, nullptr,
                             &empty) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
      state.SkipWithError("setup failed");
      g_failed = true;
      return;
    }
    const int iters = g_lat_iters;
    for (int p = 0; p < g_pairs; ++p) {
      auto t0 = Clock::now();
      for (int k = 0; k < iters; ++k) {
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0,
                                      nullptr, 0);
        aclrtSynchronizeStream(stream);
      }
      auto t1 = Clock::now();
      const bool ok = ranks.Run([iters](ThreadRanks& t, uint32_t i) {
        for (int k = 0; k < iters; ++k) {
          if (!AllReduce(t, i, 1)) return false;
        }
        return true;
      });
      auto t2 = Clock::now();
      if (!ok) {
        state.SkipWithError("AllReduce failed");
        g_failed = true;
        return;
      }
      g_latency.base_s.push_back(Seconds(t0, t1) / iters);
      g_latency.hccl_s.push_back(Seconds(t1, t2) / iters);
    }
    aclrtDestroyStream(stream);
  }
  state.counters["x_empty_kernel"] = 1.0 / Median(g_latency.Ratios());
}

// --- Processes
// ----------------------------------------------------------------

std::string Hex(const HcclRootInfo& root) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (char c : root.internal) {
    s += digits[static_cast<unsigned char>(c) >> 4];
    s += digits[static_cast<unsigned char>(c) & 15];
  }
  return s;
}

HcclRootInfo Unhex(const std::string& hex) {
  HcclRootInfo root{};
  for (size_t i = 0; i < sizeof(root) && 2 * i + 1 < hex.size(); ++i) {
    root.internal[i] =
        static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return root;
}

// What every process of the job runs, in the same order: per pair, mp_iters
// AllReduces through Gloo directly, then as many through HCCL. Fills times
// (rank 0's are reported).
bool ProcessScript(uint32_t rank, const std::string& root_hex,
                   const std::string& dir, Pairs* times) {
  const uint64_t count = static_cast<uint64_t>(g_mp_mib) << 18;
  const size_t bytes = count * sizeof(float);
  HcclRootInfo root = Unhex(root_hex);
  HcclComm comm = nullptr;
  aclrtStream stream = nullptr;
  void* s = nullptr;
  void* r = nullptr;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      HcclCommInitRootInfo(g_mp_ranks, &root, rank, &comm) != HCCL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtMalloc(&s, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&r, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return false;
  }
  std::vector<float> ones(count, 1.0f);
  aclrtMemcpy(s, bytes, ones.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  try {
    gloo::transport::tcp::attr attr;
    attr.hostname = "127.0.0.1";
    auto device = gloo::transport::tcp::CreateDevice(attr);
    auto context = std::make_shared<gloo::rendezvous::Context>(
        static_cast<int>(rank), static_cast<int>(g_mp_ranks));
    gloo::rendezvous::FileStore store(dir);
    context->connectFullMesh(store, device);
    auto gloo_allreduce = [&] {
      gloo::AllreduceOptions o(context);
      o.setInput(static_cast<float*>(s), count);
      o.setOutput(static_cast<float*>(r), count);
      o.setReduceFunction(
          static_cast<void (*)(void*, const void*, const void*, size_t)>(
              &gloo::sum<float>));
      o.setTag(7);
      gloo::allreduce(o);
    };
    auto hccl_allreduce = [&] {
      return HcclAllReduce(s, r, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                           comm, stream) == HCCL_SUCCESS &&
             aclrtSynchronizeStream(stream) == ACL_SUCCESS;
    };
    gloo_allreduce();  // warm up both, every page touched
    if (!hccl_allreduce()) return false;
    for (int p = 0; p < g_pairs; ++p) {
      auto t0 = Clock::now();
      for (int k = 0; k < g_mp_iters; ++k) gloo_allreduce();
      auto t1 = Clock::now();
      for (int k = 0; k < g_mp_iters; ++k) {
        if (!hccl_allreduce()) return false;
      }
      auto t2 = Clock::now();
      times->base_s.push_back(Seconds(t0, t1) / g_mp_iters);
      times->hccl_s.push_back(Seconds(t1, t2) / g_mp_iters);
    }
    std::vector<float> out(count);
    aclrtMemcpy(out.data(), bytes, r, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    if (out[count / 2] != static_cast<float>(g_mp_ranks)) return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hccl_benchmark rank %u: Gloo: %s\n", rank, e.what());
    return false;
  }
  aclrtFree(s);
  aclrtFree(r);
  aclrtDestroyStream(stream);
  HcclCommDestroy(comm);
  return true;
}

void BM_AllReduceProcesses(benchmark::State& state) {
  for (auto _ : state) {
    HcclRootInfo root;
    char dir_template[] = "/tmp/hccl_benchmark_store.XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS || dir == nullptr) {
      state.SkipWithError("setup failed");
      g_failed = true;
      return;
    }
    const std::string hex = Hex(root);
    std::vector<pid_t> children;
    char self[4096] = {};
    if (readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0) {
      state.SkipWithError("cannot find this binary");
      g_failed = true;
      return;
    }
    for (uint32_t rank = 1; rank < g_mp_ranks; ++rank) {
      std::vector<std::string> args = {
          self,
          "--child_rank=" + std::to_string(rank),
          "--child_root=" + hex,
          "--child_dir=" + std::string(dir),
          "--mp_mib=" + std::to_string(g_mp_mib),
          "--mp_ranks=" + std::to_string(g_mp_ranks),
          "--mp_iters=" + std::to_string(g_mp_iters),
          "--pairs=" + std::to_string(g_pairs)};
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(&a[0]);
      argv.push_back(nullptr);
      pid_t pid = -1;
      if (posix_spawn(&pid, self, nullptr, nullptr, argv.data(), environ) ==
          0) {
        children.push_back(pid);
      }
    }
    bool ok =
        children.size() + 1 == g_mp_ranks && ProcessScript(0, hex, dir, &g_mp);
    // The children end with the job; past a minute they are killed.
    const auto end = Clock::now() + std::chrono::seconds(60);
    for (pid_t pid : children) {
      int status = 0;
      while (waitpid(pid, &status, WNOHANG) == 0) {
        if (Clock::now() > end) {
          kill(pid, SIGKILL);
          waitpid(pid, &status, 0);
          ok = false;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    if (!ok) {
      state.SkipWithError("the multi-process AllReduce failed");
      g_failed = true;
      return;
    }
  }
  state.counters["ratio"] = Median(g_mp.Ratios());
}

void Print(const char* what, const Pairs& p, double target, bool speed) {
  if (p.base_s.empty()) {
    std::printf("RATIO %s: not measured\n", what);
    return;
  }
  const std::vector<double> r = p.Ratios();
  const double lo = *std::min_element(r.begin(), r.end());
  const double hi = *std::max_element(r.begin(), r.end());
  if (speed) {
    std::printf(
        "RATIO %s: %.2f ms vs %.2f ms -> %.2fx the baseline's speed "
        "(%.2f-%.2f over %zu pairs; target >= %.1fx)\n",
        what, 1e3 * Median(p.hccl_s), 1e3 * Median(p.base_s), Median(r), lo, hi,
        r.size(), target);
  } else {
    std::printf(
        "RATIO %s: %.2f us vs %.2f us -> %.2fx the time (%.2f-%.2f over %zu "
        "pairs)\n",
        what, 1e6 * Median(p.hccl_s), 1e6 * Median(p.base_s), 1 / Median(r),
        1 / hi, 1 / lo, r.size());
  }
}

std::string Flag(const std::string& arg, const char* name) {
  const std::string prefix = std::string("--") + name + "=";
  return arg.compare(0, prefix.size(), prefix) == 0 ? arg.substr(prefix.size())
                                                    : std::string();
}

}  // namespace

int main(int argc, char** argv) {
  std::string child_rank, child_root, child_dir;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string v;
    if (!(v = Flag(a, "ar_mib")).empty())
      g_ar_mib = std::stoll(v);
    else if (!(v = Flag(a, "ranks")).empty())
      g_ranks = std::stoul(v);
    else if (!(v = Flag(a, "mp_mib")).empty())
      g_mp_mib = std::stoll(v);
    else if (!(v = Flag(a, "mp_ranks")).empty())
      g_mp_ranks = std::stoul(v);
    else if (!(v = Flag(a, "mp_iters")).empty())
      g_mp_iters = std::stoi(v);
    else if (!(v = Flag(a, "lat_iters")).empty())
      g_lat_iters = std::stoi(v);
    else if (!(v = Flag(a, "pairs")).empty())
      g_pairs = std::stoi(v);
    else if (!(v = Flag(a, "child_rank")).empty())
      child_rank = v;
    else if (!(v = Flag(a, "child_root")).empty())
      child_root = v;
    else if (!(v = Flag(a, "child_dir")).empty())
      child_dir = v;
    else
      rest.push_back(argv[i]);
  }
  if (aclInit(nullptr) != ACL_SUCCESS) return 1;
  if (!child_rank.empty()) {
    Pairs ignored;
    const bool ok = ProcessScript(static_cast<uint32_t>(std::stoul(child_rank)),
                                  child_root, child_dir, &ignored);
    aclFinalize();
    return ok ? 0 : 1;
  }
  benchmark::RegisterBenchmark("BM_AllReduceThreads", BM_AllReduceThreads)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AllReduceProcesses", BM_AllReduceProcesses)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_Latency", BM_Latency)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  char what[256];
  std::snprintf(what, sizeof(what),
                "AllReduce %lld MiB FLOAT x %u thread ranks vs all-core memcpy "
                "of %u x %lld MiB",
                static_cast<long long>(g_ar_mib), g_ranks, g_ranks,
                static_cast<long long>(g_ar_mib));
  Print(what, g_inproc, 0.5, true);
  if (!g_inproc.hccl_s.empty()) {
    const double algbw = (g_ar_mib / 1024.0) / Median(g_inproc.hccl_s);
    std::printf(
        "BUSBW AllReduce %u thread ranks: algbw %.2f GiB/s, busbw %.2f "
        "GiB/s\n",
        g_ranks, algbw, algbw * 2 * (g_ranks - 1) / g_ranks);
  }
  std::snprintf(
      what, sizeof(what),
      "AllReduce %lld MiB FLOAT x %u processes (libhccl over Gloo) vs "
      "gloo::allreduce directly",
      static_cast<long long>(g_mp_mib), g_mp_ranks);
  Print(what, g_mp, 0.8, true);
  std::snprintf(what, sizeof(what),
                "AllReduce of 1 FLOAT x %u thread ranks + synchronize vs an "
                "empty kernel launch + synchronize",
                g_ranks);
  Print(what, g_latency, 0, false);
  aclFinalize();
  return g_failed ? 1 : 0;
}
