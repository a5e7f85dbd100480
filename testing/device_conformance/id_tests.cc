// Conformance: stream / event / notify / count notify ids.
#include <cstdint>
#include <set>

#include "absl/status/status.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/status_matchers.h"

namespace ascend::device::conformance {
namespace {

constexpr ResourceKind kKinds[] = {ResourceKind::kStream, ResourceKind::kEvent,
                                   ResourceKind::kNotify,
                                   ResourceKind::kCntNotify};

TEST_P(IdConformanceTest, AllocatedIdsAreDistinctPerKind) {
  for (const ResourceKind kind : kKinds) {
    std::set<uint32_t> ids;
    for (int i = 0; i < 32; ++i) {
      ASSERT_OK_AND_ASSIGN(const uint32_t id, device().AllocateId(kind));
      EXPECT_TRUE(ids.insert(id).second) << "id " << id << " handed out twice";
    }
  }
}

TEST_P(IdConformanceTest, KindsAreIndependent) {
  ASSERT_OK_AND_ASSIGN(const uint32_t stream,
                       device().AllocateId(ResourceKind::kStream));
  EXPECT_OK(device().ClaimId(ResourceKind::kEvent, stream));
  EXPECT_OK(device().ClaimId(ResourceKind::kNotify, stream));
  EXPECT_OK(device().ClaimId(ResourceKind::kCntNotify, stream));
  EXPECT_EQ(device().ClaimId(ResourceKind::kStream, stream).code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_P(IdConformanceTest, ClaimTakesExactIdsAndReleaseReturnsThem) {
  for (const ResourceKind kind : kKinds) {
    ASSERT_OK(device().ClaimId(kind, 5));
    EXPECT_EQ(device().ClaimId(kind, 5).code(),
              absl::StatusCode::kAlreadyExists);
    // Allocation never hands out a claimed id.
    for (int i = 0; i < 16; ++i) {
      ASSERT_OK_AND_ASSIGN(const uint32_t id, device().AllocateId(kind));
      EXPECT_NE(id, 5u);
    }
    device().ReleaseId(kind, 5);
    EXPECT_OK(device().ClaimId(kind, 5));
    ASSERT_OK_AND_ASSIGN(const uint32_t allocated, device().AllocateId(kind));
    EXPECT_EQ(device().ClaimId(kind, allocated).code(),
              absl::StatusCode::kAlreadyExists);
    device().ReleaseId(kind, allocated);
    EXPECT_OK(device().ClaimId(kind, allocated));
  }
}

TEST_P(IdConformanceTest, ReopenDropsEveryId) {
  std::set<uint32_t> streams;
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK_AND_ASSIGN(const uint32_t id,
                         device().AllocateId(ResourceKind::kStream));
    streams.insert(id);
  }
  ASSERT_OK(device().ClaimId(ResourceKind::kEvent, 9));
  ASSERT_OK(device().Reopen());
  for (const uint32_t id : streams) {
    EXPECT_OK(device().ClaimId(ResourceKind::kStream, id));
  }
  EXPECT_OK(device().ClaimId(ResourceKind::kEvent, 9));
}

TEST_P(IdConformanceTest, ClosingTheDeviceDropsEveryId) {
  ASSERT_OK(device().ClaimId(ResourceKind::kNotify, 3));
  device_.reset();
  ASSERT_OK_AND_ASSIGN(device_, backend().Open(0));
  EXPECT_OK(device().ClaimId(ResourceKind::kNotify, 3));
}

}  // namespace
}  // namespace ascend::device::conformance
