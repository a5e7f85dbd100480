#include "hccl/core/rank_table.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hccl/core/log.h"
#include "hccl/core/netif.h"
#include "nlohmann/json.hpp"

namespace ascend::hccl {
namespace {

using nlohmann::json;

// A non-negative integer given as a JSON number or a decimal string.
bool ReadUint(const json& j, uint64_t* out) {
  if (j.is_number_unsigned()) {
    *out = j.get<uint64_t>();
    return true;
  }
  if (j.is_number_integer()) {
    const int64_t v = j.get<int64_t>();
    if (v < 0) return false;
    *out = static_cast<uint64_t>(v);
    return true;
  }
  if (!j.is_string()) return false;
  const std::string s = j.get<std::string>();
  if (s.empty() || s.size() > 19 ||
      s.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

}  // namespace

HcclResult LoadRankTable(const char* api, const std::string& path,
                         RankTable* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Refuse(api, HCCL_E_OPEN_FILE_FAILURE,
                  "cannot read the rank table " + path);
  }
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string text = bytes.str();
  const std::string where = "rank table " + path + ": ";
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Refuse(api, HCCL_E_PARA, where + "not a JSON object");
  }
  if (!j.contains("status") || j["status"] != "completed") {
    return Refuse(api, HCCL_E_PARA, where + "status is not \"completed\"");
  }
  if (!j.contains("version") ||
      (j["version"] != "1.0" && j["version"] != "1.2")) {
    return Refuse(api, HCCL_E_PARA,
                  where + "version is not \"1.0\" or \"1.2\"");
  }
  if (!j.contains("server_list") || !j["server_list"].is_array()) {
    return Refuse(api, HCCL_E_PARA, where + "no server_list array");
  }
  const json& servers = j["server_list"];
  uint64_t server_count = 0;
  if (!j.contains("server_count") ||
      !ReadUint(j["server_count"], &server_count) ||
      server_count != servers.size()) {
    return Refuse(api, HCCL_E_PARA,
                  where + "server_count does not match server_list's " +
                      std::to_string(servers.size()) + " entries");
  }
  std::vector<RankTable::Rank> ranks;
  std::vector<bool> seen;
  for (const json& server : servers) {
    if (!server.is_object() || !server.contains("server_id") ||
        !server["server_id"].is_string() ||
        server["server_id"].get<std::string>().empty() ||
        server["server_id"].get<std::string>().size() > 64) {
      return Refuse(api, HCCL_E_PARA,
                    where + "a server has no server_id of 1 to 64 characters");
    }
    const std::string id = server["server_id"].get<std::string>();
    if (!server.contains("device") || !server["device"].is_array()) {
      return Refuse(api, HCCL_E_PARA,
                    where + "server " + id + " has no device list");
    }
    for (const json& d : server["device"]) {
      uint64_t device_id = 0;
      uint64_t rank_id = 0;
      if (!d.is_object() || !d.contains("device_id") ||
          !ReadUint(d["device_id"], &device_id) || device_id > 0x7fffffff ||
          !d.contains("rank_id") || !ReadUint(d["rank_id"], &rank_id) ||
          rank_id > 0xffffff) {
        return Refuse(api, HCCL_E_PARA,
                      where + "a device of server " + id +
                          " lacks a valid device_id or rank_id");
      }
      RankTable::Rank r;
      r.server_id = id;
      r.device_id = static_cast<int32_t>(device_id);
      if (d.contains("device_ip")) {
        int family = 0;
        if (!d["device_ip"].is_string() ||
            !ParseAddress(d["device_ip"].get<std::string>(), &family)) {
          return Refuse(api, HCCL_E_PARA,
                        where + "rank " + std::to_string(rank_id) +
                            " has a device_ip that is no address");
        }
        r.device_ip = d["device_ip"].get<std::string>();
      }
      if (d.contains("device_port")) {
        uint64_t port = 0;
        if (!ReadUint(d["device_port"], &port) || port < 1 || port > 65535) {
          return Refuse(api, HCCL_E_PARA,
                        where + "rank " + std::to_string(rank_id) +
                            " has a device_port outside [1, 65535]");
        }
        r.device_port = static_cast<uint16_t>(port);
      }
      if (rank_id >= ranks.size()) {
        ranks.resize(rank_id + 1);
        seen.resize(rank_id + 1, false);
      }
      if (seen[rank_id]) {
        return Refuse(
            api, HCCL_E_PARA,
            where + "rank_id " + std::to_string(rank_id) + " appears twice");
      }
      seen[rank_id] = true;
      ranks[rank_id] = r;
    }
  }
  if (ranks.empty()) return Refuse(api, HCCL_E_PARA, where + "no ranks");
  for (size_t i = 0; i < seen.size(); ++i) {
    if (!seen[i]) {
      return Refuse(api, HCCL_E_PARA,
                    where + "rank_id " + std::to_string(i) +
                        " is missing (rank ids run from 0 without gaps)");
    }
  }
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  out->ranks = std::move(ranks);
  out->digest = h;
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
