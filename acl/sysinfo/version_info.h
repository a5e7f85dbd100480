// Package versions as CANN records them: the `Version=` line of
// <home>/share/info/<package>/version.info, and its numeric encoding. The
// rules (and the error codes the C entry points return) are documented with
// aclsysGetVersionStr / aclsysGetVersionNum in acl/acl_rt.h.
//
//   absl::StatusOr<std::string> text = ReadPackageVersion(home, "runtime");
//   absl::StatusOr<int32_t> num = EncodeVersion(*text);  // "9.0.0" -> 90000000
//
// Failures carry their exact ACL code (runtime/base/error.h).
#ifndef ASCENDCL_ACL_SYSINFO_VERSION_INFO_H_
#define ASCENDCL_ACL_SYSINFO_VERSION_INFO_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ascend::acl::sysinfo {

// Longest version text, terminating NUL included (ACL_PKG_VERSION_MAX_SIZE).
inline constexpr size_t kVersionMaxSize = 128;
// Each number of a version has fewer digits than this
// (ACL_PKG_VERSION_PARTS_MAX_SIZE).
inline constexpr size_t kVersionPartMaxSize = 64;

// Whether `package` may name a directory under share/info: non-empty, not
// "." or "..", no '/'.
bool IsValidPackageName(absl::string_view package);

// The version text of `package` under the install tree `home`, trying the
// '-'/'_' alternative spelling when the file is missing. Errors:
// ACL_ERROR_INVALID_PARAM for a bad package name; ACL_ERROR_INVALID_FILE for
// an empty home, a missing file, or contents ParseVersionInfo rejects;
// ACL_ERROR_INTERNAL_ERROR for text of kVersionMaxSize characters or more.
absl::StatusOr<std::string> ReadPackageVersion(absl::string_view home,
                                               absl::string_view package);

// The value of the first line of `contents` starting with "Version=" (after
// blanks), trimmed; ACL_ERROR_INVALID_FILE when there is no such line or its
// value is empty.
absl::StatusOr<std::string> ParseVersionInfo(absl::string_view contents);

// The numeric encoding of version text; ACL_ERROR_INTERNAL_ERROR for text
// that has none.
absl::StatusOr<int32_t> EncodeVersion(absl::string_view version);

}  // namespace ascend::acl::sysinfo

#endif  // ASCENDCL_ACL_SYSINFO_VERSION_INFO_H_
