#include "device/npu/internal/hal_library.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string EnvPath(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

std::vector<std::string> Names(absl::Span<const char* const> names) {
  return std::vector<std::string>(names.begin(), names.end());
}

TEST(HalLibraryTest, SymbolClasses) {
  EXPECT_THAT(
      Names(HalLibrary::RequiredSymbols()),
      ElementsAre("drvGetDevNum", "drvGetDevIDs", "halMemAlloc", "halMemFree",
                  "drvMemcpy", "drvMemsetD8", "halMemGetInfo"));
  EXPECT_THAT(Names(HalLibrary::OptionalSymbols()),
              ElementsAre("halDeviceOpen", "halDeviceClose",
                          "halProcessResBackup", "halProcessResRestore",
                          "halGetSocVersion", "drvMemSmmuQuery"));
}

TEST(HalLibraryTest, ResolvesEverySymbolOfTheStandIn) {
  // The BUILD file points ASCEND_HAL_LIBRARY_PATH at the stand-in.
  const std::string path = HalLibrary::DefaultPath();
  EXPECT_EQ(path, EnvPath(HalLibrary::kPathEnv));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<HalLibrary> hal, HalLibrary::Load(path));
  EXPECT_EQ(hal->path(), path);
  const HalApi& api = hal->api();
  EXPECT_NE(api.drvGetDevNum, nullptr);
  EXPECT_NE(api.drvGetDevIDs, nullptr);
  EXPECT_NE(api.halMemAlloc, nullptr);
  EXPECT_NE(api.halMemFree, nullptr);
  EXPECT_NE(api.drvMemcpy, nullptr);
  EXPECT_NE(api.drvMemsetD8, nullptr);
  EXPECT_NE(api.halMemGetInfo, nullptr);
  EXPECT_NE(api.halDeviceOpen, nullptr);
  EXPECT_NE(api.halDeviceClose, nullptr);
  EXPECT_NE(api.halProcessResBackup, nullptr);
  EXPECT_NE(api.halProcessResRestore, nullptr);
  EXPECT_NE(api.halGetSocVersion, nullptr);
  EXPECT_NE(api.drvMemSmmuQuery, nullptr);

  // The pointers are the library's functions: call one.
  uint32_t count = 0;
  EXPECT_EQ(api.drvGetDevNum(&count), DRV_ERROR_NONE);
  EXPECT_GT(count, 0u);
}

TEST(HalLibraryTest, MissingRequiredSymbolIsNamed) {
  const std::string path = EnvPath("STAND_IN_NO_MEMSET");
  absl::StatusOr<std::unique_ptr<HalLibrary>> hal = HalLibrary::Load(path);
  ASSERT_EQ(hal.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(hal.status().message(), HasSubstr("lacks required symbol"));
  EXPECT_THAT(hal.status().message(), HasSubstr("drvMemsetD8"));
  EXPECT_THAT(hal.status().message(), HasSubstr(path));
  EXPECT_THAT(hal.status().message(), Not(HasSubstr("drvMemcpy")));
}

TEST(HalLibraryTest, MissingOptionalSymbolsAreNull) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<HalLibrary> no_snapshot,
                       HalLibrary::Load(EnvPath("STAND_IN_NO_SNAPSHOT")));
  EXPECT_EQ(no_snapshot->api().halProcessResBackup, nullptr);
  EXPECT_EQ(no_snapshot->api().halProcessResRestore, nullptr);
  EXPECT_NE(no_snapshot->api().halDeviceClose, nullptr);

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<HalLibrary> no_close,
                       HalLibrary::Load(EnvPath("STAND_IN_NO_CLOSE")));
  EXPECT_EQ(no_close->api().halDeviceClose, nullptr);
  EXPECT_NE(no_close->api().halDeviceOpen, nullptr);
  EXPECT_NE(no_close->api().halProcessResBackup, nullptr);
}

TEST(HalLibraryTest, MissingLibrary) {
  const std::string path = "/nonexistent/dir/libascend_hal.so";
  absl::StatusOr<std::unique_ptr<HalLibrary>> hal = HalLibrary::Load(path);
  ASSERT_EQ(hal.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(hal.status().message(), HasSubstr(path));
  EXPECT_THAT(hal.status().message(), HasSubstr("ASCEND_HAL_LIBRARY_PATH"));
  EXPECT_THAT(hal.status().message(), HasSubstr("No such file"));
}

TEST(HalLibraryTest, NotADriverLibrary) {
  // libdl-style system library without any driver symbol: every required one
  // is named.
  absl::StatusOr<std::unique_ptr<HalLibrary>> hal =
      HalLibrary::Load("libm.so.6");
  ASSERT_EQ(hal.status().code(), absl::StatusCode::kUnavailable);
  for (const char* name : HalLibrary::RequiredSymbols()) {
    EXPECT_THAT(hal.status().message(), HasSubstr(name));
  }
}

TEST(HalLibraryTest, DefaultPathWithoutEnvironment) {
  const std::string saved = EnvPath(HalLibrary::kPathEnv);
  ASSERT_EQ(unsetenv(HalLibrary::kPathEnv), 0);
  EXPECT_EQ(HalLibrary::DefaultPath(), "libascend_hal.so");
  ASSERT_EQ(setenv(HalLibrary::kPathEnv, "", 1), 0);
  EXPECT_EQ(HalLibrary::DefaultPath(), "libascend_hal.so");
  ASSERT_EQ(setenv(HalLibrary::kPathEnv, saved.c_str(), 1), 0);
  EXPECT_EQ(HalLibrary::DefaultPath(), saved);
}

}  // namespace
}  // namespace ascend::device::npu::internal
