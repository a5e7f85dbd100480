// Cost of the ACL lifecycle through its C entry points (DESIGN.md §7.2: an
// aclInit + aclFinalize cycle with 100 registered callbacks in under 100 us).
//
//   bazel run -c opt //acl/lifecycle:lifecycle_benchmark
//
// Ratios are printed against baselines measured earlier in the same run:
//  - BM_InitFinalizeCycle/100 (100 init and 100 finalize callbacks of type
//    OTHER, so 200 calls per cycle) against BM_InitFinalizeCycle/0, the same
//    cycle with nothing registered: `x_empty_cycle` is what the callbacks
//    add over the lifecycle's fixed cost (lock, registry copies, status
//    mapping). `x_target` is the cycle time over the 100 us target: it must
//    stay below 1.
//  - BM_RegisterUnregister (one init registration plus its removal, next to
//    0 or 100 others) against BM_MutexPair, one std::mutex lock/unlock:
//    a registration is a locked list update, so a mutex pair is its floor
//    and `x_mutex_pair` counts how many such floors a pair of calls costs.
#include <chrono>
#include <mutex>

#include "acl/acl.h"
#include "benchmark/benchmark.h"

namespace {

constexpr double kTargetCycleNs = 100'000;

double g_empty_cycle_ns = 0;
double g_mutex_pair_ns = 0;

aclError NoopInit(const char*, size_t, void*) { return ACL_SUCCESS; }
aclError NoopFinalize(void*) { return ACL_SUCCESS; }
aclError ChurnInit(const char*, size_t, void*) { return ACL_SUCCESS; }

using Clock = std::chrono::steady_clock;

double NsPerIteration(const benchmark::State& state, Clock::time_point start) {
  double ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  return state.iterations() > 0 ? ns / static_cast<double>(state.iterations())
                                : 0;
}

// Registers `n` init and `n` finalize callbacks for the benchmark's duration.
class Registered {
 public:
  explicit Registered(int n) : n_(n) {
    for (int i = 0; i < n_; ++i) {
      aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NoopInit, nullptr);
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, NoopFinalize, nullptr);
    }
  }
  ~Registered() {
    for (int i = 0; i < n_; ++i) {
      aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, NoopInit);
      aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, NoopFinalize);
    }
  }

 private:
  const int n_;
};

void BM_MutexPair(benchmark::State& state) {
  std::mutex mu;
  auto start = Clock::now();
  for (auto _ : state) {
    mu.lock();
    mu.unlock();
    benchmark::ClobberMemory();
  }
  g_mutex_pair_ns = NsPerIteration(state, start);
}
BENCHMARK(BM_MutexPair);

void BM_InitFinalizeCycle(benchmark::State& state) {
  Registered callbacks(static_cast<int>(state.range(0)));
  auto start = Clock::now();
  for (auto _ : state) {
    if (aclInit(nullptr) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) {
      state.SkipWithError("aclInit/aclFinalize failed");
      break;
    }
  }
  double ns = NsPerIteration(state, start);
  if (state.range(0) == 0) {
    g_empty_cycle_ns = ns;
  } else if (g_empty_cycle_ns > 0) {
    state.counters["x_empty_cycle"] = ns / g_empty_cycle_ns;
  }
  state.counters["x_target"] = ns / kTargetCycleNs;
}
BENCHMARK(BM_InitFinalizeCycle)->Arg(0)->Arg(100);

void BM_RegisterUnregister(benchmark::State& state) {
  Registered others(static_cast<int>(state.range(0)));
  auto start = Clock::now();
  for (auto _ : state) {
    if (aclInitCallbackRegister(ACL_REG_TYPE_OTHER, ChurnInit, nullptr) !=
            ACL_SUCCESS ||
        aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, ChurnInit) !=
            ACL_SUCCESS) {
      state.SkipWithError("register/unregister failed");
      break;
    }
  }
  if (g_mutex_pair_ns > 0) {
    state.counters["x_mutex_pair"] =
        NsPerIteration(state, start) / g_mutex_pair_ns;
  }
}
BENCHMARK(BM_RegisterUnregister)->Arg(0)->Arg(100);

}  // namespace
