#include "snapshot/cli/image_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "snapshot/image_file.h"
#include "snapshot/image_format.h"

namespace ascend::snapshot::cli {

namespace {

using nlohmann::json;

// A manifest larger than this is not one the runtime wrote (it lists a few
// entries per device).
constexpr uint64_t kMaxManifestBytes = uint64_t{16} << 20;
// Arrays and objects nest three levels deep in a manifest; anything far
// deeper is refused before nlohmann's recursive copy and dump meet it.
constexpr int kMaxNesting = 32;

std::string Errno(int err) { return std::strerror(err); }

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The deepest nesting of arrays and objects in JSON `text` (brackets inside
// strings do not count).
int Nesting(absl::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// 16 lowercase or uppercase hex digits.
bool ParseHex64(const std::string& text, uint64_t* value) {
  if (text.size() != 16) return false;
  for (const char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return absl::SimpleHexAtoi(text, value);
}

// What is wrong with a member of the manifest; thrown by the readers below
// and turned into a status by ParseManifest.
struct Malformed {
  std::string what;
};

const json& Member(const json& object, const char* key,
                   const std::string& where) {
  if (!object.is_object()) throw Malformed{where + " is not an object"};
  const auto found = object.find(key);
  if (found == object.end()) {
    throw Malformed{absl::StrCat(where, " has no \"", key, "\"")};
  }
  return *found;
}

std::string Path(const std::string& where, const char* key) {
  return where.empty() ? std::string(key) : absl::StrCat(where, ".", key);
}

uint64_t Unsigned(const json& object, const char* key, const std::string& where,
                  uint64_t max = std::numeric_limits<uint64_t>::max()) {
  const json& value = Member(object, key, where);
  if (!value.is_number_unsigned()) {
    throw Malformed{absl::StrCat(Path(where, key), " is ", value.dump(),
                                 ", not a non-negative integer")};
  }
  const uint64_t n = value.get<uint64_t>();
  if (n > max) {
    throw Malformed{
        absl::StrCat(Path(where, key), " is ", n, ", more than ", max)};
  }
  return n;
}

int64_t Signed(const json& object, const char* key, const std::string& where,
               int64_t min, int64_t max) {
  const json& value = Member(object, key, where);
  if (!value.is_number_integer() ||
      (value.is_number_unsigned() &&
       value.get<uint64_t>() > static_cast<uint64_t>(max))) {
    throw Malformed{absl::StrCat(Path(where, key), " is ", value.dump(),
                                 ", not an integer in [", min, ", ", max, "]")};
  }
  const int64_t n = value.get<int64_t>();
  if (n < min || n > max) {
    throw Malformed{absl::StrCat(Path(where, key), " is ", n,
                                 ", not an integer in [", min, ", ", max, "]")};
  }
  return n;
}

std::string String(const json& object, const char* key,
                   const std::string& where) {
  const json& value = Member(object, key, where);
  if (!value.is_string()) {
    throw Malformed{
        absl::StrCat(Path(where, key), " is ", value.dump(), ", not a string")};
  }
  return value.get<std::string>();
}

const json& Array(const json& object, const char* key,
                  const std::string& where) {
  const json& value = Member(object, key, where);
  if (!value.is_array()) {
    throw Malformed{absl::StrCat(Path(where, key), " is not an array")};
  }
  return value;
}

std::string Element(const std::string& where, const char* key, size_t i) {
  return absl::StrCat(Path(where, key), "[", i, "]");
}

ManifestParticipant ReadParticipant(const json& entry, const std::string& where,
                                    bool with_disk) {
  ManifestParticipant p;
  p.name = String(entry, "name", where);
  p.host_bytes = Unsigned(entry, "host_bytes", where);
  if (with_disk || entry.contains("disk_bytes")) {
    p.disk_bytes = Unsigned(entry, "disk_bytes", where);
  }
  return p;
}

ManifestFile ReadFile(const json& entry, const std::string& where) {
  ManifestFile f;
  f.name = String(entry, "name", where);
  // The name is joined to the image's directory: a path, or a name with
  // a NUL in it, would reach outside it or be cut short.
  if (f.name.empty() || f.name == "." || f.name == ".." ||
      f.name.find('/') != std::string::npos ||
      f.name.find('\0') != std::string::npos) {
    throw Malformed{absl::StrCat(where, ".name \"", absl::CHexEscape(f.name),
                                 "\" is not a file name")};
  }
  f.backup = Unsigned(entry, "backup", where);
  f.data_bytes = Unsigned(entry, "data_bytes", where);
  f.pieces = Unsigned(entry, "pieces", where);
  const std::string checksum = String(entry, "table_checksum", where);
  if (!ParseHex64(checksum, &f.table_checksum)) {
    throw Malformed{absl::StrCat(where, ".table_checksum \"",
                                 absl::CHexEscape(checksum),
                                 "\" is not 16 hex digits")};
  }
  return f;
}

ManifestDevice ReadDevice(const json& entry, const std::string& where) {
  ManifestDevice d;
  d.device = static_cast<int32_t>(Signed(entry, "device", where,
                                         std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max()));
  const json& participants = Array(entry, "participants", where);
  for (size_t i = 0; i < participants.size(); ++i) {
    d.participants.push_back(ReadParticipant(
        participants[i], Element(where, "participants", i), true));
  }
  const json& allocations = Array(entry, "allocations", where);
  for (size_t i = 0; i < allocations.size(); ++i) {
    const std::string at = Element(where, "allocations", i);
    ManifestAllocations a;
    a.kind = String(allocations[i], "kind", at);
    a.count = Unsigned(allocations[i], "count", at);
    a.bytes = Unsigned(allocations[i], "bytes", at);
    d.allocations.push_back(std::move(a));
  }
  const json& files = Array(entry, "files", where);
  for (size_t i = 0; i < files.size(); ++i) {
    d.files.push_back(ReadFile(files[i], Element(where, "files", i)));
  }
  return d;
}

// Everything but format, version and checksum, checked by the caller.
void ReadMembers(const json& j, Manifest* m) {
  m->pid = static_cast<uint32_t>(
      Unsigned(j, "pid", "", std::numeric_limits<uint32_t>::max()));
  m->process_start = Unsigned(j, "process_start", "");
  m->image_id = String(j, "image_id", "");
  m->written_unix_us = Unsigned(j, "written_unix_us", "");
  m->backup_duration_us = Unsigned(j, "backup_duration_us", "");
  const json& devices = Array(j, "devices", "");
  for (size_t i = 0; i < devices.size(); ++i) {
    m->devices.push_back(ReadDevice(devices[i], Element("", "devices", i)));
  }
  const json& process = Array(j, "process", "");
  for (size_t i = 0; i < process.size(); ++i) {
    m->process.push_back(
        ReadParticipant(process[i], Element("", "process", i), false));
  }
}

// The text of a JSON library message without its "[json.exception...] "
// prefix.
std::string JsonMessage(const std::exception& e) {
  absl::string_view what = e.what();
  if (absl::StartsWith(what, "[json.exception.")) {
    const size_t end = what.find("] ");
    if (end != absl::string_view::npos) what.remove_prefix(end + 2);
  }
  return std::string(what);
}

}  // namespace

std::string Hex64(uint64_t value) { return absl::StrFormat("%016x", value); }

absl::StatusOr<std::string> ResolveImageDirectory(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("the directory is empty");
  std::string dir = path;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    return absl::NotFoundError(
        absl::StrCat("cannot open ", path, ": ", Errno(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a directory"));
  }
  const std::string prefix = dir == "/" ? "" : dir;
  if (IsFile(absl::StrCat(prefix, "/", internal::kManifestName))) return dir;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot list ", path, ": ", Errno(errno)));
  }
  std::vector<std::string> images;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (!absl::StartsWith(name, internal::kImageDirPrefix)) continue;
    const std::string sub = absl::StrCat(prefix, "/", name);
    if (IsDirectory(sub) &&
        IsFile(absl::StrCat(sub, "/", internal::kManifestName))) {
      images.push_back(name);
    }
  }
  closedir(d);
  std::sort(images.begin(), images.end());
  if (images.size() == 1) return absl::StrCat(prefix, "/", images[0]);
  if (images.empty()) {
    return absl::NotFoundError(absl::StrCat(
        path, " holds no snapshot image (no ", internal::kManifestName,
        " in it, nor in an ", internal::kImageDirPrefix, "* subdirectory)"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      path, " holds ", images.size(),
      " snapshot images; name one: ", absl::StrJoin(images, ", ")));
}

absl::StatusOr<Manifest> ReadManifest(const std::string& directory) {
  const std::string path =
      absl::StrCat(directory, "/", internal::kManifestName);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(
        absl::StrCat("cannot open ", path, ": ", Errno(errno)));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a regular file"));
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxManifestBytes) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is too large to be a snapshot image manifest (",
                     st.st_size, " bytes)"));
  }
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return absl::PermissionDeniedError(
          absl::StrCat("cannot read ", path, ": ", Errno(err)));
    }
    if (n == 0) break;  // it shrank meanwhile
    done += static_cast<size_t>(n);
  }
  close(fd);
  text.resize(done);
  return ParseManifest(text, path);
}

