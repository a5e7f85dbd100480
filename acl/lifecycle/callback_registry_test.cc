#include "acl/lifecycle/callback_registry.h"

#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/lifecycle/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::FinalizeFn;
using ::ascend::acl::testing::InitFn;
using ::ascend::acl::testing::Probe;
using ::ascend::acl::testing::Recorder;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

int32_t Code(const absl::Status& status) { return rt::ErrorCode(status); }

// Notifies every init registration of `type` in `list`.
int32_t NotifyType(const InitCallbackList& list, CallbackType type,
                   absl::string_view config = "") {
  return NotifyInit(list.SnapshotOf(type).callbacks, config);
}

int32_t NotifyType(const FinalizeCallbackList& list, CallbackType type) {
  return NotifyFinalize(list.SnapshotOf(type).callbacks);
}

TEST(CallbackRegistryTest, NullFunctionIsInvalidParam) {
  CallbackRegistry registry;
  EXPECT_EQ(Code(registry.init().Add(ACL_REG_TYPE_ACL_MODEL, nullptr, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(registry.init().Remove(ACL_REG_TYPE_ACL_MODEL, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(registry.finalize().Add(kOtherCallbackType, nullptr, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(registry.finalize().Remove(kOtherCallbackType, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(registry.init().size(), 0u);
  EXPECT_EQ(registry.finalize().size(), 0u);
}

TEST(CallbackRegistryTest, EveryTypeButOtherHasOneSlot) {
  CallbackRegistry registry;
  for (CallbackType type : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u}) {
    EXPECT_OK(registry.init().Add(type, InitFn<0>, nullptr));
    // Another function, or the same one again: both refused.
    EXPECT_EQ(Code(registry.init().Add(type, InitFn<1>, nullptr)),
              ACL_ERROR_INTERNAL_ERROR);
    EXPECT_EQ(Code(registry.init().Add(type, InitFn<0>, nullptr)),
              ACL_ERROR_INTERNAL_ERROR);
    EXPECT_OK(registry.finalize().Add(type, FinalizeFn<0>, nullptr));
    EXPECT_EQ(Code(registry.finalize().Add(type, FinalizeFn<1>, nullptr)),
              ACL_ERROR_INTERNAL_ERROR);
  }
  EXPECT_EQ(registry.init().size(), 8u);
  EXPECT_EQ(registry.finalize().size(), 8u);
}

TEST(CallbackRegistryTest, TypesAreNotRangeChecked) {
  CallbackRegistry registry;
  EXPECT_OK(registry.init().Add(100, InitFn<0>, nullptr));
  EXPECT_EQ(Code(registry.init().Add(100, InitFn<1>, nullptr)),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_OK(registry.init().Add(0xFFFE, InitFn<0>, nullptr));
  EXPECT_OK(registry.finalize().Add(12345, FinalizeFn<0>, nullptr));
  EXPECT_OK(registry.init().Remove(100, InitFn<0>));
}

TEST(CallbackRegistryTest, OtherTakesManyIncludingDuplicates) {
  Recorder log;
  Probe a("a", &log), b("b", &log), c("c", &log);
  CallbackRegistry registry;
  EXPECT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &a));
  EXPECT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &b));
  EXPECT_OK(registry.init().Add(kOtherCallbackType, InitFn<1>, &c));
  EXPECT_EQ(NotifyType(registry.init(), kOtherCallbackType), 0);
  EXPECT_THAT(log.events(), ElementsAre("init:a", "init:b", "init:c"));
}

TEST(CallbackRegistryTest, RemoveTakesTheFirstMatchOfTypeAndFunction) {
  Recorder log;
  Probe a("a", &log), b("b", &log), c("c", &log);
  CallbackRegistry registry;
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<0>, &a));
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<1>, &b));
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<0>, &c));
  // userData plays no part: the first FinalizeFn<0> (a) goes.
  EXPECT_OK(registry.finalize().Remove(kOtherCallbackType, FinalizeFn<0>));
  EXPECT_EQ(NotifyType(registry.finalize(), kOtherCallbackType), 0);
  EXPECT_THAT(log.events(), ElementsAre("finalize:b", "finalize:c"));

  log.Clear();
  EXPECT_OK(registry.finalize().Remove(kOtherCallbackType, FinalizeFn<0>));
  EXPECT_EQ(Code(registry.finalize().Remove(kOtherCallbackType, FinalizeFn<0>)),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(NotifyType(registry.finalize(), kOtherCallbackType), 0);
  EXPECT_THAT(log.events(), ElementsAre("finalize:b"));
}

TEST(CallbackRegistryTest, UnknownRemovalIsInternalError) {
  CallbackRegistry registry;
  // No entry of the type at all.
  EXPECT_EQ(Code(registry.init().Remove(ACL_REG_TYPE_ACL_DVPP, InitFn<0>)),
            ACL_ERROR_INTERNAL_ERROR);
  // An entry of the type, but another function.
  ASSERT_OK(registry.init().Add(ACL_REG_TYPE_ACL_DVPP, InitFn<0>, nullptr));
  EXPECT_EQ(Code(registry.init().Remove(ACL_REG_TYPE_ACL_DVPP, InitFn<1>)),
            ACL_ERROR_INTERNAL_ERROR);
  // The function, but under another type.
  EXPECT_EQ(Code(registry.init().Remove(ACL_REG_TYPE_ACL_MODEL, InitFn<0>)),
            ACL_ERROR_INTERNAL_ERROR);
  // The lists are independent.
  EXPECT_EQ(
      Code(registry.finalize().Remove(ACL_REG_TYPE_ACL_DVPP, FinalizeFn<0>)),
      ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(registry.init().size(), 1u);
}

TEST(CallbackRegistryTest, RemovedSlotCanBeTakenAgain) {
  CallbackRegistry registry;
  ASSERT_OK(registry.init().Add(ACL_REG_TYPE_ACL_MODEL, InitFn<0>, nullptr));
  ASSERT_OK(registry.init().Remove(ACL_REG_TYPE_ACL_MODEL, InitFn<0>));
  EXPECT_OK(registry.init().Add(ACL_REG_TYPE_ACL_MODEL, InitFn<1>, nullptr));
}

TEST(CallbackRegistryTest, NotifyPassesBytesAndUserDataInOrder) {
  Recorder log;
  Probe a("a", &log), b("b", &log);
  CallbackRegistry registry;
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &a));
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<1>, &b));
  const std::string config("{\"k\": 1}\n\0tail", 14);
  EXPECT_EQ(NotifyType(registry.init(), kOtherCallbackType, config), 0);
  EXPECT_EQ(a.last_config, config);
  EXPECT_EQ(b.last_config, config);
  EXPECT_EQ(a.last_config_pointer, config.data());
}

