// One rank of a multi-process HCCL job, for the multi-process and
// two-host tests: joins the job (root information in hex, or a rank table),
// runs a scenario, prints "RANK <r> <scenario> OK" on success and exits 0;
// on a failed check prints why and exits 1.
//
//   hccl_rank --nranks=4 --rank=1 --root=<hex> --scenario=collectives
//   hccl_rank --nranks=2 --rank=0 --table=rank_table.json --scenario=...
//   hccl_rank --nranks=4 --rank=0 --root_file=PATH --scenario=...
//     (rank 0 calls HcclGetRootInfo and writes its hex to PATH; the other
//     ranks wait for the file, as a launcher would pass it on)
//
// Scenarios:
//   collectives  every operation, checked (Gloo between the processes), then
//                sub-communicators of the even and of the odd ranks
//   peer_lost    one AllReduce; then the last rank exits at once and the
//                others' next AllReduce must fail with HCCL_E_REMOTE (stream:
//                ACL_ERROR_RT_SUSPECT_REMOTE_ERROR) within HCCL_EXEC_TIMEOUT
//   stall        the last rank does not call its AllReduce for 3 s: the
//                others' fails with HCCL_E_TIMEOUT (stream:
//                ACL_ERROR_RT_WAIT_TIMEOUT) after HCCL_EXEC_TIMEOUT
//   snapshot     an AllReduce, Lock + Backup, the device's memory lost,
//                Restore + Unlock, the data and the next AllReduce right
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "hccl/hccl.h"

namespace {

int g_rank = 0;
std::string g_scenario;

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      std::fprintf(stderr, "RANK %d %s FAILED: %s (line %d)\n", g_rank, \
                   g_scenario.c_str(), #cond, __LINE__);                \
      std::fflush(stderr);                                              \
      std::_Exit(1);                                                    \
    }                                                                   \
  } while (0)

std::string Flag(int argc, char** argv, const std::string& name) {
  const std::string prefix = "--" + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) {
      return argv[i] + prefix.size();
    }
  }
  return "";
}

