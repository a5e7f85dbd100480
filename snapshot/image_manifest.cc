#include "snapshot/image_manifest.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "runtime/memory/memory.h"
#include "snapshot/image_file.h"
#include "snapshot/memory_participant.h"

namespace ascend::snapshot {

namespace {

std::string Hex64(uint64_t v) { return absl::StrFormat("%016x", v); }

std::string HexId(const uint8_t* id, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) absl::StrAppendFormat(&out, "%02x", id[i]);
  return out;
}

// The kind of the allocation at `addr`, as the runtime recorded it;
// memory mapped into the virtual address window (aclrtMapMem) has no
// record there.
std::string KindOf(const rt::Memory* memory, uint64_t addr) {
  if (memory == nullptr) return "device";
  const auto found = memory->registry().FindDevice(addr);
  if (!found.has_value()) return "mapped_physical";
  switch (found->block.kind) {
    case rt::DeviceMemoryKind::kManaged:
      return "managed";
    case rt::DeviceMemoryKind::kTaskScheduler:
      return "task_scheduler";
    default:
      return "device";
  }
}

absl::Status WriteFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const int fd =
      open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot create ", tmp, ": ", std::strerror(errno)));
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(tmp.c_str());
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot write ", tmp, ": ", std::strerror(err)));
    }
    done += static_cast<size_t>(n);
  }
  if (fdatasync(fd) != 0 || close(fd) != 0 ||
      rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot complete ", path, ": ", std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteImageManifest(rt::Runtime& runtime, const BackupImage& image,
                                const std::string& directory,
                                uint64_t duration_us) {
  const rt::Memory* memory = rt::Memory::Of(runtime);
  nlohmann::json manifest;
  manifest["format"] = std::string(kManifestFormat);
  manifest["version"] = kManifestVersion;
  manifest["written_unix_us"] = absl::ToUnixMicros(absl::Now());
  manifest["backup_duration_us"] = duration_us;
  manifest["devices"] = nlohmann::json::array();
  manifest["process"] = nlohmann::json::array();
  bool identified = false;
  for (const int32_t device : image.devices()) {
    nlohmann::json entry;
    entry["device"] = device;
    entry["participants"] = nlohmann::json::array();
    entry["allocations"] = nlohmann::json::array();
    entry["files"] = nlohmann::json::array();
    for (const BackupImage::NamedState* named : image.StatesOf(device)) {
      entry["participants"].push_back(
          {{"name", named->participant},
           {"host_bytes", named->state->bytes()},
           {"disk_bytes", named->state->disk_bytes()}});
      const auto* saved = dynamic_cast<const SavedMemory*>(named->state.get());
      if (saved == nullptr) continue;
      std::map<std::string, std::pair<uint64_t, uint64_t>> kinds;
      for (const SavedMemory::Allocation& a : saved->allocations()) {
        auto& [count, bytes] = kinds[KindOf(memory, a.addr)];
        ++count;
        bytes += a.size;
      }
      for (const auto& [kind, totals] : kinds) {
        entry["allocations"].push_back({{"kind", kind},
                                        {"count", totals.first},
                                        {"bytes", totals.second}});
      }
      for (const internal::ImageFile* file : saved->files()) {
        const internal::ImageHeader& h = file->header();
        if (!identified) {
          manifest["pid"] = h.pid;
          manifest["process_start"] = h.process_start;
          manifest["image_id"] = HexId(h.image_id, sizeof(h.image_id));
          identified = true;
        }
        const std::string& path = file->path();
        entry["files"].push_back(
            {{"name", path.substr(path.rfind('/') + 1)},
             {"backup", h.backup},
             {"data_bytes", h.data_bytes},
             {"pieces", h.piece_count},
             {"table_checksum", Hex64(file->table_checksum())}});
      }
    }
    manifest["devices"].push_back(std::move(entry));
  }
  for (const BackupImage::NamedState* named :
       image.StatesOf(rt::SnapshotParticipant::kProcessWide)) {
    manifest["process"].push_back(
        {{"name", named->participant}, {"host_bytes", named->state->bytes()}});
  }
  if (!identified) {
    manifest["pid"] = static_cast<uint32_t>(getpid());
    manifest["process_start"] = 0;
    manifest["image_id"] = "";
  }
  manifest["checksum"] = Hex64(ManifestChecksum(manifest));
  return WriteFile(absl::StrCat(directory, "/", internal::kManifestName),
                   manifest.dump(1));
}

}  // namespace ascend::snapshot
