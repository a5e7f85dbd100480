#include "acl/sysinfo/version_info.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl::sysinfo {
namespace {

int32_t CodeOf(const absl::Status& status) { return rt::ErrorCode(status); }

TEST(ParseVersionInfo, TakesTheFirstVersionLineTrimmed) {
  ASSERT_OK_AND_ASSIGN(std::string v,
                       ParseVersionInfo("Version=9.0.0\nVersion=1.0.0\n"));
  EXPECT_EQ(v, "9.0.0");
  ASSERT_OK_AND_ASSIGN(v, ParseVersionInfo("# comment\n  \tVersion= 8.5.1 \r\n"
                                           "version_dir=x\n"));
  EXPECT_EQ(v, "8.5.1");
  ASSERT_OK_AND_ASSIGN(v, ParseVersionInfo("Version=7.0.0"));  // no newline
  EXPECT_EQ(v, "7.0.0");
  ASSERT_OK_AND_ASSIGN(v, ParseVersionInfo("Version=a b=c"));  // kept whole
  EXPECT_EQ(v, "a b=c");
}

TEST(ParseVersionInfo, MissingOrEmptyValueIsInvalidFile) {
  EXPECT_EQ(CodeOf(ParseVersionInfo("").status()), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(CodeOf(ParseVersionInfo("version=9.0.0\n").status()),
            ACL_ERROR_INVALID_FILE);  // the key is case-sensitive
  EXPECT_EQ(CodeOf(ParseVersionInfo("MyVersion=9.0.0\n").status()),
            ACL_ERROR_INVALID_FILE);  // the key starts the line
  EXPECT_EQ(CodeOf(ParseVersionInfo("Version=  \r\nVersion=9.0.0\n").status()),
            ACL_ERROR_INVALID_FILE);  // the first Version= line decides
}

TEST(EncodeVersion, ReleasesAndPreReleases) {
  const struct {
    const char* text;
    int32_t num;
  } cases[] = {
      {"9.0.0", 90000000},
      {"8.5.1", 80501000},
      {"0.0.0", 0},
      {"1.2.3", 10203000},
      {"213.99.99", 2139999000},
      {"08.05.01", 80501000},
      {"8.5.0.beta.1", 80499801},
      {"8.5.0-rc2", 80499902},
      {"8.5.0rc2", 80499902},
      {"8.5.0.RC.2", 80499902},
      {"8.5.0-Alpha", 80499700},
      {"8.5.0.alpha-99", 80499799},
      {"8.5.0.beta", 80499800},
      {"8.5.0-rc.99", 80499999},
  };
  for (const auto& c : cases) {
    ASSERT_OK_AND_ASSIGN(int32_t num, EncodeVersion(c.text));
    EXPECT_EQ(num, c.num) << c.text;
  }
}

TEST(EncodeVersion, OrdersPreReleasesBeforeTheRelease) {
  const char* ordered[] = {"8.4.99",       "8.5.0-alpha",   "8.5.0-alpha.99",
                           "8.5.0-beta.0", "8.5.0-beta.99", "8.5.0-rc1",
                           "8.5.0-rc99",   "8.5.0",         "8.5.1-alpha",
                           "8.5.1",        "9.0.0"};
  int64_t previous = -1;
  for (const char* text : ordered) {
    ASSERT_OK_AND_ASSIGN(int32_t num, EncodeVersion(text));
    EXPECT_GT(num, previous) << text;
    previous = num;
  }
}

TEST(EncodeVersion, TextWithoutEncodingIsInternalError) {
  const std::string too_many_digits(kVersionPartMaxSize, '0');
  const std::string cases[] = {
      "",
      "9",
      "9.0",
      "9.0.",
      "8.0.RC1",  // older CANN naming: no PATCH
      "8.5.0.1",
      "8.5.0 ",
      "v8.5.0",
      "8.5.0-gamma",
      "8.5.0-beta.",
      "8.5.0-beta..1",
      "8.5.0..beta",
      "8.5.0-beta1x",
      "8.5.0_beta1",
      "8.5.0-beta.100",
      "214.0.0",
      "8.100.0",
      "8.5.100",
      "99999999999999999999.0.0",
      "-1.0.0",
      too_many_digits + "8.0.0",
      absl::StrCat("8.0.", std::string(kVersionPartMaxSize - 1, '0'), "1"),
  };
  for (const std::string& text : cases) {
    EXPECT_EQ(CodeOf(EncodeVersion(text).status()), ACL_ERROR_INTERNAL_ERROR)
        << "\"" << text << "\"";
  }
  // Fewer digits than kVersionPartMaxSize are fine.
  ASSERT_OK_AND_ASSIGN(
      int32_t num, EncodeVersion(absl::StrCat(
                       std::string(kVersionPartMaxSize - 2, '0'), "8.0.0")));
  EXPECT_EQ(num, 80000000);
}

class ReadPackageVersionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    home_ = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(home_);
  }
  void Write(const std::string& package, const std::string& contents) {
    const auto dir = home_ / "share" / "info" / package;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "version.info") << contents;
  }
  std::filesystem::path home_;
};