bool Unhex(const std::string& hex, HcclRootInfo* out) {
  if (hex.size() != 2 * sizeof(HcclRootInfo)) return false;
  for (size_t i = 0; i < sizeof(HcclRootInfo); ++i) {
    out->internal[i] =
        static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return true;
}

// Rank 0 makes the root information and publishes it in `path` (written
// aside, then renamed); the others wait for it, up to 60 s.
std::string ShareRoot(const std::string& path, uint32_t rank) {
  if (rank == 0) {
    HcclRootInfo root;
    CHECK(HcclGetRootInfo(&root) == HCCL_SUCCESS);
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (char c : root.internal) {
      hex += digits[static_cast<unsigned char>(c) >> 4];
      hex += digits[static_cast<unsigned char>(c) & 15];
    }
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "w");
    CHECK(f != nullptr);
    CHECK(std::fputs(hex.c_str(), f) >= 0);
    CHECK(std::fclose(f) == 0);
    CHECK(std::rename(tmp.c_str(), path.c_str()) == 0);
    return hex;
  }
  for (int i = 0; i < 6000; ++i) {
    FILE* f = std::fopen(path.c_str(), "r");
    if (f != nullptr) {
      char buf[2 * sizeof(HcclRootInfo) + 1] = {};
      const size_t got = std::fread(buf, 1, sizeof(buf) - 1, f);
      std::fclose(f);
      if (got == 2 * sizeof(HcclRootInfo)) return std::string(buf, got);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(!"the root information never appeared");
  return "";
}

struct Buffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) {
    CHECK(aclrtMalloc(&ptr, n == 0 ? 1 : n, ACL_MEM_MALLOC_HUGE_FIRST) ==
          ACL_SUCCESS);
  }
  template <typename T>
  explicit Buffer(const std::vector<T>& v) : Buffer(v.size() * sizeof(T)) {
    Put(v);
  }
  ~Buffer() { aclrtFree(ptr); }
  template <typename T>
  void Put(const std::vector<T>& v) {
    CHECK(aclrtMemcpy(ptr, bytes, v.data(), v.size() * sizeof(T),
                      ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  }
  template <typename T>
  std::vector<T> Get() const {
    std::vector<T> v(bytes / sizeof(T));
    CHECK(aclrtMemcpy(v.data(), bytes, ptr, bytes, ACL_MEMCPY_DEVICE_TO_HOST) ==
          ACL_SUCCESS);
    return v;
  }
};

struct Job {
  HcclComm comm;
  aclrtStream stream;
  uint32_t n;
  uint32_t r;
  void Sync() { CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS); }
};

void Collectives(Job& j) {
  const uint32_t n = j.n, r = j.r;
  const float fr = static_cast<float>(r);
  {  // AllReduce, fp32 and fp16 (Gloo with our reduction), large and small
    for (uint64_t count : {uint64_t{5}, uint64_t{1} << 18}) {
      Buffer b(std::vector<float>(count, fr + 1));
      CHECK(HcclAllReduce(b.ptr, b.ptr, count, HCCL_DATA_TYPE_FP32,
                          HCCL_REDUCE_SUM, j.comm, j.stream) == HCCL_SUCCESS);
      j.Sync();
      const float want = static_cast<float>(n * (n + 1) / 2);
      for (float v : b.Get<float>()) CHECK(v == want);
    }
    Buffer h(std::vector<uint16_t>(64, 0x3c00));  // fp16 1.0
    Buffer out(64 * sizeof(uint16_t));
    CHECK(HcclAllReduce(h.ptr, out.ptr, 64, HCCL_DATA_TYPE_FP16,
                        HCCL_REDUCE_SUM, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    const uint16_t four = 0x4400;  // fp16 4.0 (for 4 ranks)
    if (n == 4) {
      for (uint16_t v : out.Get<uint16_t>()) CHECK(v == four);
    }
    Buffer mx(std::vector<int32_t>(7, static_cast<int32_t>(r)));
    CHECK(HcclAllReduce(mx.ptr, mx.ptr, 7, HCCL_DATA_TYPE_INT32,
                        HCCL_REDUCE_MAX, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    for (int32_t v : mx.Get<int32_t>()) CHECK(v == static_cast<int32_t>(n - 1));
  }
  {  // Broadcast from the last rank
    Buffer b(std::vector<float>(10, r == n - 1 ? 42.0f : 0.0f));
    CHECK(HcclBroadcast(b.ptr, 10, HCCL_DATA_TYPE_FP32, n - 1, j.comm,
                        j.stream) == HCCL_SUCCESS);
    j.Sync();
    for (float v : b.Get<float>()) CHECK(v == 42.0f);
  }
  {  // AllGather, ReduceScatter, Reduce, Scatter, AlltoAll
    Buffer one(std::vector<float>(2, fr));
    Buffer all(2 * n * sizeof(float));
    CHECK(HcclAllGather(one.ptr, all.ptr, 2, HCCL_DATA_TYPE_FP32, j.comm,
                        j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<float> g = all.Get<float>();
    for (uint32_t q = 0; q < n; ++q) CHECK(g[2 * q] == q && g[2 * q + 1] == q);
    std::vector<float> seq(2 * n);
    std::iota(seq.begin(), seq.end(), 0.0f);
    all.Put(seq);
    CHECK(HcclReduceScatter(all.ptr, one.ptr, 2, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    CHECK(one.Get<float>()[1] == n * (2.0f * r + 1));
    Buffer red(std::vector<float>(3, -1));
    CHECK(HcclReduce(all.ptr, red.ptr, 3, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                     0, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    CHECK(red.Get<float>()[2] == (r == 0 ? 2.0f * n : -1.0f));
    CHECK(HcclScatter(all.ptr, one.ptr, 2, HCCL_DATA_TYPE_FP32, 1, j.comm,
                      j.stream) == HCCL_SUCCESS);
    j.Sync();
    CHECK(one.Get<float>()[0] == 2.0f * r);
    Buffer a2a(2 * n * sizeof(float));
    std::vector<float> mine(2 * n);
    for (uint32_t q = 0; q < 2 * n; ++q) mine[q] = 100.0f * r + q / 2;
    all.Put(mine);
    CHECK(HcclAlltoAll(all.ptr, 2, HCCL_DATA_TYPE_FP32, a2a.ptr, 2,
                       HCCL_DATA_TYPE_FP32, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<float> got = a2a.Get<float>();
    for (uint32_t q = 0; q < n; ++q) CHECK(got[2 * q] == 100.0f * q + r);
  }
  {  // AlltoAllV with gaps, AlltoAllVC, AllGatherV, ReduceScatterV
    std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
    uint64_t s = 0, t = 0;
    for (uint32_t q = 0; q < n; ++q) {
      sc[q] = r + q + 1;
      sd[q] = s;
      s += sc[q] + 1;
      rc[q] = q + r + 1;
      rd[q] = t;
      t += rc[q] + 2;
    }
    std::vector<int32_t> in(s, -7);
    for (uint32_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < sc[q]; ++k) in[sd[q] + k] = 1000 * r + q;
    }
    Buffer send(in);
    Buffer recv(std::vector<int32_t>(t, -1));
    CHECK(HcclAlltoAllV(send.ptr, sc.data(), sd.data(), HCCL_DATA_TYPE_INT32,
                        recv.ptr, rc.data(), rd.data(), HCCL_DATA_TYPE_INT32,
                        j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<int32_t> out = recv.Get<int32_t>();
    for (uint32_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < rc[q]; ++k) {
        CHECK(out[rd[q] + k] == static_cast<int32_t>(1000 * q + r));
      }
      CHECK(out[rd[q] + rc[q]] == -1);
    }
    std::vector<uint64_t> m(n * n);
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = 0; b < n; ++b) m[a * n + b] = (a + 2 * b) % 3;
    }
    uint64_t sends = 0, recvs = 0;
    for (uint32_t q = 0; q < n; ++q) {
      sends += m[r * n + q];
      recvs += m[q * n + r];
    }
    std::vector<int32_t> vc_in(sends);
    uint64_t at = 0;
    for (uint32_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < m[r * n + q]; ++k) vc_in[at++] = 10 * r + q;
    }
    Buffer vs(vc_in), vr(recvs * sizeof(int32_t));
    CHECK(HcclAlltoAllVC(vs.ptr, m.data(), HCCL_DATA_TYPE_INT32, vr.ptr,
                         HCCL_DATA_TYPE_INT32, j.comm,
                         j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<int32_t> vc_out = vr.Get<int32_t>();
    at = 0;
    for (uint32_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < m[q * n + r]; ++k) {
        CHECK(vc_out[at++] == static_cast<int32_t>(10 * q + r));
      }
    }
    std::vector<uint64_t> gc(n), gd(n);
    for (uint32_t q = 0, pos = 0; q < n; ++q) {
      gc[q] = q + 1;
      gd[q] = pos + 1;  // not packed: a gap before each
      pos += q + 2;
    }
    Buffer gsend(std::vector<int32_t>(r + 1, static_cast<int32_t>(r)));
    const uint64_t gtotal = gd[n - 1] + gc[n - 1];
    Buffer grecv(std::vector<int32_t>(gtotal, -1));
    CHECK(HcclAllGatherV(gsend.ptr, r + 1, grecv.ptr, gc.data(), gd.data(),
                         HCCL_DATA_TYPE_INT32, j.comm,
                         j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<int32_t> gv = grecv.Get<int32_t>();
    for (uint32_t q = 0; q < n; ++q) {
      CHECK(gv[gd[q] - 1] == -1);
      for (uint64_t k = 0; k < gc[q]; ++k) CHECK(gv[gd[q] + k] == int32_t(q));
    }
    std::vector<int32_t> rin(gtotal);
    for (uint64_t i = 0; i < gtotal; ++i) rin[i] = static_cast<int32_t>(i + r);
    Buffer rsend(rin), rrecv(gc[r] * sizeof(int32_t));
    CHECK(HcclReduceScatterV(rsend.ptr, gc.data(), gd.data(), rrecv.ptr, gc[r],
                             HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, j.comm,
                             j.stream) == HCCL_SUCCESS);
    j.Sync();
    std::vector<int32_t> rv = rrecv.Get<int32_t>();
    for (uint64_t k = 0; k < gc[r]; ++k) {
      CHECK(rv[k] == static_cast<int32_t>(n * (gd[r] + k) + n * (n - 1) / 2));
    }
  }
  {  // Send/Recv in a ring (a batch), a plain pair, and a barrier
    Buffer s(std::vector<float>(9, fr)), d(9 * sizeof(float));
    HcclSendRecvItem items[2] = {
        {HCCL_SEND, s.ptr, 9, HCCL_DATA_TYPE_FP32, (r + 1) % n},
        {HCCL_RECV, d.ptr, 9, HCCL_DATA_TYPE_FP32, (r + n - 1) % n}};
    CHECK(HcclBatchSendRecv(items, 2, j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    CHECK(d.Get<float>()[8] == static_cast<float>((r + n - 1) % n));
    if (r == 0) {
      CHECK(HcclSend(s.ptr, 9, HCCL_DATA_TYPE_FP32, 1, j.comm, j.stream) ==
            HCCL_SUCCESS);
    } else if (r == 1) {
      CHECK(HcclRecv(d.ptr, 9, HCCL_DATA_TYPE_FP32, 0, j.comm, j.stream) ==
            HCCL_SUCCESS);
    }
    CHECK(HcclBarrier(j.comm, j.stream) == HCCL_SUCCESS);
    j.Sync();
    if (r == 1) CHECK(d.Get<float>()[0] == 0.0f);
  }
}

// Splits the job into even and odd ranks (HcclCreateSubCommConfig: a
// Gloo context of its own through the job's rendezvous) and reduces in each.
void SubComms(Job& j) {
  if (j.n < 2) return;
  std::vector<uint32_t> ids;
  for (uint32_t i = j.r % 2; i < j.n; i += 2) ids.push_back(i);
  HcclCommConfig config;
  HcclCommConfigInit(&config);
  HcclComm sub = nullptr;
  CHECK(HcclCreateSubCommConfig(&j.comm, static_cast<uint32_t>(ids.size()),
                                ids.data(), j.r % 2, j.r / 2, &config,
                                &sub) == HCCL_SUCCESS);
  Buffer b(std::vector<int32_t>(5, static_cast<int32_t>(j.r)));
  CHECK(HcclAllReduce(b.ptr, b.ptr, 5, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
                      sub, j.stream) == HCCL_SUCCESS);
  j.Sync();
  int32_t want = 0;
  for (uint32_t i : ids) want += static_cast<int32_t>(i);
  for (int32_t v : b.Get<int32_t>()) CHECK(v == want);
  CHECK(HcclCommDestroy(sub) == HCCL_SUCCESS);
}

void PeerLost(Job& j) {
  Buffer b(std::vector<float>(4, 1));
  CHECK(HcclAllReduce(b.ptr, b.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                      j.comm, j.stream) == HCCL_SUCCESS);
  j.Sync();
  if (j.r == j.n - 1) {
    std::printf("RANK %u %s EXITING\n", j.r, g_scenario.c_str());
    std::fflush(stdout);
    std::_Exit(0);  // no teardown: as a crash
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK(HcclAllReduce(b.ptr, b.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                      j.comm, j.stream) == HCCL_SUCCESS);
  const aclError e = aclrtSynchronizeStream(j.stream);
  CHECK(e == ACL_ERROR_RT_SUSPECT_REMOTE_ERROR ||
        e == ACL_ERROR_RT_WAIT_TIMEOUT);
  HcclResult why = HCCL_SUCCESS;
  CHECK(HcclGetCommAsyncError(j.comm, &why) == HCCL_SUCCESS);
  CHECK(why == HCCL_E_REMOTE || why == HCCL_E_TIMEOUT);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("RANK %u peer lost: stream %d, async error %d, after %.2f s\n",
              j.r, e, why, took);
  CHECK(took < 20);
}

void Stall(Job& j) {
  Buffer b(std::vector<float>(4, 1));
  if (j.r == j.n - 1) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK(HcclAllReduce(b.ptr, b.ptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                      j.comm, j.stream) == HCCL_SUCCESS);
  const aclError e = aclrtSynchronizeStream(j.stream);
  HcclResult why = HCCL_SUCCESS;
  CHECK(HcclGetCommAsyncError(j.comm, &why) == HCCL_SUCCESS);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("RANK %u stalled peer: stream %d, async error %d, after %.2f s\n",
              j.r, e, why, took);
  CHECK(e == ACL_ERROR_RT_WAIT_TIMEOUT);
  CHECK(why == HCCL_E_TIMEOUT);
  CHECK(took < 2.9);
}

void Snapshot(Job& j, int32_t device) {
  const uint64_t count = 4096;
  Buffer b(std::vector<float>(count, 1));
  CHECK(HcclAllReduce(b.ptr, b.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                      j.comm, j.stream) == HCCL_SUCCESS);
  j.Sync();  // every rank at the same step: n everywhere
  const int pid = getpid();
  CHECK(aclrtSnapShotProcessLock(pid, nullptr) == ACL_SUCCESS);
  CHECK(aclrtSnapShotProcessBackup(pid, nullptr) == ACL_SUCCESS);
  CHECK(aclsimInjectFault(device, ACLSIM_FAULT_DEVICE_MEMORY_LOSS) ==
        ACL_SUCCESS);
  CHECK(aclrtSnapShotProcessRestore(pid, nullptr) == ACL_SUCCESS);
  CHECK(aclrtSnapShotProcessUnlock(pid, nullptr) == ACL_SUCCESS);
  for (float v : b.Get<float>()) CHECK(v == static_cast<float>(j.n));
  CHECK(HcclAllReduce(b.ptr, b.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                      j.comm, j.stream) == HCCL_SUCCESS);
  j.Sync();
  for (float v : b.Get<float>()) CHECK(v == static_cast<float>(j.n * j.n));
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t n =
      static_cast<uint32_t>(std::stoul(Flag(argc, argv, "nranks")));
  const uint32_t r =
      static_cast<uint32_t>(std::stoul(Flag(argc, argv, "rank")));
  g_rank = static_cast<int>(r);
  g_scenario = Flag(argc, argv, "scenario");
  const std::string device_flag = Flag(argc, argv, "device");
  const int32_t device = device_flag.empty() ? static_cast<int32_t>(r % 8)
                                             : std::stoi(device_flag);
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(device) == ACL_SUCCESS);
  Job j{nullptr, nullptr, n, r};
  const std::string table = Flag(argc, argv, "table");
  if (!table.empty()) {
    CHECK(HcclCommInitClusterInfo(table.c_str(), r, &j.comm) == HCCL_SUCCESS);
  } else {
    HcclRootInfo root;
    std::string hex = Flag(argc, argv, "root");
    const std::string file = Flag(argc, argv, "root_file");
    if (!file.empty()) hex = ShareRoot(file, r);
    CHECK(Unhex(hex, &root));
    CHECK(HcclCommInitRootInfo(n, &root, r, &j.comm) == HCCL_SUCCESS);
  }
  CHECK(aclrtCreateStream(&j.stream) == ACL_SUCCESS);
  if (g_scenario == "collectives") {
    Collectives(j);
    SubComms(j);
  } else if (g_scenario == "peer_lost") {
    PeerLost(j);
  } else if (g_scenario == "stall") {
    Stall(j);
  } else if (g_scenario == "snapshot") {
    Snapshot(j, device);
  } else {
    CHECK(!"unknown scenario");
  }
  CHECK(aclrtDestroyStream(j.stream) == ACL_SUCCESS);
  // A failed communicator is destroyed without waiting for its peers.
  CHECK(HcclCommDestroy(j.comm) == HCCL_SUCCESS);
  std::printf("RANK %u %s OK\n", r, g_scenario.c_str());
  std::fflush(stdout);
  aclFinalize();
  return 0;
}
