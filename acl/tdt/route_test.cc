// Routes between queues through the C API (doc 17-02_shared_queue_management:
// acltdtBindQueueRoutes, acltdtUnbindQueueRoutes, acltdtQueryQueueRoutes;
// 25-03_Operation_APIs: acltdtQueueRoute, acltdtQueueRouteList,
// acltdtQueueRouteQueryInfo).
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

class RouteTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    // Unbind everything the test bound, then destroy the queues.
    acltdtQueueRouteList* all = acltdtCreateQueueRouteList();
    for (uint32_t src : queues_) {
      for (uint32_t dst : queues_) {
        acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
        EXPECT_ACL_OK(acltdtAddQueueRoute(all, route));
        EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
      }
    }
    EXPECT_ACL_OK(acltdtUnbindQueueRoutes(all));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteList(all));
    for (uint32_t qid : queues_) EXPECT_ACL_OK(acltdtDestroyQueue(qid));
  }
  uint32_t Queue(uint32_t depth = 4) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    EXPECT_ACL_OK(
        acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth));
    uint32_t qid = 0;
    EXPECT_ACL_OK(acltdtCreateQueue(attr, &qid));
    EXPECT_ACL_OK(acltdtDestroyQueueAttr(attr));
    queues_.push_back(qid);
    return qid;
  }
  // A list of the given routes.
  static acltdtQueueRouteList* List(
      std::vector<std::pair<uint32_t, uint32_t>> routes) {
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    for (const auto& [src, dst] : routes) {
      acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
      EXPECT_ACL_OK(acltdtAddQueueRoute(list, route));
      EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
    }
    return list;
  }
  static int32_t Status(const acltdtQueueRouteList* list, size_t index) {
    acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
    int32_t status = -1;
    size_t size = 0;
    EXPECT_ACL_OK(acltdtGetQueueRoute(list, index, route));
    EXPECT_ACL_OK(acltdtGetQueueRouteParam(route,
                                           ACL_TDT_QUEUE_ROUTE_STATUS_INT32,
                                           sizeof status, &size, &status));
    EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
    return status;
  }
  // The bound routes matching a query, as (src, dst, status) triples.
  static std::vector<std::vector<int64_t>> Query(int32_t mode, uint32_t src,
                                                 uint32_t dst) {
    acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
    EXPECT_ACL_OK(acltdtSetQueueRouteQueryInfo(
        info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
    EXPECT_ACL_OK(acltdtSetQueueRouteQueryInfo(
        info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof src, &src));
    EXPECT_ACL_OK(acltdtSetQueueRouteQueryInfo(
        info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof dst, &dst));
    acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
    EXPECT_ACL_OK(acltdtQueryQueueRoutes(info, list));
    std::vector<std::vector<int64_t>> found;
    acltdtQueueRoute* route = acltdtCreateQueueRoute(0, 0);
    for (size_t i = 0; i < acltdtGetQueueRouteNum(list); ++i) {
      uint32_t s = 0, d = 0;
      int32_t status = 0;
      size_t size = 0;
      EXPECT_ACL_OK(acltdtGetQueueRoute(list, i, route));
      EXPECT_ACL_OK(acltdtGetQueueRouteParam(
          route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, &size, &s));
      EXPECT_ACL_OK(acltdtGetQueueRouteParam(
          route, ACL_TDT_QUEUE_ROUTE_DST_UINT32, 4, &size, &d));
      EXPECT_ACL_OK(acltdtGetQueueRouteParam(
          route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &size, &status));
      found.push_back({s, d, status});
    }
    EXPECT_ACL_OK(acltdtDestroyQueueRoute(route));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteList(list));
    EXPECT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(info));
    return found;
  }
  static aclError Put(uint32_t qid, int32_t value) {
    return acltdtEnqueueData(qid, &value, sizeof value, nullptr, 0, 0, 0);
  }
  static int32_t Take(uint32_t qid) {
    int32_t value = -1;
    size_t size = 0;
    if (acltdtDequeueData(qid, &value, sizeof value, &size, nullptr, 0, 0) !=
        ACL_SUCCESS) {
      return -1;
    }
    return value;
  }
  std::vector<uint32_t> queues_;
};