TEST_F(ReadPackageVersionTest, ReadsTheInstalledFile) {
  Write("runtime", "Version=9.0.0\n");
  ASSERT_OK_AND_ASSIGN(std::string v,
                       ReadPackageVersion(home_.string(), "runtime"));
  EXPECT_EQ(v, "9.0.0");
}

TEST_F(ReadPackageVersionTest, TriesTheOtherSpelling) {
  Write("ge_compiler", "Version=9.1.0\n");
  Write("opp-kernel", "Version=9.2.0\n");
  ASSERT_OK_AND_ASSIGN(std::string v,
                       ReadPackageVersion(home_.string(), "ge-compiler"));
  EXPECT_EQ(v, "9.1.0");
  ASSERT_OK_AND_ASSIGN(v, ReadPackageVersion(home_.string(), "opp_kernel"));
  EXPECT_EQ(v, "9.2.0");
  // The exact spelling wins when both exist.
  Write("ge-compiler", "Version=9.3.0\n");
  ASSERT_OK_AND_ASSIGN(v, ReadPackageVersion(home_.string(), "ge-compiler"));
  EXPECT_EQ(v, "9.3.0");
  // An existing file without a version is not skipped for the other one.
  Write("hccl-x", "nothing\n");
  Write("hccl_x", "Version=1.0.0\n");
  EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), "hccl-x").status()),
            ACL_ERROR_INVALID_FILE);
}

TEST_F(ReadPackageVersionTest, ErrorCodes) {
  Write("runtime", "Version=9.0.0\n");
  Write("empty", "");
  Write("long", "Version=" + std::string(kVersionMaxSize, '1') + "\n");
  std::filesystem::create_directories(home_ / "share/info/dir/version.info");
  EXPECT_EQ(CodeOf(ReadPackageVersion("", "runtime").status()),
            ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), "driver").status()),
            ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), "empty").status()),
            ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), "dir").status()),
            ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), "long").status()),
            ACL_ERROR_INTERNAL_ERROR);
  for (const char* bad : {"", ".", "..", "../runtime", "share/info/runtime"}) {
    EXPECT_EQ(CodeOf(ReadPackageVersion(home_.string(), bad).status()),
              ACL_ERROR_INVALID_PARAM)
        << bad;
  }
}

TEST_F(ReadPackageVersionTest, LongestTextThatFits) {
  const std::string longest(kVersionMaxSize - 1, '7');
  Write("runtime", "Version=" + longest + "\n");
  ASSERT_OK_AND_ASSIGN(std::string v,
                       ReadPackageVersion(home_.string(), "runtime"));
  EXPECT_EQ(v, longest);
}

}  // namespace
}  // namespace ascend::acl::sysinfo
