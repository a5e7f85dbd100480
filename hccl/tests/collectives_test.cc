// Every HCCL operation with ranks as threads of this process, as CANN's
// examples run them (hicann/hccl examples/01_point_to_point and
// 02_collectives: 8 ranks, rank = device, the values their READMEs show),
// plus every data type and reduction, in-place calls, large operations
// (each rank computing its share) and stream order.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <thread>

#include "hccl/core/reduce.h"
#include "hccl/testing/rank_threads.h"

namespace ascend::hccl::testing {
namespace {

std::vector<float> Iota(size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

std::vector<float> Filled(size_t n, float value) {
  return std::vector<float>(n, value);
}

void Sync(const Rank& r) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(r.stream));
}

// --- CANN's examples, as their READMEs show them --------------------------

TEST(ExamplePatterns, AllReduceSumsEveryRank) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer send(Iota(8));
    DeviceBuffer recv(8 * sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(send.ptr(), recv.ptr(), 8, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(),
              (std::vector<float>{0, 8, 16, 24, 32, 40, 48, 56}));
  });
}

TEST(ExamplePatterns, BroadcastCopiesTheRoot) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer buf(r.rank == 0 ? Iota(8) : Filled(8, -1));
    ASSERT_EQ(HCCL_SUCCESS, HcclBroadcast(buf.ptr(), 8, HCCL_DATA_TYPE_FP32, 0,
                                          r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(buf.Read<float>(), Iota(8));
  });
}

TEST(ExamplePatterns, AllGatherConcatenates) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer send(Filled(1, static_cast<float>(r.rank)));
    DeviceBuffer recv(8 * sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllGather(send.ptr(), recv.ptr(), 1, HCCL_DATA_TYPE_FP32,
                            r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(), Iota(8));
  });
}

TEST(ExamplePatterns, ReduceScatterGivesEachRankItsSum) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer send(Iota(8));
    DeviceBuffer recv(sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclReduceScatter(send.ptr(), recv.ptr(), 1, HCCL_DATA_TYPE_FP32,
                                HCCL_REDUCE_SUM, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(), Filled(1, 8.0f * r.rank));
  });
}

TEST(ExamplePatterns, ReduceWritesOnlyTheRoot) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer send(Iota(8));
    DeviceBuffer recv(Filled(8, 0));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclReduce(send.ptr(), recv.ptr(), 8, HCCL_DATA_TYPE_FP32,
                         HCCL_REDUCE_SUM, 0, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(),
              r.rank == 0 ? (std::vector<float>{0, 8, 16, 24, 32, 40, 48, 56})
                          : Filled(8, 0));
  });
}