TEST(CallbackRegistryTest, EmptyConfigIsAnEmptyStringNotNull) {
  Recorder log;
  Probe a("a", &log);
  CallbackRegistry registry;
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &a));
  EXPECT_EQ(
      NotifyType(registry.init(), kOtherCallbackType, absl::string_view()), 0);
  ASSERT_NE(a.last_config_pointer, nullptr);
  EXPECT_EQ(a.last_config_pointer[0], '\0');
}

TEST(CallbackRegistryTest, FirstFailureStopsAndIsReturnedVerbatim) {
  Recorder log;
  Probe a("a", &log), b("b", &log), c("c", &log);
  b.result = 123456;
  CallbackRegistry registry;
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &a));
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<1>, &b));
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<2>, &c));
  EXPECT_EQ(NotifyType(registry.init(), kOtherCallbackType), 123456);
  EXPECT_THAT(log.events(), ElementsAre("init:a", "init:b"));

  log.Clear();
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<0>, &a));
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<1>, &b));
  ASSERT_OK(registry.finalize().Add(kOtherCallbackType, FinalizeFn<2>, &c));
  EXPECT_EQ(NotifyType(registry.finalize(), kOtherCallbackType), 123456);
  EXPECT_THAT(log.events(), ElementsAre("finalize:a", "finalize:b"));
}

TEST(CallbackRegistryTest, CallbacksMayChangeTheRegistryWhileNotified) {
  Recorder log;
  Probe a("a", &log), b("b", &log), added("added", &log);
  CallbackRegistry registry;
  // a removes b and itself and adds `added`: all under notification, which
  // must neither deadlock nor touch freed entries.
  a.action = [&] {
    EXPECT_OK(registry.init().Remove(kOtherCallbackType, InitFn<1>));
    EXPECT_OK(registry.init().Remove(kOtherCallbackType, InitFn<0>));
    EXPECT_OK(registry.init().Add(kOtherCallbackType, InitFn<2>, &added));
  };
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, &a));
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<1>, &b));
  EXPECT_EQ(NotifyType(registry.init(), kOtherCallbackType), 0);
  // The next notification sees the change.
  log.Clear();
  EXPECT_EQ(NotifyType(registry.init(), kOtherCallbackType), 0);
  EXPECT_THAT(log.events(), ElementsAre("init:added"));
}

TEST(CallbackRegistryTest, SnapshotsAndSequencesTellWhatCameLater) {
  CallbackRegistry registry;
  EXPECT_EQ(registry.init().NextSequence(), 0u);
  ASSERT_OK(registry.init().Add(kOtherCallbackType, InitFn<0>, nullptr));
  ASSERT_OK(registry.init().Add(ACL_REG_TYPE_ACL_MODEL, InitFn<1>, nullptr));
  InitCallbackList::Snapshot snapshot =
      registry.init().SnapshotOf(kOtherCallbackType);
  ASSERT_EQ(snapshot.callbacks.size(), 1u);
  EXPECT_EQ(snapshot.callbacks[0].sequence, 0u);
  EXPECT_EQ(snapshot.next_sequence, 2u);

  ASSERT_OK(registry.init().Add(ACL_REG_TYPE_ACL_DVPP, InitFn<2>, nullptr));
  ASSERT_OK(registry.init().Remove(ACL_REG_TYPE_ACL_MODEL, InitFn<1>));
  auto later = registry.init().RegisteredSince(1);
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].type, static_cast<CallbackType>(ACL_REG_TYPE_ACL_DVPP));
  EXPECT_EQ(later[0].sequence, 2u);
  // Sequences are never reused.
  ASSERT_OK(registry.init().Add(ACL_REG_TYPE_ACL_MODEL, InitFn<1>, nullptr));
  EXPECT_EQ(registry.init().NextSequence(), 4u);
  EXPECT_THAT(registry.init().SnapshotOf(ACL_REG_TYPE_ACL_RETR).callbacks,
              IsEmpty());
}

TEST(CallbackRegistryTest, ConcurrentAddAndRemoveKeepEveryEntry) {
  CallbackRegistry registry;
  testing::RunThreads(8, [&](int i) {
    for (int n = 0; n < 200; ++n) {
      EXPECT_OK(
          registry.finalize().Add(kOtherCallbackType, FinalizeFn<0>, nullptr));
      if (n % 2 == 1) {
        EXPECT_OK(
            registry.finalize().Remove(kOtherCallbackType, FinalizeFn<0>));
      }
    }
  });
  EXPECT_EQ(registry.finalize().size(), 8u * 100u);
  EXPECT_EQ(registry.finalize().NextSequence(), 8u * 200u);
}

}  // namespace
}  // namespace ascend::acl
