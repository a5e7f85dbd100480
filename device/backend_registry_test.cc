#include "device/backend_registry.h"

#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"
#include "testing/stub_backend.h"

namespace ascend::device {
namespace {

using ::ascend::testing::StubBackend;
using ::ascend::testing::StubBackendOptions;

// A backend that only knows its name.
BackendRegistry::Factory Named(std::string name) {
  return [name]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    StubBackendOptions options;
    options.name = name;
    return std::unique_ptr<Backend>(new StubBackend(options));
  };
}

class ScopedBackendEnv {
 public:
  explicit ScopedBackendEnv(const char* value) {
    if (value == nullptr) {
      unsetenv(kBackendEnvVar);
    } else {
      setenv(kBackendEnvVar, value, 1);
    }
  }
  ~ScopedBackendEnv() { unsetenv(kBackendEnvVar); }
};

TEST(BackendRegistryTest, CreatesRegisteredBackendsByName) {
  BackendRegistry registry;
  ASSERT_OK(registry.Register("sim", Named("sim")));
  ASSERT_OK(registry.Register("npu", Named("npu")));
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"npu", "sim"}));
  EXPECT_TRUE(registry.Contains("npu"));
  EXPECT_FALSE(registry.Contains("gpu"));
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> npu,
                       registry.Create("npu"));
  EXPECT_EQ(npu->name(), "npu");
  // Each Create makes a new backend.
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> again,
                       registry.Create("npu"));
  EXPECT_NE(again.get(), npu.get());
}

TEST(BackendRegistryTest, RejectsBadRegistrations) {
  BackendRegistry registry;
  ASSERT_OK(registry.Register("sim", Named("sim")));
  EXPECT_EQ(registry.Register("sim", Named("sim")).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(registry.Register("", Named("x")).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.Register("x", nullptr).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.Names(), std::vector<std::string>{"sim"});
}

TEST(BackendRegistryTest, UnknownNamesListTheKnownBackends) {
  BackendRegistry registry;
  EXPECT_EQ(registry.Create("sim").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(registry.Create("sim").status().message(),
                                "none registered"));
  ASSERT_OK(registry.Register("sim", Named("sim")));
  ASSERT_OK(registry.Register("npu", Named("npu")));
  const absl::Status status = registry.Create("tpu").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "\"tpu\"")) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), "npu, sim")) << status;
}

TEST(BackendRegistryTest, FactoryErrorsPassThrough) {
  BackendRegistry registry;
  ASSERT_OK(registry.Register(
      "npu", []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return absl::UnavailableError("libascend_hal.so not found");
      }));
  ASSERT_OK(registry.Register("null",
                              []() -> absl::StatusOr<std::unique_ptr<Backend>> {
                                return std::unique_ptr<Backend>();
                              }));
  EXPECT_EQ(registry.Create("npu").status(),
            absl::UnavailableError("libascend_hal.so not found"));
  EXPECT_EQ(registry.Create("null").status().code(),
            absl::StatusCode::kInternal);
}

TEST(BackendRegistryTest, EnvironmentSelectsTheBackend) {
  BackendRegistry registry;
  ASSERT_OK(registry.Register("sim", Named("sim")));
  ASSERT_OK(registry.Register("npu", Named("npu")));
  {
    ScopedBackendEnv env(nullptr);
    EXPECT_EQ(SelectedBackendName(), "sim");
    ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                         registry.CreateFromEnvironment());
    EXPECT_EQ(backend->name(), "sim");
  }
  {
    ScopedBackendEnv env("");
    EXPECT_EQ(SelectedBackendName(), "sim");
  }
  {
    ScopedBackendEnv env("npu");
    ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                         registry.CreateFromEnvironment());
    EXPECT_EQ(backend->name(), "npu");
  }
  {
    ScopedBackendEnv env("cuda");
    const absl::Status status = registry.CreateFromEnvironment().status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(status.message(), kBackendEnvVar)) << status;
    EXPECT_TRUE(absl::StrContains(status.message(), "npu, sim")) << status;
  }
}

TEST(BackendRegistryTest, ConcurrentRegistrationAndCreation) {
  BackendRegistry registry;
  ASSERT_OK(registry.Register("sim", Named("sim")));
  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&registry, &created, t] {
      for (int i = 0; i < 50; ++i) {
        EXPECT_OK(
            registry.Register("b" + std::to_string(t * 100 + i), Named("x")));
        if (registry.Create("sim").ok()) ++created;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(created, 200);
  EXPECT_EQ(registry.Names().size(), 201u);
}

}  // namespace
}  // namespace ascend::device
