// Every object kind has its descriptor, at its index, and the kinds with an
// id space map exhaustion to their own code.
#include "runtime/resource_kinds.h"

#include <set>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/object_kind.h"

namespace ascend::rt {
namespace {

TEST(ResourceKindsTest, EveryKindHasItsDescriptor) {
  std::set<std::string> names;
  for (int i = 0; i < kObjectKindCount; ++i) {
    const KindDescriptor& d = Descriptor(static_cast<ObjectKind>(i));
    EXPECT_EQ(static_cast<int>(d.kind), i);
    ASSERT_NE(d.name, nullptr);
    EXPECT_TRUE(names.insert(d.name).second) << "duplicate name " << d.name;
  }
  // The core's kinds close through their descriptor; the families' kinds
  // through their objects' OnDeviceClose (HandleTable::Insert), so the
  // core's table names none of their classes.
  EXPECT_NE(Descriptor(ObjectKind::kContext).on_close, nullptr);
  EXPECT_NE(Descriptor(ObjectKind::kStream).on_close, nullptr);
  EXPECT_EQ(Descriptor(ObjectKind::kEvent).on_close, nullptr);
  EXPECT_EQ(Descriptor(ObjectKind::kNotify).on_close, nullptr);
  EXPECT_EQ(Descriptor(ObjectKind::kCntNotify).on_close, nullptr);
}

TEST(ResourceKindsTest, IdSpacesAndTheirCodes) {
  EXPECT_FALSE(Descriptor(ObjectKind::kContext).id_space.has_value());
  EXPECT_EQ(Descriptor(ObjectKind::kStream).id_space,
            device::ResourceKind::kStream);
  EXPECT_EQ(Descriptor(ObjectKind::kStream).out_of_ids_code,
            ACL_ERROR_RT_NO_STREAM_RESOURCE);
  EXPECT_EQ(Descriptor(ObjectKind::kEvent).id_space,
            device::ResourceKind::kEvent);
  EXPECT_EQ(Descriptor(ObjectKind::kEvent).out_of_ids_code,
            ACL_ERROR_RT_NO_EVENT_RESOURCE);
  EXPECT_EQ(Descriptor(ObjectKind::kNotify).id_space,
            device::ResourceKind::kNotify);
  EXPECT_EQ(Descriptor(ObjectKind::kNotify).out_of_ids_code,
            ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
  EXPECT_EQ(Descriptor(ObjectKind::kCntNotify).id_space,
            device::ResourceKind::kCntNotify);
  EXPECT_EQ(Descriptor(ObjectKind::kCntNotify).out_of_ids_code,
            ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
  // No two kinds share an id space.
  std::set<int> spaces;
  for (int i = 0; i < kObjectKindCount; ++i) {
    const auto& space = Descriptor(static_cast<ObjectKind>(i)).id_space;
    if (space.has_value()) {
      EXPECT_TRUE(spaces.insert(static_cast<int>(*space)).second);
      EXPECT_LT(static_cast<int>(*space), device::kResourceKindCount);
    }
  }
}

}  // namespace
}  // namespace ascend::rt
