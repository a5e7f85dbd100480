#include "acl/prof/settings.h"

#include <cstdlib>
#include <set>

#include "acl/acl_prof.h"

namespace ascend::prof {
namespace {

// A decimal integer within [low, high], nothing else.
bool InRange(const std::string& text, uint64_t low, uint64_t high) {
  if (text.empty() || text.size() > 19) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v >= low && v <= high;
}

bool AllIn(const std::string& text, const std::set<std::string>& allowed) {
  const std::vector<std::string> items = SplitList(text);
  if (items.empty()) return false;
  for (const std::string& item : items) {
    if (allowed.count(item) == 0) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(begin, end - begin);
    const size_t first = item.find_first_not_of(' ');
    const size_t last = item.find_last_not_of(' ');
    if (first != std::string::npos) {
      out.push_back(item.substr(first, last - first + 1));
    }
    begin = end + 1;
  }
  return out;
}

bool SettingValid(int32_t type, const std::string& value) {
  switch (type) {
    case ACL_PROF_PATH:
      return !value.empty();
    case ACL_PROF_STORAGE_LIMIT:
      return value.size() > 2 &&
             value.compare(value.size() - 2, 2, "MB") == 0 &&
             InRange(value.substr(0, value.size() - 2), 200, 4294967295ULL);
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
    case ACL_PROF_SYS_IO_FREQ:
    case ACL_PROF_DVPP_FREQ:
    case ACL_PROF_LOW_POWER_FREQ:
      return InRange(value, 1, 100);
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
    case ACL_PROF_HOST_SYS_USAGE_FREQ:
    case ACL_PROF_SYS_CPU_FREQ:
      return InRange(value, 1, 50);
    case ACL_PROF_HOST_SYS:
      return AllIn(value, {"cpu", "mem", "disk", "network", "osrt"});
    case ACL_PROF_HOST_SYS_USAGE:
      return AllIn(value, {"cpu", "mem"});
    case ACL_PROF_LLC_MODE:
      return value == "read" || value == "write" || value == "capacity" ||
             value == "bandwidth";
    case ACL_PROF_OPTYPE:
    case ACL_PROF_SYS_MEM_SERVICEFLOW:
    case ACL_PROF_NTS_METRICS:
      return !SplitList(value).empty();
    default:
      return false;  // 2 is not a key
  }
}

}  // namespace ascend::prof
