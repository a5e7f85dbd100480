// What each stand-in library exports, checked the way the npu backend sees
// it: dlopen + dlsym. Each library file is a separate instance with its own
// state.
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "device/npu/internal/hal_abi.h"
#include "gtest/gtest.h"

namespace {

// §5.1: required and recommended symbols, plus the test controls.
const std::vector<std::string>& AllSymbols() {
  static const auto* const symbols = new std::vector<std::string>{
      "drvGetDevNum",
      "drvGetDevIDs",
      "halDeviceOpen",
      "halDeviceClose",
      "halMemAlloc",
      "halMemFree",
      "drvMemcpy",
      "drvMemsetD8",
      "halMemGetInfo",
      "halProcessResBackup",
      "halProcessResRestore",
      "drvMemSmmuQuery",
      "drvDeviceGetPhyIdByIndex",
      "drvDeviceGetIndexByPhyId",
      "halMemcpy",
      "drvGetPlatformInfo",
      "halGetSocVersion",
      "fakeHalInjectError",
      "fakeHalSetCapacity",
      "fakeHalCallCount",
      "fakeHalLastAllocFlag",
      "fakeHalLastCloseType",
  };
  return *symbols;
}

void* Load(const char* env) {
  const char* path = std::getenv(env);
  EXPECT_NE(path, nullptr) << env;
  if (path == nullptr) return nullptr;
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << dlerror();
  return handle;
}

void ExpectExports(void* handle, const std::vector<std::string>& missing) {
  for (const std::string& name : AllSymbols()) {
    const bool expect_missing =
        std::find(missing.begin(), missing.end(), name) != missing.end();
    EXPECT_EQ(dlsym(handle, name.c_str()) == nullptr, expect_missing) << name;
  }
}

TEST(FakeHalExportsTest, CompleteLibrary) {
  void* handle = Load("FAKE_HAL");
  ASSERT_NE(handle, nullptr);
  ExpectExports(handle, {});
  // Internals stay local: only C entry points are exported.
  EXPECT_EQ(dlsym(handle, "_ZN12_GLOBAL__N_110FakeDriver3GetEv"), nullptr);
}

TEST(FakeHalExportsTest, Variants) {
  void* no_snapshot = Load("FAKE_HAL_NO_SNAPSHOT");
  ASSERT_NE(no_snapshot, nullptr);
  ExpectExports(no_snapshot, {"halProcessResBackup", "halProcessResRestore"});
  void* no_close = Load("FAKE_HAL_NO_CLOSE");
  ASSERT_NE(no_close, nullptr);
  ExpectExports(no_close, {"halDeviceClose"});
  void* no_memset = Load("FAKE_HAL_NO_MEMSET");
  ASSERT_NE(no_memset, nullptr);
  ExpectExports(no_memset, {"drvMemsetD8"});
}

TEST(FakeHalExportsTest, EachLibraryHasItsOwnState) {
  void* complete = Load("FAKE_HAL");
  void* no_close = Load("FAKE_HAL_NO_CLOSE");
  ASSERT_NE(complete, nullptr);
  ASSERT_NE(no_close, nullptr);
  auto open_a = reinterpret_cast<decltype(&halDeviceOpen)>(
      dlsym(complete, "halDeviceOpen"));
  auto open_b = reinterpret_cast<decltype(&halDeviceOpen)>(
      dlsym(no_close, "halDeviceOpen"));
  auto restore = reinterpret_cast<decltype(&halProcessResRestore)>(
      dlsym(no_close, "halProcessResRestore"));
  ASSERT_NE(open_a, nullptr);
  ASSERT_NE(open_b, nullptr);
  ASSERT_NE(restore, nullptr);
  halDevOpenIn in = {};
  halDevOpenOut out = {};
  EXPECT_EQ(open_a(0, &in, &out), DRV_ERROR_NONE);
  EXPECT_EQ(open_b(0, &in, &out), DRV_ERROR_NONE);  // a different driver
  EXPECT_EQ(open_a(0, &in, &out), DRV_ERROR_REPEATED_INIT);
  // No backup was ever made in this instance.
  halProcResRestoreInfo info = {};
  EXPECT_EQ(restore(&info), DRV_ERROR_NOT_EXIST);
}

}  // namespace
