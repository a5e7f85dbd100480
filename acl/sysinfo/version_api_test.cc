// aclsysGetVersionStr / aclsysGetVersionNum through the C API, against
// install trees made under TEST_TMPDIR and named by ASCEND_HOME_PATH.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

class VersionApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    home_ = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
            "version_api" /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(home_);
    std::filesystem::create_directories(home_);
    ASSERT_EQ(setenv("ASCEND_HOME_PATH", home_.c_str(), 1), 0);
  }
  void TearDown() override { unsetenv("ASCEND_HOME_PATH"); }

  void Write(const std::string& package, const std::string& contents) {
    const auto dir = home_ / "share" / "info" / package;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "version.info") << contents;
  }

  std::filesystem::path home_;
};

TEST_F(VersionApiTest, ReadsTheRuntimeVersion) {
  Write("runtime", "Version=9.0.0\nversion_dir=9.0.0\n");
  char pkg[] = "runtime";
  char text[ACL_PKG_VERSION_MAX_SIZE];
  std::memset(text, 'x', sizeof text);
  ASSERT_ACL_OK(aclsysGetVersionStr(pkg, text));
  EXPECT_STREQ(text, "9.0.0");
  EXPECT_EQ(text[6], 'x');  // at most strlen + 1 bytes are written
  int32_t num = 0;
  ASSERT_ACL_OK(aclsysGetVersionNum(pkg, &num));
  EXPECT_EQ(num, 90000000);
}

TEST_F(VersionApiTest, PreReleaseAndAlternativeSpelling) {
  Write("ge_compiler", "Version=8.5.0.beta.1\n");
  char pkg[] = "ge-compiler";
  char text[ACL_PKG_VERSION_MAX_SIZE] = {0};
  ASSERT_ACL_OK(aclsysGetVersionStr(pkg, text));
  EXPECT_STREQ(text, "8.5.0.beta.1");
  int32_t num = 0;
  ASSERT_ACL_OK(aclsysGetVersionNum(pkg, &num));
  EXPECT_EQ(num, 80499801);
}

TEST_F(VersionApiTest, NullArgumentsAreInvalidParam) {
  Write("runtime", "Version=9.0.0\n");
  char pkg[] = "runtime";
  char text[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(nullptr, text));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(pkg, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(nullptr, &num));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(pkg, nullptr));
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
}

TEST_F(VersionApiTest, BadPackageNamesAreInvalidParam) {
  Write("runtime", "Version=9.0.0\n");
  char text[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num;
  for (std::string name : {"", ".", "..", "../info/runtime", "a/b"}) {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclsysGetVersionStr(name.data(), text))
        << name;
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                     aclsysGetVersionNum(name.data(), &num))
        << name;
  }
}

TEST_F(VersionApiTest, MissingEnvironmentFileOrLineIsInvalidFile) {
  Write("runtime", "Version=9.0.0\n");
  Write("noline", "Name=runtime\n");
  Write("emptyvalue", "Version=\n");
  char pkg[] = "runtime";
  char text[ACL_PKG_VERSION_MAX_SIZE] = "untouched";
  int32_t num = 7;
  auto expect_invalid_file = [&](char* name) {
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE, aclsysGetVersionStr(name, text))
        << name;
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE, aclsysGetVersionNum(name, &num))
        << name;
    EXPECT_STREQ(text, "untouched");
    EXPECT_EQ(num, 7);
  };
  char missing[] = "driver";
  char noline[] = "noline";
  char emptyvalue[] = "emptyvalue";
  expect_invalid_file(missing);
  expect_invalid_file(noline);
  expect_invalid_file(emptyvalue);
  ASSERT_EQ(setenv("ASCEND_HOME_PATH", "", 1), 0);
  expect_invalid_file(pkg);
  ASSERT_EQ(unsetenv("ASCEND_HOME_PATH"), 0);
  expect_invalid_file(pkg);
  ASSERT_EQ(setenv("ASCEND_HOME_PATH", (home_ / "nonexistent").c_str(), 1), 0);
  expect_invalid_file(pkg);
}

TEST_F(VersionApiTest, TextTooLongForTheBufferIsInternalError) {
  const std::string longest(ACL_PKG_VERSION_MAX_SIZE - 1, '9');
  Write("fits", "Version=" + longest + "\n");
  Write("toolong", "Version=" + longest + "9\n");
  char fits[] = "fits";
  char toolong[] = "toolong";
  char text[ACL_PKG_VERSION_MAX_SIZE] = "untouched";
  int32_t num = 7;
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR,
                   aclsysGetVersionStr(toolong, text));
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR,
                   aclsysGetVersionNum(toolong, &num));
  EXPECT_STREQ(text, "untouched");
  EXPECT_EQ(num, 7);
  ASSERT_ACL_OK(aclsysGetVersionStr(fits, text));
  EXPECT_EQ(std::string(text), longest);
}

TEST_F(VersionApiTest, TextWithoutNumberIsInternalErrorForNumOnly) {
  Write("runtime", "Version=8.0.RC1\n");
  char pkg[] = "runtime";
  char text[ACL_PKG_VERSION_MAX_SIZE] = {0};
  ASSERT_ACL_OK(aclsysGetVersionStr(pkg, text));
  EXPECT_STREQ(text, "8.0.RC1");
  int32_t num = 7;
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR, aclsysGetVersionNum(pkg, &num));
  EXPECT_EQ(num, 7);
}

}  // namespace
