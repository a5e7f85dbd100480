#include "device/builtin_backends.h"

#include <stdlib.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "device/backend_registry.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device {
namespace {

TEST(BuiltinBackendsTest, RegistersTheSimulatorAsTheDefault) {
  BackendRegistry registry;
  ASSERT_OK(RegisterBuiltinBackends(registry));
  EXPECT_TRUE(registry.Contains("sim"));
  unsetenv(kBackendEnvVar);
  setenv("ACLSIM_DEVICE_COUNT", "2", 1);
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                       registry.CreateFromEnvironment());
  EXPECT_EQ(backend->name(), "sim");
  EXPECT_EQ(backend->DeviceCount(), 2);
  unsetenv("ACLSIM_DEVICE_COUNT");
}

TEST(BuiltinBackendsTest, CreateBackendFromEnvironmentSelectsByName) {
  unsetenv(kBackendEnvVar);
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> sim,
                       CreateBackendFromEnvironment());
  EXPECT_EQ(sim->name(), "sim");
  setenv(kBackendEnvVar, "sim", 1);
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> named,
                       CreateBackendFromEnvironment());
  EXPECT_EQ(named->name(), "sim");
  setenv(kBackendEnvVar, "quantum", 1);
  const absl::Status unknown = CreateBackendFromEnvironment().status();
  EXPECT_EQ(unknown.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.message().find("\"quantum\""), std::string::npos)
      << unknown;
  EXPECT_NE(unknown.message().find("sim"), std::string::npos) << unknown;
  unsetenv(kBackendEnvVar);
}

TEST(BuiltinBackendsTest, RegisteringTwiceFails) {
  BackendRegistry registry;
  ASSERT_OK(RegisterBuiltinBackends(registry));
  EXPECT_EQ(RegisterBuiltinBackends(registry).code(),
            absl::StatusCode::kAlreadyExists);
}

TEST(BuiltinBackendsTest, SimulatorConfigurationErrorsReachTheCaller) {
  BackendRegistry registry;
  ASSERT_OK(RegisterBuiltinBackends(registry));
  setenv("ACLSIM_DEVICE_COUNT", "many", 1);
  EXPECT_EQ(registry.Create("sim").status().code(),
            absl::StatusCode::kInvalidArgument);
  unsetenv("ACLSIM_DEVICE_COUNT");
}

}  // namespace
}  // namespace ascend::device

namespace ascend::device {
namespace {

// DESIGN.md §1.3: selecting npu without a driver library gives a backend
// with no devices (and a log line), not a failure of the whole runtime.
TEST(BuiltinBackendsNpuTest, NpuIsRegisteredAndWorksWithoutADriver) {
  BackendRegistry registry;
  ASSERT_TRUE(RegisterBuiltinBackends(registry).ok());
  EXPECT_TRUE(registry.Contains("npu"));
  setenv("ASCEND_HAL_LIBRARY_PATH", "/nonexistent/libascend_hal.so", 1);
  absl::StatusOr<std::unique_ptr<Backend>> npu = registry.Create("npu");
  unsetenv("ASCEND_HAL_LIBRARY_PATH");
  ASSERT_TRUE(npu.ok()) << npu.status();
  EXPECT_EQ((*npu)->name(), "npu");
  EXPECT_EQ((*npu)->DeviceCount(), 0);
  EXPECT_FALSE((*npu)->Open(0).ok());
}

}  // namespace
}  // namespace ascend::device
