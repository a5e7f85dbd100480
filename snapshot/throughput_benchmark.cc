// Snapshot throughput against data size, for the README's plot
// (tools/plot_benchmarks.py): full Backup and Restore with the image in
// host memory and on disk, incremental Backup after 1 % was rewritten (its
// throughput is the data size over its time), and in the same run the
// references a reader compares them with: memcpy of the same bytes from
// device memory into host memory, and a plain sequential write(2) + fsync
// of them to a file in the image directory.
//
//   bazel run -c opt //snapshot:throughput_benchmark --
//       --benchmark_out=/tmp/throughput.json --benchmark_out_format=json
//       [--dir=/abs/dir]      (one command line)
//
// Names: BM_<Operation>/<0 memory | 1 disk>/<MiB>; bytes_per_second.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "benchmark/benchmark.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kAllocationBytes = 64 * kMiB;

std::string g_dir = "/tmp";
std::vector<void*> g_ptrs;
uint64_t g_allocated = 0;
int g_mode = -1;  // image store configured: 0 memory, 1 disk

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

bool Ok(aclError e) { return e == ACL_SUCCESS; }

// Images in host memory (0) or on disk (1), full or incremental.
bool Configure(int mode, bool incremental) {
  if (incremental) {
    unsetenv("ASCENDCL_SNAPSHOT_INCREMENTAL");
  } else {
    setenv("ASCENDCL_SNAPSHOT_INCREMENTAL", "0", 1);
  }
  if (mode == g_mode) return true;
  if (g_mode >= 0 && !Ok(aclFinalize())) return false;
  if (mode == 1) {
    setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", g_dir.c_str(), 1);
  } else {
    unsetenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
  }
  g_mode = mode;
  return Ok(aclInit(nullptr)) && Ok(aclrtSetDevice(0));
}

// `bytes` of device memory in allocations of at most 64 MiB, all written.
bool Allocate(uint64_t bytes) {
  if (bytes == g_allocated) return true;
  for (void* p : g_ptrs) (void)aclrtFree(p);
  g_ptrs.clear();
  g_allocated = 0;
  for (uint64_t at = 0; at < bytes; at += kAllocationBytes) {
    const uint64_t size = std::min(kAllocationBytes, bytes - at);
    void* p = nullptr;
    if (!Ok(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST)) ||
        !Ok(aclrtMemset(p, size, static_cast<int32_t>(0x21 + g_ptrs.size()),
                        size))) {
      return false;
    }
    g_ptrs.push_back(p);
  }
  g_allocated = bytes;
  return true;
}

bool Lock() { return Ok(aclrtSnapShotProcessLock(getpid(), nullptr)); }
bool Backup() { return Ok(aclrtSnapShotProcessBackup(getpid(), nullptr)); }
bool Restore() { return Ok(aclrtSnapShotProcessRestore(getpid(), nullptr)); }
bool Unlock() { return Ok(aclrtSnapShotProcessUnlock(getpid(), nullptr)); }

bool Setup(benchmark::State& state, bool incremental) {
  if (!Configure(static_cast<int>(state.range(0)), incremental) ||
      !Allocate(static_cast<uint64_t>(state.range(1)) * kMiB)) {
    state.SkipWithError("setup failed");
    return false;
  }
  return true;
}

void Done(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(1) * static_cast<int64_t>(kMiB));
}

void BM_Backup(benchmark::State& state) {
  if (!Setup(state, false)) return;
  for (auto _ : state) {
    if (!Lock()) return state.SkipWithError("lock");
    const auto start = Clock::now();
    const bool ok = Backup();
    state.SetIterationTime(Seconds(start, Clock::now()));
    if (!Unlock() || !ok) return state.SkipWithError("backup");
  }
  Done(state);
}

void BM_Restore(benchmark::State& state) {
  if (!Setup(state, false)) return;
  for (auto _ : state) {
    if (!Lock() || !Backup() ||
        !Ok(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS))) {
      return state.SkipWithError("backup");
    }
    const auto start = Clock::now();
    const bool ok = Restore();
    state.SetIterationTime(Seconds(start, Clock::now()));
    if (!Unlock() || !ok) return state.SkipWithError("restore");
  }
  Done(state);
}