// 25-03 acltdtQueueRoute / acltdtQueueRouteList / acltdtQueueRouteQueryInfo:
// the host objects and their errors.
TEST_F(RouteTest, RouteObjects) {
  acltdtQueueRoute* route = acltdtCreateQueueRoute(3, 4);
  ASSERT_NE(route, nullptr);
  uint32_t value = 0;
  int32_t status = -1;
  size_t size = 0;
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32,
                                         sizeof value, &size, &value));
  EXPECT_EQ(value, 3u);
  EXPECT_EQ(size, 4u);
  uint64_t wide = 0;
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_DST_UINT32,
                                         sizeof wide, &size, &wide));
  EXPECT_EQ(wide, 4u);
  EXPECT_EQ(size, 4u);
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(
      route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &size, &status));
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_UNBIND);
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &size,
                               &value));
  acltdtQueueRouteParamType bad;
  const int32_t raw = 3;
  std::memcpy(&bad, &raw, sizeof bad);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetQueueRouteParam(route, bad, 4, &size, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueRouteParam(nullptr, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4,
                               &size, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4,
                               nullptr, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, &size,
                               nullptr));

  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(acltdtGetQueueRouteNum(list), 0u);
  EXPECT_EQ(acltdtGetQueueRouteNum(nullptr), 0u);
  ASSERT_ACL_OK(acltdtAddQueueRoute(list, route));  // a copy
  ASSERT_ACL_OK(acltdtDestroyQueueRoute(route));
  EXPECT_EQ(acltdtGetQueueRouteNum(list), 1u);
  acltdtQueueRoute* out = acltdtCreateQueueRoute(0, 0);
  ASSERT_ACL_OK(acltdtGetQueueRoute(list, 0, out));
  ASSERT_ACL_OK(acltdtGetQueueRouteParam(out, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4,
                                         &size, &value));
  EXPECT_EQ(value, 3u);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtGetQueueRoute(list, 1, out));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetQueueRoute(nullptr, 0, out));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetQueueRoute(list, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtAddQueueRoute(nullptr, out));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtAddQueueRoute(list, nullptr));
  ASSERT_ACL_OK(acltdtDestroyQueueRoute(out));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyQueueRoute(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDestroyQueueRouteList(nullptr));

  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  ASSERT_NE(info, nullptr);
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueRouteQueryInfo(
          info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 8, &wide));
  acltdtQueueRouteQueryInfoParamType bad_info;
  std::memcpy(&bad_info, &raw, sizeof bad_info);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtSetQueueRouteQueryInfo(info, bad_info, 4, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueRouteQueryInfo(
          nullptr, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &value));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      acltdtSetQueueRouteQueryInfo(
          info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, nullptr));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(info));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtDestroyQueueRouteQueryInfo(nullptr));
}

// 17-02 acltdtBindQueueRoutes: what reaches the source reaches every
// destination, in order; the destinations share the data (no in-place
// changes, the page says).
TEST_F(RouteTest, DataFollowsRoutes) {
  const uint32_t src = Queue(), a = Queue(), b = Queue();
  acltdtQueueRouteList* list = List({{src, a}, {src, b}});
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  EXPECT_EQ(Status(list, 0), ACL_TDT_QUEUE_ROUTE_BIND);
  EXPECT_EQ(Status(list, 1), ACL_TDT_QUEUE_ROUTE_BIND);
  ASSERT_ACL_OK(Put(src, 1));
  ASSERT_ACL_OK(Put(src, 2));
  EXPECT_EQ(Take(src), -1);  // moved on at once
  EXPECT_EQ(Take(a), 1);
  EXPECT_EQ(Take(a), 2);
  acltdtBuf first = nullptr;
  ASSERT_ACL_OK(acltdtDequeue(b, &first, 0));
  EXPECT_EQ(Take(b), 2);

  // Buffers: one for the first destination, references for the others.
  acltdtBuf buf = nullptr;
  ASSERT_ACL_OK(acltdtAllocBuf(16, ACL_TDT_NORMAL_MEM, &buf));
  ASSERT_ACL_OK(acltdtSetBufDataLen(buf, 16));
  ASSERT_ACL_OK(acltdtEnqueue(src, buf, 0));
  acltdtBuf at_a = nullptr, at_b = nullptr;
  ASSERT_ACL_OK(acltdtDequeue(a, &at_a, 0));
  ASSERT_ACL_OK(acltdtDequeue(b, &at_b, 0));
  EXPECT_NE(at_a, at_b);
  void *da = nullptr, *db = nullptr;
  size_t sa = 0, sb = 0;
  ASSERT_ACL_OK(acltdtGetBufData(at_a, &da, &sa));
  ASSERT_ACL_OK(acltdtGetBufData(at_b, &db, &sb));
  EXPECT_EQ(da, db);
  ASSERT_ACL_OK(acltdtFreeBuf(at_a));
  ASSERT_ACL_OK(acltdtFreeBuf(at_b));
  ASSERT_ACL_OK(acltdtFreeBuf(first));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
}

// Data waiting in a source moves when a route is bound; a full destination
// holds it back (and so fills the source) until room is made there.
TEST_F(RouteTest, WaitingDataAndBackpressure) {
  const uint32_t src = Queue(2), dst = Queue(2);
  ASSERT_ACL_OK(Put(src, 1));
  acltdtQueueRouteList* list = List({{src, dst}});
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  ASSERT_ACL_OK(Put(src, 2));  // dst: 1 2
  ASSERT_ACL_OK(Put(src, 3));  // src: 3
  ASSERT_ACL_OK(Put(src, 4));  // src: 3 4
  EXPECT_ACL_ERROR(ACL_ERROR_RT_QUEUE_FULL, Put(src, 5));
  EXPECT_EQ(Take(dst), 1);  // makes room: 3 moves
  EXPECT_EQ(Take(dst), 2);
  EXPECT_EQ(Take(dst), 3);
  EXPECT_EQ(Take(dst), 4);
  EXPECT_EQ(Take(dst), -1);
  // Unbound, data stays where it is.
  ASSERT_ACL_OK(acltdtUnbindQueueRoutes(list));
  EXPECT_EQ(Status(list, 0), ACL_TDT_QUEUE_ROUTE_UNBIND);
  ASSERT_ACL_OK(Put(src, 6));
  EXPECT_EQ(Take(dst), -1);
  EXPECT_EQ(Take(src), 6);
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
}

