#include "acl/sysinfo/version_info.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "acl/acl_base.h"
#include "runtime/base/error.h"

namespace ascend::acl::sysinfo {
namespace {

using rt::Error;

constexpr absl::string_view kVersionKey = "Version=";
// version.info files are a few lines; a larger file is read only this far,
// so a mistaken path (a device node, a huge file) cannot exhaust memory.
constexpr std::streamsize kMaxFileBytes = 1 << 20;

constexpr int64_t kWeightMajor = 10000000;
constexpr int64_t kWeightMinor = 100000;
constexpr int64_t kWeightPatch = 1000;
constexpr int64_t kMaxMajor = 213;  // 213.99.99 is the largest that fits
constexpr int64_t kMaxSmallPart = 99;

absl::Status NoNumber(absl::string_view version, absl::string_view why) {
  return Error(
      ACL_ERROR_INTERNAL_ERROR,
      absl::StrCat("version \"", version, "\" has no numeric encoding: ", why));
}

// Consumes a run of decimal digits from the front of `text`: its value, or
// -1 when there is none or it is too long.
int64_t TakeNumber(absl::string_view& text) {
  size_t n = 0;
  while (n < text.size() && absl::ascii_isdigit(text[n])) ++n;
  if (n == 0 || n >= kVersionPartMaxSize) return -1;
  int64_t value = 0;
  for (size_t i = 0; i < n; ++i) {
    // Saturate: anything this large fails the range checks anyway.
    value = std::min<int64_t>(value * 10 + (text[i] - '0'), INT32_MAX);
  }
  text.remove_prefix(n);
  return value;
}

bool TakeChar(absl::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

bool TakeSeparator(absl::string_view& text) {
  return TakeChar(text, '.') || TakeChar(text, '-');
}

// The Version= value of the file at `path`; *missing tells whether the file
// could not be opened at all.
absl::StatusOr<std::string> ReadVersionFile(const std::string& path,
                                            bool* missing) {
  std::ifstream file(path, std::ios::binary);
  *missing = !file.is_open();
  if (*missing) {
    return Error(ACL_ERROR_INVALID_FILE, absl::StrCat("cannot open ", path));
  }
  std::string contents(static_cast<size_t>(kMaxFileBytes), '\0');
  file.read(contents.data(), kMaxFileBytes);
  contents.resize(static_cast<size_t>(file.gcount()));
  absl::StatusOr<std::string> version = ParseVersionInfo(contents);
  if (!version.ok()) {
    return Error(rt::ErrorCode(version.status()),
                 absl::StrCat(path, ": ", version.status().message()));
  }
  return version;
}

// The other spelling of a CANN package name: '-' -> '_' when it has a '-',
// else '_' -> '-'.
std::string AlternativeName(absl::string_view package) {
  std::string name(package);
  if (absl::StrContains(package, '-')) {
    std::replace(name.begin(), name.end(), '-', '_');
  } else {
    std::replace(name.begin(), name.end(), '_', '-');
  }
  return name;
}

}  // namespace

bool IsValidPackageName(absl::string_view package) {
  return !package.empty() && package != "." && package != ".." &&
         !absl::StrContains(package, '/');
}

absl::StatusOr<std::string> ParseVersionInfo(absl::string_view contents) {
  for (absl::string_view line : absl::StrSplit(contents, '\n')) {
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, kVersionKey)) continue;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) {
      return Error(ACL_ERROR_INVALID_FILE, "the Version= line is empty");
    }
    return std::string(line);
  }
  return Error(ACL_ERROR_INVALID_FILE, "no Version= line");
}

absl::StatusOr<std::string> ReadPackageVersion(absl::string_view home,
                                               absl::string_view package) {
  if (!IsValidPackageName(package)) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("invalid package name \"", package, "\""));
  }
  if (home.empty()) {
    return Error(ACL_ERROR_INVALID_FILE,
                 "ASCEND_HOME_PATH is not set: source <install>/set_env.sh");
  }
  auto path_of = [&](absl::string_view name) {
    return absl::StrCat(home, "/share/info/", name, "/version.info");
  };
  bool missing = false;
  absl::StatusOr<std::string> version =
      ReadVersionFile(path_of(package), &missing);
  const std::string alternative = AlternativeName(package);
  if (missing && alternative != package) {
    version = ReadVersionFile(path_of(alternative), &missing);
  }
  if (!version.ok()) return version.status();
  if (version->size() >= kVersionMaxSize) {
    return Error(
        ACL_ERROR_INTERNAL_ERROR,
        absl::StrCat("version of ", package, " has ", version->size(),
                     " characters; at most ", kVersionMaxSize - 1, " fit"));
  }
  return version;
}

absl::StatusOr<int32_t> EncodeVersion(absl::string_view version) {
  absl::string_view rest = version;
  const int64_t major = TakeNumber(rest);
  if (major < 0 || !TakeChar(rest, '.')) {
    return NoNumber(version, "expected MAJOR.");
  }
  const int64_t minor = TakeNumber(rest);
  if (minor < 0 || !TakeChar(rest, '.')) {
    return NoNumber(version, "expected MAJOR.MINOR.");
  }
  const int64_t patch = TakeNumber(rest);
  if (patch < 0) return NoNumber(version, "expected MAJOR.MINOR.PATCH");
  if (major > kMaxMajor || minor > kMaxSmallPart || patch > kMaxSmallPart) {
    return NoNumber(version, "MAJOR must be <= 213, MINOR and PATCH <= 99");
  }
  int64_t num =
      major * kWeightMajor + minor * kWeightMinor + patch * kWeightPatch;
  if (rest.empty()) return static_cast<int32_t>(num);

  TakeSeparator(rest);
  int64_t weight = 0;
  for (const auto& [tag, tag_weight] :
       {std::pair<absl::string_view, int64_t>{"alpha", 300},
        {"beta", 200},
        {"rc", 100}}) {
    if (absl::StartsWithIgnoreCase(rest, tag)) {
      rest.remove_prefix(tag.size());
      weight = tag_weight;
      break;
    }
  }
  if (weight == 0) {
    return NoNumber(version, "a suffix must be alpha, beta or rc");
  }
  int64_t pre = 0;
  if (!rest.empty()) {
    TakeSeparator(rest);
    pre = TakeNumber(rest);
    if (pre < 0 || !rest.empty()) {
      return NoNumber(version, "expected a number after the pre-release tag");
    }
    if (pre > kMaxSmallPart) {
      return NoNumber(version, "a pre-release number must be <= 99");
    }
  }
  return static_cast<int32_t>(num - weight + pre);
}

}  // namespace ascend::acl::sysinfo