void BM_IncrementalBackup(benchmark::State& state) {
  if (!Setup(state, true)) return;
  std::vector<uint8_t> piece(64 * 1024, 0x6B);
  const uint64_t bytes = static_cast<uint64_t>(state.range(1)) * kMiB;
  uint64_t round = 0;
  if (!Lock() || !Backup() || !Unlock()) return state.SkipWithError("first");
  for (auto _ : state) {
    // 1 % of the data in 64 KiB pieces, spread over the allocations.
    const uint64_t pieces = std::max<uint64_t>(bytes / 100 / piece.size(), 1);
    ++round;
    for (uint64_t k = 0; k < pieces; ++k) {
      const size_t a = k % g_ptrs.size();
      const uint64_t size =
          std::min(kAllocationBytes, bytes - a * kAllocationBytes);
      const uint64_t offset =
          ((k * 7919 + round) % (size / piece.size())) * piece.size();
      if (!Ok(aclrtMemcpy(static_cast<uint8_t*>(g_ptrs[a]) + offset,
                          piece.size(), piece.data(), piece.size(),
                          ACL_MEMCPY_HOST_TO_DEVICE))) {
        return state.SkipWithError("write");
      }
    }
    if (!Lock()) return state.SkipWithError("lock");
    const auto start = Clock::now();
    const bool ok = Backup();
    state.SetIterationTime(Seconds(start, Clock::now()));
    if (!Unlock() || !ok) return state.SkipWithError("backup");
  }
  Done(state);
}

// memcpy of the device memory's bytes into host memory written before.
void BM_Memcpy(benchmark::State& state) {
  if (!Setup(state, false)) return;
  std::vector<uint8_t> host(g_allocated, 1);
  for (auto _ : state) {
    const auto start = Clock::now();
    uint64_t at = 0;
    for (void* p : g_ptrs) {
      const uint64_t size = std::min(kAllocationBytes, g_allocated - at);
      std::memcpy(host.data() + at, p, size);
      at += size;
    }
    state.SetIterationTime(Seconds(start, Clock::now()));
  }
  Done(state);
}

// write(2) of the bytes in 8 MiB blocks and fsync, in the image directory.
void BM_FileWrite(benchmark::State& state) {
  const uint64_t bytes = static_cast<uint64_t>(state.range(1)) * kMiB;
  std::vector<uint8_t> block(8 * kMiB, 0x3A);
  const std::string path = g_dir + "/throughput-plain-write";
  for (auto _ : state) {
    const auto start = Clock::now();
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    for (uint64_t at = 0; at < bytes; at += block.size()) {
      if (write(fd, block.data(), block.size()) < 0) break;
    }
    fsync(fd);
    close(fd);
    state.SetIterationTime(Seconds(start, Clock::now()));
    unlink(path.c_str());
  }
  Done(state);
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int mode : {0, 1}) {
    for (int mib : {64, 256, 1024}) b->Args({mode, mib});
  }
}
void SizesOnce(benchmark::internal::Benchmark* b) {
  for (int mib : {64, 256, 1024}) b->Args({0, mib});
}

BENCHMARK(BM_Memcpy)->Apply(SizesOnce)->UseManualTime()->Iterations(3);
BENCHMARK(BM_FileWrite)->Apply(SizesOnce)->UseManualTime()->Iterations(3);
BENCHMARK(BM_Backup)->Apply(Sizes)->UseManualTime()->Iterations(3);
BENCHMARK(BM_Restore)->Apply(Sizes)->UseManualTime()->Iterations(3);
BENCHMARK(BM_IncrementalBackup)->Apply(Sizes)->UseManualTime()->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  if (const char* tmp = std::getenv("TEST_TMPDIR")) g_dir = tmp;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--dir=", 6) == 0) {
      g_dir = argv[i] + 6;
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  setenv("ACLSIM_DEVICE_MEMORY_MB", "3072", 0);
  setenv("ACLSIM_DEVICE_COUNT", "1", 0);
  setenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "256", 1);
  benchmark::RunSpecifiedBenchmarks();
  for (void* p : g_ptrs) (void)aclrtFree(p);
  if (g_mode >= 0) {
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
  }
  return 0;
}
