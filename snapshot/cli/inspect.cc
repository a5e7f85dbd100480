#include "snapshot/cli/inspect.h"

#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"

namespace ascend::snapshot::cli {

namespace {

std::string Utc(uint64_t unix_us) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%E6S UTC",
                          absl::FromUnixMicros(static_cast<int64_t>(unix_us)),
                          absl::UTCTimeZone());
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

std::string Running(std::optional<bool> running) {
  if (!running.has_value()) return "";
  return *running ? " (still running)" : " (no longer running)";
}

}  // namespace

std::string Bytes(uint64_t bytes) {
  if (bytes < 1024) return Plural(bytes, "byte", "bytes");
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB",
                                           "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < sizeof(kUnits) / sizeof(kUnits[0])) {
    value /= 1024;
    ++unit;
  }
  return absl::StrFormat("%d bytes (%.1f %s)", bytes, value, kUnits[unit]);
}

ImageTotals Totals(const Manifest& manifest) {
  ImageTotals t;
  t.devices = manifest.devices.size();
  for (const ManifestDevice& d : manifest.devices) {
    for (const ManifestParticipant& p : d.participants) {
      t.host_bytes += p.host_bytes;
      t.disk_bytes += p.disk_bytes;
    }
    for (const ManifestAllocations& a : d.allocations) {
      t.allocations += a.count;
      t.allocation_bytes += a.bytes;
    }
    for (const ManifestFile& f : d.files) {
      ++t.files;
      t.data_bytes += f.data_bytes;
      t.pieces += f.pieces;
    }
  }
  for (const ManifestParticipant& p : manifest.process) {
    t.host_bytes += p.host_bytes;
    t.disk_bytes += p.disk_bytes;
  }
  return t;
}

std::string InspectText(const std::string& directory,
                        const Manifest& manifest) {
  std::string out = absl::StrCat("Snapshot image ", directory, "\n");
  absl::StrAppendFormat(&out, "  written     %s (the Backup took %.3f ms)\n",
                        Utc(manifest.written_unix_us),
                        static_cast<double>(manifest.backup_duration_us) / 1e3);
  absl::StrAppendFormat(
      &out, "  process     pid %d, started %d clock ticks after boot%s\n",
      manifest.pid, manifest.process_start,
      Running(ProcessRunning(manifest.pid, manifest.process_start)));
  absl::StrAppendFormat(&out, "  image id    %s\n",
                        manifest.image_id.empty()
                            ? "(none: no file was written)"
                            : manifest.image_id);
  absl::StrAppendFormat(&out, "  manifest    version %d, checksum %s\n",
                        manifest.version, Hex64(manifest.checksum));
  for (const ManifestDevice& d : manifest.devices) {
    absl::StrAppendFormat(&out, "\nDevice %d\n", d.device);
    absl::StrAppendFormat(&out, "  %-24s %16s %16s\n", "participants",
                          "host bytes", "disk bytes");
    for (const ManifestParticipant& p : d.participants) {
      absl::StrAppendFormat(&out, "    %-22s %16d %16d\n", p.name, p.host_bytes,
                            p.disk_bytes);
    }
    if (d.allocations.empty()) {
      out += "  allocations: none\n";
    } else {
      absl::StrAppendFormat(&out, "  %-24s %16s %16s\n", "allocations", "count",
                            "bytes");
      for (const ManifestAllocations& a : d.allocations) {
        absl::StrAppendFormat(&out, "    %-22s %16d %16d  %s\n", a.kind,
                              a.count, a.bytes, Bytes(a.bytes));
      }
    }
    if (d.files.empty()) {
      out += "  files: none (its memory stayed in host memory)\n";
    } else {
      absl::StrAppendFormat(&out, "  %-24s %6s %16s %9s\n", "files", "backup",
                            "data bytes", "pieces");
      for (const ManifestFile& f : d.files) {
        absl::StrAppendFormat(&out, "    %-22s %6d %16d %9d\n", f.name,
                              f.backup, f.data_bytes, f.pieces);
      }
    }
  }
  if (!manifest.process.empty()) {
    absl::StrAppendFormat(&out, "\n%-26s %16s\n", "Process-wide participants",
                          "host bytes");
    for (const ManifestParticipant& p : manifest.process) {
      absl::StrAppendFormat(&out, "    %-22s %16d\n", p.name, p.host_bytes);
    }
  }
  const ImageTotals t = Totals(manifest);
  absl::StrAppend(&out, "\nTotal: ", Plural(t.devices, "device", "devices"),
                  "; ", Plural(t.allocations, "allocation", "allocations"),
                  " of ", Bytes(t.allocation_bytes), "; ",
                  Plural(t.files, "file", "files"), " holding ",
                  Bytes(t.data_bytes), " in ",
                  Plural(t.pieces, "piece", "pieces"), "; participants hold ",
                  Bytes(t.host_bytes), " of host memory and ",
                  Bytes(t.disk_bytes), " on disk\n");
  return out;
}

nlohmann::json InspectJson(const std::string& directory,
                           const Manifest& manifest) {
  nlohmann::json out = manifest.json;
  out["directory"] = directory;
  out["written_utc"] = Utc(manifest.written_unix_us);
  const std::optional<bool> running =
      ProcessRunning(manifest.pid, manifest.process_start);
  out["process_running"] =
      running.has_value() ? nlohmann::json(*running) : nlohmann::json(nullptr);
  const ImageTotals t = Totals(manifest);
  out["totals"] = {{"devices", t.devices},
                   {"allocations", t.allocations},
                   {"allocation_bytes", t.allocation_bytes},
                   {"files", t.files},
                   {"data_bytes", t.data_bytes},
                   {"pieces", t.pieces},
                   {"host_bytes", t.host_bytes},
                   {"disk_bytes", t.disk_bytes}};
  return out;
}

}  // namespace ascend::snapshot::cli