absl::StatusOr<Manifest> ParseManifest(const std::string& text,
                                       const std::string& name) {
  if (Nesting(text) > kMaxNesting) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " is not a snapshot image manifest (nested too deeply)"));
  }
  Manifest m;
  try {
    m.json = json::parse(text);
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is not JSON: ", JsonMessage(e)));
  }
  const json& j = m.json;
  try {
    const auto format = j.is_object() ? j.find("format") : j.end();
    if (!j.is_object() || format == j.end() || !format->is_string() ||
        format->get<std::string>() != kManifestFormat) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, " is not a snapshot image manifest (its \"format\" is not \"",
          kManifestFormat, "\")"));
    }
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " has no integer manifest version"));
    }
    if (version->is_number_unsigned()
            ? version->get<uint64_t>() != kManifestVersion
            : version->get<int64_t>() != kManifestVersion) {
      return absl::FailedPreconditionError(
          absl::StrCat(name, " has manifest version ", version->dump(),
                       "; this tool reads version ", kManifestVersion));
    }
    m.version = kManifestVersion;
    const auto stored = j.find("checksum");
    if (stored == j.end() || !stored->is_string()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " has no manifest checksum"));
    }
    const uint64_t computed = ManifestChecksum(j);
    const std::string stored_text = stored->get<std::string>();
    if (!ParseHex64(stored_text, &m.checksum) || m.checksum != computed) {
      return absl::DataLossError(
          absl::StrCat(name, " is damaged: its checksum is \"",
                       absl::CHexEscape(stored_text), "\", its contents give ",
                       Hex64(computed)));
    }
    ReadMembers(j, &m);
  } catch (const Malformed& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is a malformed manifest: ", e.what));
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is a malformed manifest: ", JsonMessage(e)));
  }
  return m;
}

std::optional<bool> ProcessRunning(uint32_t pid, uint64_t process_start) {
  if (access("/proc/self/stat", R_OK) != 0) return std::nullopt;
  FILE* f = std::fopen(absl::StrCat("/proc/", pid, "/stat").c_str(), "re");
  if (f == nullptr) return false;
  char buf[1024];
  const size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  // The command name, in parentheses, may hold blanks: fields are counted
  // from the last ')'. The start time is field 22, the 20th after it.
  const char* end_of_name = std::strrchr(buf, ')');
  if (end_of_name == nullptr || end_of_name[1] == '\0') return std::nullopt;
  const std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(end_of_name + 2), ' ');
  uint64_t start = 0;
  if (fields.size() < 20 || !absl::SimpleAtoi(fields[19], &start)) {
    return std::nullopt;
  }
  return start == process_start;
}

}  // namespace ascend::snapshot::cli