// 17-02 acltdtBindQueueRoutes 约束说明: no cycles. Routes are one level deep
// (a destination is never a source), no queue routes to itself, both queues
// must exist on the device; each refused route has status UNBIND, the others
// are bound, and the call fails.
TEST_F(RouteTest, RefusedRoutes) {
  const uint32_t q0 = Queue(), q1 = Queue(), q2 = Queue(), q3 = Queue();
  acltdtQueueRouteList* list = List({{q0, q1},
                                     {q1, q2},
                                     {q3, q0},
                                     {q2, q2},
                                     {q0, q3},
                                     {q0, 99999},
                                     {q0, q1}});
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtBindQueueRoutes(list));
  EXPECT_EQ(Status(list, 0), ACL_TDT_QUEUE_ROUTE_BIND);
  EXPECT_EQ(Status(list, 1),
            ACL_TDT_QUEUE_ROUTE_UNBIND);  // q1 is a destination
  EXPECT_EQ(Status(list, 2), ACL_TDT_QUEUE_ROUTE_UNBIND);  // q0 is a source
  EXPECT_EQ(Status(list, 3), ACL_TDT_QUEUE_ROUTE_UNBIND);  // to itself
  EXPECT_EQ(Status(list, 4), ACL_TDT_QUEUE_ROUTE_BIND);
  EXPECT_EQ(Status(list, 5), ACL_TDT_QUEUE_ROUTE_UNBIND);  // no such queue
  EXPECT_EQ(Status(list, 6), ACL_TDT_QUEUE_ROUTE_BIND);    // bound already
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, q0, 0),
            (std::vector<std::vector<int64_t>>{{q0, q1, 1}, {q0, q3, 1}}));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtBindQueueRoutes(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtUnbindQueueRoutes(nullptr));
  // A queue of another device is not there for this device's routes.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  uint32_t other = 0;
  ASSERT_ACL_OK(acltdtCreateQueue(nullptr, &other));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  list = List({{q2, other}});
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtBindQueueRoutes(list));
  EXPECT_EQ(Status(list, 0), ACL_TDT_QUEUE_ROUTE_UNBIND);
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(acltdtDestroyQueue(other));
  ASSERT_ACL_OK(aclrtSetDevice(0));
}

// 17-02 acltdtDestroyQueue: a queue bound by a route is unbound first.
TEST_F(RouteTest, BoundQueuesCannotBeDestroyed) {
  const uint32_t src = Queue(), dst = Queue();
  acltdtQueueRouteList* list = List({{src, dst}});
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtDestroyQueue(src));
  EXPECT_ACL_ERROR(ACL_ERROR_FAILURE, acltdtDestroyQueue(dst));
  ASSERT_ACL_OK(acltdtUnbindQueueRoutes(list));
  ASSERT_ACL_OK(acltdtUnbindQueueRoutes(list));  // not bound: fine
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
}

// 17-02 acltdtQueryQueueRoutes: the modes, the order, and the conditions a
// mode needs.
TEST_F(RouteTest, Queries) {
  const uint32_t s1 = Queue(), s2 = Queue(), d1 = Queue(), d2 = Queue();
  acltdtQueueRouteList* list = List({{s1, d2}, {s1, d1}, {s2, d1}});
  ASSERT_ACL_OK(acltdtBindQueueRoutes(list));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(list));
  using Routes = std::vector<std::vector<int64_t>>;
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, s1, 0),
            (Routes{{s1, d1, 1}, {s1, d2, 1}}));
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_DST, 0, d1),
            (Routes{{s1, d1, 1}, {s2, d1, 1}}));
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, s2, d1),
            (Routes{{s2, d1, 1}}));
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, s2, d2), Routes{});
  EXPECT_EQ(Query(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 0, 0), Routes{});

  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteList* out = List({{7, 8}});
  // No mode yet: refused, and the list is left as it was.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(info, out));
  EXPECT_EQ(acltdtGetQueueRouteNum(out), 1u);
  int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &s1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(info, out));
  mode = ACL_TDT_QUEUE_ROUTE_QUERY_DST;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(info, out));
  mode = 3;  // not a mode
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtQueryQueueRoutes(info, out));
  EXPECT_EQ(acltdtGetQueueRouteNum(out), 1u);
  mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  ASSERT_ACL_OK(acltdtSetQueueRouteQueryInfo(
      info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode));
  ASSERT_ACL_OK(acltdtQueryQueueRoutes(info, out));
  EXPECT_EQ(acltdtGetQueueRouteNum(out), 2u);  // replaced
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtQueryQueueRoutes(nullptr, out));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtQueryQueueRoutes(info, nullptr));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteList(out));
  ASSERT_ACL_OK(acltdtDestroyQueueRouteQueryInfo(info));
}

}  // namespace
}  // namespace ascend
