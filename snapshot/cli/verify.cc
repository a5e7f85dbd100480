#include "snapshot/cli/verify.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device/checksum.h"
#include "snapshot/image_file.h"

namespace ascend::snapshot::cli {

namespace {

using internal::ImageHeader;
using internal::ImagePiece;

// Pieces are read through a buffer of this many bytes (a multiple of the
// checksum's block, so that it can be fed piecewise).
constexpr uint64_t kBufferBytes = uint64_t{1} << 20;
static_assert(kBufferBytes % device::kChecksumBlockBytes == 0);

std::string HexId(const uint8_t* id, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) absl::StrAppendFormat(&out, "%02x", id[i]);
  return out;
}

// Reads `n` bytes at `offset`; false (with errno set, 0 at end of file) when
// they cannot all be read.
bool ReadAt(int fd, uint64_t offset, uint8_t* to, uint64_t n) {
  while (n > 0) {
    const ssize_t got = pread(fd, to, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) errno = 0;
      return false;
    }
    to += got;
    offset += static_cast<uint64_t>(got);
    n -= static_cast<uint64_t>(got);
  }
  return true;
}

// The checksum of the bytes of `piece`, or nullopt with `error` set.
std::optional<uint64_t> PieceChecksum(int fd, const ImagePiece& piece,
                                      std::vector<uint8_t>& buffer,
                                      std::string* error) {
  device::ChecksumState state;
  uint64_t at = internal::kImageHeaderBytes + piece.offset;
  uint64_t left = piece.size;
  for (;;) {
    const uint64_t n = left > kBufferBytes ? kBufferBytes : left;
    if (!ReadAt(fd, at, buffer.data(), n)) {
      *error = errno == 0 ? "it ends early" : std::strerror(errno);
      return std::nullopt;
    }
    if (n == left) return state.Finish(buffer.data(), n);
    state.Update(buffer.data(), n);
    at += n;
    left -= n;
  }
}

// How `h` (and the piece table's checksum) differ from what the manifest
// says of the file; empty when they agree.
std::vector<std::string> IdentityDifferences(
    const internal::ParsedImageFile& parsed, const Manifest& manifest,
    int32_t device, const ManifestFile& file) {
  const ImageHeader& h = parsed.header;
  std::vector<std::string> diffs;
  auto differ = [&diffs](const char* what, const std::string& in_file,
                         const std::string& in_manifest) {
    if (in_file != in_manifest) {
      diffs.push_back(
          absl::StrCat(what, " ", in_file, " (image.json: ", in_manifest, ")"));
    }
  };
  differ("pid", absl::StrCat(h.pid), absl::StrCat(manifest.pid));
  differ("process start", absl::StrCat(h.process_start),
         absl::StrCat(manifest.process_start));
  differ("image id", HexId(h.image_id, sizeof(h.image_id)), manifest.image_id);
  differ("device", absl::StrCat(h.device), absl::StrCat(device));
  differ("backup", absl::StrCat(h.backup), absl::StrCat(file.backup));
  differ("data bytes", absl::StrCat(h.data_bytes),
         absl::StrCat(file.data_bytes));
  differ("piece count", absl::StrCat(h.piece_count), absl::StrCat(file.pieces));
  differ("piece table checksum", Hex64(parsed.table_checksum),
         Hex64(file.table_checksum));
  return diffs;
}

// Checks one file; the damage, if any. Adds its pieces to `result` when it
// is intact.
std::optional<std::string> VerifyFile(const std::string& directory,
                                      const Manifest& manifest, int32_t device,
                                      const ManifestFile& file,
                                      std::vector<uint8_t>& buffer,
                                      VerifyResult* result) {
  const std::string path = absl::StrCat(directory, "/", file.name);
  const std::string name = file.name;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::StrCat("image file ", name,
                          " is missing (image.json lists it)");
    }
    return absl::StrCat("image file ", name,
                        " cannot be opened: ", std::strerror(errno));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::StrCat("image file ", name, " is not a regular file");
  }
  // Its messages name the file as given here.
  absl::StatusOr<internal::ParsedImageFile> parsed =
      internal::ParseImageFile(fd, name);
  if (!parsed.ok()) return std::string(parsed.status().message());
  const std::vector<std::string> diffs =
      IdentityDifferences(*parsed, manifest, device, file);
  if (!diffs.empty()) {
    return absl::StrCat(
        "image file ", name,
        " is not the one image.json lists: ", absl::StrJoin(diffs, ", "));
  }
  uint64_t bad = 0;
  std::string first_bad;
  for (size_t i = 0; i < parsed->pieces.size(); ++i) {
    const ImagePiece& p = parsed->pieces[i];
    std::string error;
    const std::optional<uint64_t> sum = PieceChecksum(fd, p, buffer, &error);
    if (!sum.has_value()) {
      return absl::StrCat("image file ", name, ": cannot read piece ", i, ": ",
                          error);
    }
    if (*sum != p.checksum) {
      if (bad++ == 0) {
        first_bad = absl::StrFormat(
            "piece %d of %d (device address 0x%x, %d bytes at data offset %d)",
            i, parsed->pieces.size(), p.addr, p.size, p.offset);
      }
    }
  }
  if (bad > 0) {
    return absl::StrCat(
        "image file ", name, ": ", first_bad, " fails its checksum",
        bad > 1 ? absl::StrCat(", and ", bad - 1, " more piece(s) do") : "");
  }
  ++result->files;
  result->pieces += parsed->pieces.size();
  result->data_bytes += parsed->header.data_bytes;
  return std::nullopt;
}

}  // namespace

VerifyResult VerifyImage(const std::string& directory,
                         const Manifest& manifest) {
  VerifyResult result;
  std::vector<uint8_t> buffer(kBufferBytes);
  for (const ManifestDevice& device : manifest.devices) {
    for (const ManifestFile& file : device.files) {
      std::optional<std::string> damage =
          VerifyFile(directory, manifest, device.device, file, buffer, &result);
      if (damage.has_value()) {
        result.damage.push_back({file.name, *std::move(damage)});
      }
    }
  }
  return result;
}

}  // namespace ascend::snapshot::cli
