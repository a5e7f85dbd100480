#include "runtime/memory/memory_registry.h"

#include <cstdint>

#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace {

MemoryRegistry::DeviceBlock Block(
    uint64_t size, int32_t device, uint16_t module = kAppModuleId,
    DeviceMemoryKind kind = DeviceMemoryKind::kDevice) {
  MemoryRegistry::DeviceBlock block;
  block.size = size;
  block.device_id = device;
  block.module_id = module;
  block.kind = kind;
  return block;
}

TEST(MemoryRegistryTest, FindsTheBlockHoldingAnAddress) {
  MemoryRegistry registry;
  registry.AddDevice(0x1000, Block(0x100, 0));
  registry.AddDevice(0x2000, Block(0x10, 1));
  EXPECT_FALSE(registry.FindDevice(0xFFF).has_value());
  ASSERT_TRUE(registry.FindDevice(0x1000).has_value());
  EXPECT_EQ(registry.FindDevice(0x10FF)->base, 0x1000u);
  EXPECT_FALSE(registry.FindDevice(0x1100).has_value());
  EXPECT_EQ(registry.FindDevice(0x200F)->block.device_id, 1);
  EXPECT_FALSE(registry.FindDevice(0x2010).has_value());
  EXPECT_EQ(registry.Classify(0x1010, true).holder,
            MemoryRegistry::Holder::kDevice);
  EXPECT_EQ(registry.Classify(0x1100, false).holder,
            MemoryRegistry::Holder::kNone);
  ASSERT_TRUE(registry.RemoveDevice(0x1000).has_value());
  EXPECT_FALSE(registry.RemoveDevice(0x1000).has_value());
  EXPECT_FALSE(registry.FindDevice(0x1010).has_value());
}

TEST(MemoryRegistryTest, UsageTracksCurrentAndPeakPerModule) {
  MemoryRegistry registry;
  registry.AddDevice(0x1000, Block(100, 0, 5));
  registry.AddDevice(0x2000, Block(300, 0, 6));
  registry.AddDevice(0x3000, Block(50, 1, 5));
  std::vector<ModuleUsage> usage = registry.Usage(0);
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage[0].module_id, 6);  // largest first
  EXPECT_EQ(usage[1].current_bytes, 100u);
  registry.RemoveDevice(0x2000);
  usage = registry.Usage(0);
  EXPECT_EQ(usage[0].module_id, 5);
  EXPECT_EQ(usage[1].current_bytes, 0u);
  EXPECT_EQ(usage[1].peak_bytes, 300u);
  registry.DropDevice(0);
  EXPECT_FALSE(registry.FindDevice(0x1000).has_value());
  EXPECT_TRUE(registry.FindDevice(0x3000).has_value());
  EXPECT_EQ(registry.Usage(0)[0].current_bytes, 0u);
  EXPECT_EQ(registry.Usage(1)[0].current_bytes, 50u);
  EXPECT_EQ(ModuleName(kAppModuleId), "APP");
  EXPECT_EQ(ModuleName(7), "MODULE_7");
}

TEST(MemoryRegistryTest, RegistrationsMayNotOverlap) {
  MemoryRegistry registry;
  ASSERT_TRUE(registry.Register(0x1000, {0x1000, 2, false}).ok());
  EXPECT_EQ(ErrorCode(registry.Register(0x1FFF, {1, 2, false})),
            ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_EQ(ErrorCode(registry.Register(0x800, {0x801, 2, false})),
            ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_TRUE(registry.Register(0x800, {0x800, 2, false}).ok());
  EXPECT_TRUE(registry.Register(0x2000, {1, 2, false}).ok());
  EXPECT_EQ(registry.RegistrationCount(), 3u);
  EXPECT_EQ(registry.FindRegistration(0x1800)->base, 0x1000u);
  EXPECT_EQ(ErrorCode(registry.Unregister(0x1800)),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  EXPECT_TRUE(registry.Unregister(0x1000).ok());
  EXPECT_FALSE(registry.FindRegistration(0x1800).has_value());
  registry.AddPinned(0x9000, 64);
  EXPECT_EQ(registry.Classify(0x903F, false).holder,
            MemoryRegistry::Holder::kPinned);
  EXPECT_EQ(registry.Classify(0x2000, false).holder,
            MemoryRegistry::Holder::kRegistered);
  registry.RemovePinned(0x9000);
  EXPECT_EQ(registry.Classify(0x903F, false).holder,
            MemoryRegistry::Holder::kNone);
}

TEST(MemoryRegistryTest, AdviceAppliesToTheCoveredPages) {
  MemoryRegistry registry;
  const uint64_t base = 4 * kManagedGranule;
  registry.AddDevice(base, Block(3 * kManagedGranule, 0, kAppModuleId,
                                 DeviceMemoryKind::kManaged));
  const ManagedLocation device1{ACL_MEM_LOCATIONTYPE_DEVICE, 1};
  ASSERT_TRUE(registry
                  .Advise(base + kManagedGranule, kManagedGranule,
                          ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device1)
                  .ok());
  auto pages = registry.ManagedPages(base, 3 * kManagedGranule);
  ASSERT_TRUE(pages.ok());
  ASSERT_EQ(pages->size(), 3u);
  EXPECT_EQ((*pages)[0].preferred.type, ACL_MEM_LOCATIONTYPE_INVALID);
  EXPECT_EQ((*pages)[1].preferred, device1);
  EXPECT_EQ((*pages)[2].preferred.type, ACL_MEM_LOCATIONTYPE_INVALID);
  // A range starting mid-page covers the pages it touches.
  pages = registry.ManagedPages(base + kManagedGranule + 5, 10);
  ASSERT_TRUE(pages.ok());
  EXPECT_EQ(pages->size(), 1u);
  EXPECT_EQ(
      ErrorCode(registry.ManagedPages(base, 4 * kManagedGranule).status()),
      ACL_ERROR_RT_PARAM_INVALID);
  registry.AddDevice(0x1000, Block(64, 0));
  EXPECT_EQ(ErrorCode(registry.CheckManaged(0x1000, 64)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_TRUE(registry.RecordPrefetch(base, kManagedGranule, device1).ok());
  EXPECT_EQ(registry.ManagedPages(base, 1)->front().last_prefetch, device1);
}

}  // namespace
}  // namespace ascend::rt