TEST(ExamplePatterns, AlltoAllFamily) {
  RunRanks(8, [](Rank& r) {
    const std::vector<float> mine = Filled(8, static_cast<float>(r.rank));
    DeviceBuffer send(mine);
    DeviceBuffer recv(8 * sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAlltoAll(send.ptr(), 1, HCCL_DATA_TYPE_FP32, recv.ptr(), 1,
                           HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(), Iota(8));

    std::vector<uint64_t> counts(8, 1), displs(8);
    std::iota(displs.begin(), displs.end(), 0);
    DeviceBuffer recv_v(8 * sizeof(float));
    ASSERT_EQ(
        HCCL_SUCCESS,
        HcclAlltoAllV(send.ptr(), counts.data(), displs.data(),
                      HCCL_DATA_TYPE_FP32, recv_v.ptr(), counts.data(),
                      displs.data(), HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv_v.Read<float>(), Iota(8));

    std::vector<uint64_t> matrix(64, 1);
    DeviceBuffer recv_vc(8 * sizeof(float));
    ASSERT_EQ(
        HCCL_SUCCESS,
        HcclAlltoAllVC(send.ptr(), matrix.data(), HCCL_DATA_TYPE_FP32,
                       recv_vc.ptr(), HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv_vc.Read<float>(), Iota(8));
  });
}

TEST(ExamplePatterns, ScatterSplitsTheRoot) {
  RunRanks(8, [](Rank& r) {
    std::unique_ptr<DeviceBuffer> send;
    if (r.rank == 0) send = std::make_unique<DeviceBuffer>(Iota(8));
    DeviceBuffer recv(sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclScatter(send ? send->ptr() : nullptr, recv.ptr(), 1,
                          HCCL_DATA_TYPE_FP32, 0, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(), Filled(1, static_cast<float>(r.rank)));
  });
}

TEST(ExamplePatterns, SendRecvPairs) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer buf(
        Filled(8, r.rank % 2 == 0 ? static_cast<float>(r.rank) : -1.0f));
    if (r.rank % 2 == 0) {
      ASSERT_EQ(HCCL_SUCCESS, HcclSend(buf.ptr(), 8, HCCL_DATA_TYPE_FP32,
                                       r.rank + 1, r.comm, r.stream));
    } else {
      ASSERT_EQ(HCCL_SUCCESS, HcclRecv(buf.ptr(), 8, HCCL_DATA_TYPE_FP32,
                                       r.rank - 1, r.comm, r.stream));
    }
    Sync(r);
    EXPECT_EQ(buf.Read<float>(),
              Filled(8, static_cast<float>(r.rank - r.rank % 2)));
  });
}

TEST(ExamplePatterns, BatchSendRecvRing) {
  RunRanks(8, [](Rank& r) {
    DeviceBuffer send(Filled(8, static_cast<float>(r.rank)));
    DeviceBuffer recv(8 * sizeof(float));
    HcclSendRecvItem items[2] = {
        {HCCL_SEND, send.ptr(), 8, HCCL_DATA_TYPE_FP32, (r.rank + 1) % 8},
        {HCCL_RECV, recv.ptr(), 8, HCCL_DATA_TYPE_FP32, (r.rank + 7) % 8}};
    ASSERT_EQ(HCCL_SUCCESS, HcclBatchSendRecv(items, 2, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(recv.Read<float>(),
              Filled(8, static_cast<float>((r.rank + 7) % 8)));
  });
}

// --- The V operations and the barrier --------------------------------------

TEST(VariableCounts, AllGatherVPlacesEachRankAtItsOffset) {
  // Rank r sends r + 1 elements; the output leaves a gap of 1 after each.
  RunRanks(4, [](Rank& r) {
    std::vector<uint64_t> counts = {1, 2, 3, 4}, displs(4);
    uint64_t at = 0;
    for (int i = 0; i < 4; ++i) {
      displs[i] = at;
      at += counts[i] + 1;
    }
    DeviceBuffer send(Filled(r.rank + 1, 10.0f + r.rank));
    DeviceBuffer recv(Filled(at, -1));
    ASSERT_EQ(
        HCCL_SUCCESS,
        HcclAllGatherV(send.ptr(), r.rank + 1, recv.ptr(), counts.data(),
                       displs.data(), HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    std::vector<float> expected;
    for (int i = 0; i < 4; ++i) {
      for (uint64_t k = 0; k < counts[i]; ++k) expected.push_back(10.0f + i);
      expected.push_back(-1);
    }
    EXPECT_EQ(recv.Read<float>(), expected);
  });
}

TEST(VariableCounts, ReduceScatterVSumsEachRanksPart) {
  RunRanks(4, [](Rank& r) {
    std::vector<uint64_t> counts = {2, 0, 3, 1}, displs = {0, 2, 4, 8};
    std::vector<int32_t> in(9);
    for (int i = 0; i < 9; ++i) in[i] = i * 10 + static_cast<int>(r.rank);
    DeviceBuffer send(in);
    DeviceBuffer recv(std::max<uint64_t>(1, counts[r.rank]) * sizeof(int32_t));
    ASSERT_EQ(
        HCCL_SUCCESS,
        HcclReduceScatterV(send.ptr(), counts.data(), displs.data(), recv.ptr(),
                           counts[r.rank], HCCL_DATA_TYPE_INT32,
                           HCCL_REDUCE_SUM, r.comm, r.stream));
    Sync(r);
    const std::vector<int32_t> out = recv.Read<int32_t>();
    for (uint64_t k = 0; k < counts[r.rank]; ++k) {
      const int i = static_cast<int>(displs[r.rank] + k);
      EXPECT_EQ(out[k], 4 * i * 10 + 6) << "rank " << r.rank << " k " << k;
    }
  });
}

TEST(VariableCounts, AlltoAllVWithUnevenCountsAndGaps) {
  // Rank q sends q + j + 1 elements to rank j, valued 100 q + j.
  RunRanks(3, [](Rank& r) {
    const uint32_t n = 3;
    std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
    uint64_t s = 0, t = 0;
    for (uint32_t j = 0; j < n; ++j) {
      sc[j] = r.rank + j + 1;
      sd[j] = s;
      s += sc[j] + 2;  // gaps in the send buffer
      rc[j] = j + r.rank + 1;
      rd[j] = t;
      t += rc[j] + 1;
    }
    std::vector<float> in(s, -5);
    for (uint32_t j = 0; j < n; ++j) {
      for (uint64_t k = 0; k < sc[j]; ++k) in[sd[j] + k] = 100.0f * r.rank + j;
    }
    DeviceBuffer send(in);
    DeviceBuffer recv(Filled(t, -1));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAlltoAllV(send.ptr(), sc.data(), sd.data(),
                            HCCL_DATA_TYPE_FP32, recv.ptr(), rc.data(),
                            rd.data(), HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    const std::vector<float> out = recv.Read<float>();
    for (uint32_t q = 0; q < n; ++q) {
      for (uint64_t k = 0; k < rc[q]; ++k) {
        EXPECT_EQ(out[rd[q] + k], 100.0f * q + r.rank);
      }
      EXPECT_EQ(out[rd[q] + rc[q]], -1);  // the gap is not written
    }
  });
}

TEST(Barrier, EveryStreamWaitsForTheLastRank) {
  std::atomic<int> arrived{0};
  RunRanks(4, [&](Rank& r) {
    if (r.rank == 3)
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    arrived++;
    ASSERT_EQ(HCCL_SUCCESS, HcclBarrier(r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(arrived.load(), 4);
  });
}

// --- Types, reductions, sizes ----------------------------------------------

template <typename T>
T Combine(HcclReduceOp op, T a, T b) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return static_cast<T>(a + b);
    case HCCL_REDUCE_PROD:
      return static_cast<T>(a * b);
    case HCCL_REDUCE_MAX:
      return std::max(a, b);
    default:
      return std::min(a, b);
  }
}

// Rank r's element i: small values so sums and products stay exact (from -1
// for signed and floating types, from 0 for unsigned ones).
template <typename T>
T Value(uint32_t rank, uint64_t i) {
  const int base = static_cast<int>((i * 7 + rank * 3) % 5);
  return static_cast<T>(std::is_unsigned<T>::value ? base : base - 1);
}

template <typename T>
void CheckAllReduce(HcclDataType type, HcclReduceOp op, uint64_t count,
                    bool in_place) {
  SCOPED_TRACE(std::to_string(type) + "/" + std::to_string(op) + "/" +
               std::to_string(count) + (in_place ? " in place" : ""));
  RunRanks(4, [&](Rank& r) {
    std::vector<T> in(count);
    for (uint64_t i = 0; i < count; ++i) in[i] = Value<T>(r.rank, i);
    DeviceBuffer send(in);
    DeviceBuffer recv(count * sizeof(T));
    void* out = in_place ? send.ptr() : recv.ptr();
    ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(send.ptr(), out, count, type, op,
                                          r.comm, r.stream));
    Sync(r);
    const std::vector<T> got = in_place ? send.Read<T>() : recv.Read<T>();
    for (uint64_t i = 0; i < count; ++i) {
      T want = Value<T>(0, i);
      for (uint32_t q = 1; q < 4; ++q) {
        want = Combine(op, want, Value<T>(q, i));
      }
      ASSERT_EQ(got[i], want) << "element " << i;
    }
  });
}

TEST(Types, AllReduceEveryTypeAndOp) {
  for (HcclReduceOp op :
       {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
    CheckAllReduce<int8_t>(HCCL_DATA_TYPE_INT8, op, 300, false);
    if (op != HCCL_REDUCE_PROD) {
      CheckAllReduce<int16_t>(HCCL_DATA_TYPE_INT16, op, 300, false);
    }
    CheckAllReduce<int32_t>(HCCL_DATA_TYPE_INT32, op, 300, false);
    CheckAllReduce<int64_t>(HCCL_DATA_TYPE_INT64, op, 300, false);
    CheckAllReduce<float>(HCCL_DATA_TYPE_FP32, op, 300, false);
    CheckAllReduce<double>(HCCL_DATA_TYPE_FP64, op, 300, false);
  }
  CheckAllReduce<uint64_t>(HCCL_DATA_TYPE_UINT64, HCCL_REDUCE_SUM, 300, false);
}

TEST(Types, LargeAllReduceSplitsTheWorkAndWorksInPlace) {
  // 4 x 300 000 floats: past the size one rank computes alone.
  CheckAllReduce<float>(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 300000, false);
  CheckAllReduce<float>(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, 300000, true);
  CheckAllReduce<int32_t>(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, 100003, true);
}

TEST(Types, SixteenBitFloatsReduceInFp32AndRoundOnce) {
  // Four ranks each add 1/3: rounded once the sum is 4/3's nearest fp16 and
  // bfp16, not the result of rounding after every addition.
  for (HcclDataType type : {HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_BFP16}) {
    const bool half = type == HCCL_DATA_TYPE_FP16;
    auto encode = [&](float f) {
      return half ? FloatToHalf(f) : FloatToBf16(f);
    };
    auto decode = [&](uint16_t h) {
      return half ? HalfToFloat(h) : Bf16ToFloat(h);
    };
    RunRanks(4, [&](Rank& r) {
      const uint16_t third = encode(1.0f / 3.0f);
      DeviceBuffer buf(std::vector<uint16_t>(1000, third));
      ASSERT_EQ(HCCL_SUCCESS, HcclAllReduce(buf.ptr(), buf.ptr(), 1000, type,
                                            HCCL_REDUCE_SUM, r.comm, r.stream));
      Sync(r);
      const float exact = 4 * decode(third);
      for (uint16_t v : buf.Read<uint16_t>()) {
        ASSERT_EQ(v, encode(exact));
      }
    });
  }
}

TEST(Types, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // rounds up to infinity
  EXPECT_EQ(FloatToHalf(5.960464477539063e-08f), 0x0001);  // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x0001), 5.960464477539063e-08f);
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(NAN))));
  EXPECT_EQ(FloatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(FloatToBf16(1.00390625f), 0x3f80);  // a tie rounds to even
  EXPECT_EQ(FloatToBf16(1.01171875f), 0x3f82);  // a tie rounds to even (up)
  EXPECT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(NAN))));
}

TEST(Types, LargeOperationsOfEveryKind) {
  // Sizes past the one-rank threshold, so each rank computes its share.
  const uint64_t n = 200000;
  RunRanks(4, [&](Rank& r) {
    DeviceBuffer all(Filled(4 * n, static_cast<float>(r.rank)));
    DeviceBuffer one(Filled(n, static_cast<float>(r.rank + 1)));
    DeviceBuffer out(4 * n * sizeof(float));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllGather(one.ptr(), out.ptr(), n, HCCL_DATA_TYPE_FP32,
                            r.comm, r.stream));
    Sync(r);
    std::vector<float> got = out.Read<float>();
    for (uint32_t q = 0; q < 4; ++q) ASSERT_EQ(got[q * n + 7], q + 1.0f);
    ASSERT_EQ(HCCL_SUCCESS,
              HcclReduceScatter(all.ptr(), one.ptr(), n, HCCL_DATA_TYPE_FP32,
                                HCCL_REDUCE_SUM, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(one.Read<float>()[n - 1], 6.0f);
    ASSERT_EQ(HCCL_SUCCESS, HcclBroadcast(all.ptr(), 4 * n, HCCL_DATA_TYPE_FP32,
                                          2, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(all.Read<float>()[4 * n - 1], 2.0f);
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAlltoAll(all.ptr(), n, HCCL_DATA_TYPE_FP32, out.ptr(), n,
                           HCCL_DATA_TYPE_FP32, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(out.Read<float>()[3 * n], 2.0f);
  });
}

// --- Stream semantics
// ---------------------------------------------------------

TEST(Streams, ACopyQueuedBeforeTheCollectiveIsSeen) {
  RunRanks(4, [](Rank& r) {
    DeviceBuffer buf(Filled(1024, 0));
    std::vector<float> host(1024, static_cast<float>(r.rank + 1));
    // The copy and the collective are both queued before either runs.
    ASSERT_EQ(ACL_SUCCESS,
              aclrtMemcpyAsync(buf.ptr(), buf.bytes(), host.data(), buf.bytes(),
                               ACL_MEMCPY_HOST_TO_DEVICE, r.stream));
    ASSERT_EQ(HCCL_SUCCESS,
              HcclAllReduce(buf.ptr(), buf.ptr(), 1024, HCCL_DATA_TYPE_FP32,
                            HCCL_REDUCE_SUM, r.comm, r.stream));
    Sync(r);
    EXPECT_EQ(buf.Read<float>(), Filled(1024, 10));
  });
}

TEST(Streams, ManyCollectivesQueuedAtOnceRunInOrder) {
  RunRanks(4, [](Rank& r) {
    DeviceBuffer buf(Filled(16, 1));
    for (int i = 0; i < 10; ++i) {
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(buf.ptr(), buf.ptr(), 16, HCCL_DATA_TYPE_FP32,
                              HCCL_REDUCE_SUM, r.comm, r.stream));
    }
    Sync(r);
    EXPECT_EQ(buf.Read<float>(), Filled(16, 1048576));  // 4^10
  });
}

TEST(Streams, TwoCommunicatorsOnTwoStreamsDoNotMix) {
  HcclRootInfo a, b;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&a));
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&b));
  OnThreads(4, [&](uint32_t rank) {
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(static_cast<int32_t>(rank)));
    HcclComm ca, cb;
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitRootInfo(4, &a, rank, &ca));
    ASSERT_EQ(HCCL_SUCCESS, HcclCommInitRootInfo(4, &b, rank, &cb));
    aclrtStream sa, sb;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&sa));
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&sb));
    DeviceBuffer x(Filled(64, 1));
    DeviceBuffer y(Filled(64, 2));
    for (int i = 0; i < 5; ++i) {
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(x.ptr(), x.ptr(), 64, HCCL_DATA_TYPE_FP32,
                              HCCL_REDUCE_MAX, ca, sa));
      ASSERT_EQ(HCCL_SUCCESS,
                HcclAllReduce(y.ptr(), y.ptr(), 64, HCCL_DATA_TYPE_FP32,
                              HCCL_REDUCE_SUM, cb, sb));
    }
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(sa));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(sb));
    EXPECT_EQ(x.Read<float>(), Filled(64, 1));
    EXPECT_EQ(y.Read<float>(), Filled(64, 2048));  // 2 * 4^5
    aclrtDestroyStream(sa);
    aclrtDestroyStream(sb);
    HcclCommDestroy(ca);
    HcclCommDestroy(cb);
  });
}

}  // namespace
}  // namespace ascend::hccl::testing
