#include "snapshot/report.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

namespace ascend::snapshot {
namespace {

// Participant and mechanism names are [a-z0-9_.+-]; anything else is
// escaped all the same.
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

SnapshotReport SnapshotReport::Of(std::string operation,
                                  const BackupImage& image,
                                  uint64_t duration_us) {
  SnapshotReport report;
  report.operation = std::move(operation);
  report.duration_us = duration_us;
  report.host_bytes = image.total_bytes();
  for (const BackupImage::NamedState& named : image.states()) {
    const rt::SavedState::CopyStats stats = named.state->last_copy();
    report.disk_bytes += named.state->disk_bytes();
    report.bytes_copied += stats.copied;
    report.bytes_unchanged += stats.unchanged;
    report.bytes_in_place += stats.in_place;
    if (!stats.plan.empty() &&
        report.plan.find(stats.plan) == std::string::npos) {
      absl::StrAppend(&report.plan, report.plan.empty() ? "" : "; ",
                      stats.plan);
    }
    report.incremental |= stats.incremental;
    if (!stats.write_tracking.empty()) {
      report.write_tracking = stats.write_tracking;
    }
    Participant* entry = nullptr;
    for (Participant& p : report.participants) {
      if (p.name == named.participant) entry = &p;
    }
    if (entry == nullptr) {
      entry = &report.participants.emplace_back();
      entry->name = named.participant;
    }
    entry->duration_us +=
        static_cast<uint64_t>(absl::ToInt64Microseconds(named.duration));
    entry->bytes += stats.copied;
  }
  return report;
}

std::string SnapshotReport::ToJson() const {
  std::string json = absl::StrCat(
      "{\"operation\":", Quoted(operation), ",\"mode\":\"",
      incremental ? "incremental" : "full",
      "\",\"write_tracking\":", Quoted(write_tracking),
      ",\"bytes_copied\":", bytes_copied,
      ",\"bytes_unchanged\":", bytes_unchanged,
      ",\"bytes_in_place\":", bytes_in_place, ",\"plan\":", Quoted(plan),
      ",\"host_bytes\":", host_bytes, ",\"image_dir\":", Quoted(image_dir),
      ",\"disk_bytes\":", disk_bytes, ",\"duration_us\":", duration_us,
      ",\"participants\":[");
  for (size_t i = 0; i < participants.size(); ++i) {
    const Participant& p = participants[i];
    absl::StrAppend(&json, i == 0 ? "" : ",", "{\"name\":", Quoted(p.name),
                    ",\"duration_us\":", p.duration_us, ",\"bytes\":", p.bytes,
                    "}");
  }
  json += "]}";
  return json;
}

}  // namespace ascend::snapshot
