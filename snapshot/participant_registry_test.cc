#include "snapshot/participant_registry.h"

#include <memory>

#include "gtest/gtest.h"
#include "snapshot/testing_participants.h"
#include "testing/status_matchers.h"

namespace ascend::snapshot {
namespace {

using testing::CallLog;
using testing::RecordingParticipant;

std::unique_ptr<rt::SnapshotParticipant> P(const char* name, CallLog* log) {
  return std::make_unique<RecordingParticipant>(name, log);
}

std::vector<std::string> Names(const ParticipantRegistry& registry) {
  std::vector<std::string> names;
  for (auto* p : registry.participants()) names.emplace_back(p->name());
  return names;
}

TEST(ParticipantRegistryTest, KeepsRegistrationOrder) {
  CallLog log;
  ParticipantRegistry registry;
  ASSERT_OK(registry.Register(P("device", &log)));
  ASSERT_OK(registry.Register(P("stream", &log)));
  ASSERT_OK(registry.Register(P("memory", &log)));
  EXPECT_EQ(Names(registry),
            (std::vector<std::string>{"device", "stream", "memory"}));
  EXPECT_EQ(registry.size(), 3u);
  ASSERT_NE(registry.Find("stream"), nullptr);
  EXPECT_EQ(registry.Find("stream")->name(), "stream");
  EXPECT_EQ(registry.Find("label"), nullptr);
}

TEST(ParticipantRegistryTest, RefusesNullDuplicateAndMalformedNames) {
  CallLog log;
  ParticipantRegistry registry;
  ASSERT_OK(registry.Register(P("memory", &log)));
  EXPECT_EQ(registry.Register(nullptr).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.Register(P("memory", &log)).code(),
            absl::StatusCode::kAlreadyExists);
  for (const char* bad : {"", "Memory", "mem ory", "mem/ory"}) {
    EXPECT_EQ(registry.Register(P(bad, &log)).code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
  ASSERT_OK(registry.Register(P("vmm.mappings_2", &log)));
  EXPECT_EQ(Names(registry),
            (std::vector<std::string>{"memory", "vmm.mappings_2"}));
}

TEST(ParticipantRegistryTest, RegisterAfterInsertsInPlace) {
  CallLog log;
  ParticipantRegistry registry;
  ASSERT_OK(registry.Register(P("device", &log)));
  ASSERT_OK(registry.Register(P("memory", &log)));
  ASSERT_OK(registry.RegisterAfter("device", P("mappings", &log)));
  ASSERT_OK(registry.RegisterAfter("memory", P("models", &log)));
  EXPECT_EQ(Names(registry), (std::vector<std::string>{"device", "mappings",
                                                       "memory", "models"}));
  EXPECT_EQ(registry.RegisterAfter("nothing", P("x", &log)).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(registry.RegisterAfter("device", P("memory", &log)).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(registry.size(), 4u);
}

}  // namespace
}  // namespace ascend::snapshot
