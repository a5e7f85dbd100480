// HCCL's communicator management (hccl/hccl_comm.h): creation, queries,
// configuration, errors, destruction, groups. Each function checks its
// arguments as its page (hicann/hcomm docs/zh/api_ref/comm_mgr_c) requires
// and changes nothing when it refuses.
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "hccl/core/comm.h"
#include "hccl/core/group.h"
#include "hccl/core/init.h"
#include "hccl/core/log.h"

// Our definitions are the library's: not weak.
#define HCOMM_WEAK_SYMBOL
#include "hccl/hccl.h"

namespace ascend::hccl {
namespace {

#define HCCL_REQUIRE_PTR(p, name) \
  HCCL_REQUIRE((p) != nullptr, HCCL_E_PTR, std::string(name) + " is NULL")

// HcclCommRegCommStateCallback's registrations, by name.
struct StateCallbacks {
  std::mutex mu;
  std::map<std::string, std::pair<HcclCommStateCallback, void*>> by_name;
};
StateCallbacks& Callbacks() {
  static StateCallbacks* c = new StateCallbacks;
  return *c;
}

void Notify(HcclComm comm, HcclCommStatePhase phase) {
  std::vector<std::pair<HcclCommStateCallback, void*>> list;
  {
    StateCallbacks& c = Callbacks();
    std::lock_guard<std::mutex> lock(c.mu);
    for (const auto& [name, cb] : c.by_name) list.push_back(cb);
  }
  for (const auto& [fn, args] : list) {
    const HcclResult r = fn(comm, phase, args);
    if (r != HCCL_SUCCESS) {
      LogWarning("HcclCommStateCallback",
                 "a state callback returned " + std::to_string(r));
    }
  }
}

int32_t DeviceOrDefault() {
  int32_t device = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS) device = -1;
  return device;
}

int32_t g_deterministic = 0;
std::mutex g_config_mu;

}  // namespace
}  // namespace ascend::hccl

using namespace ascend::hccl;  // NOLINT: the C entry points below

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) try {
  HCCL_REQUIRE_PTR(rootInfo, "rootInfo");
  return MakeRootInfo(__func__, rootInfo);
}
HCCL_ENTRY_CATCH()

static HcclResult InitRoot(const char* api, uint32_t nRanks,
                           const HcclRootInfo* rootInfo, uint32_t rank,
                           const HcclCommConfig* config, HcclComm* comm) {
  HCCL_REQUIRE_AS(api, rootInfo != nullptr, HCCL_E_PTR, "rootInfo is NULL");
  HCCL_REQUIRE_AS(api, comm != nullptr, HCCL_E_PTR, "comm is NULL");
  if (nRanks == 0 || rank >= nRanks) {
    return Refuse(api, HCCL_E_PARA,
                  "rank " + std::to_string(rank) + " is not below nRanks " +
                      std::to_string(nRanks));
  }
  if (GroupActive()) {
    HCCL_RETURN_IF_ERROR(GroupNote(api, GroupUse::kComm));
    // The creation runs at HcclGroupEnd, on the device current now.
    const HcclRootInfo root = *rootInfo;
    std::shared_ptr<HcclCommConfig> copy;
    if (config != nullptr) copy = std::make_shared<HcclCommConfig>(*config);
    const int32_t device = DeviceOrDefault();
    GroupDefer([=] {
      return InitFromRootInfo(api, nRanks, root, rank, copy.get(), device,
                              comm);
    });
    return HCCL_SUCCESS;
  }
  return InitFromRootInfo(api, nRanks, *rootInfo, rank, config, -1, comm);
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo,
                                uint32_t rank, HcclComm* comm) try {
  return InitRoot(__func__, nRanks, rootInfo, rank, nullptr, comm);
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks,
                                      const HcclRootInfo* rootInfo,
                                      uint32_t rank,
                                      const HcclCommConfig* config,
                                      HcclComm* comm) try {
  HCCL_REQUIRE_PTR(config, "config");
  return InitRoot(__func__, nRanks, rootInfo, rank, config, comm);
}
HCCL_ENTRY_CATCH()

static HcclResult InitTable(const char* api, const char* clusterInfo,
                            uint32_t rank, const HcclCommConfig* config,
                            HcclComm* comm) {
  HCCL_REQUIRE_AS(api, clusterInfo != nullptr, HCCL_E_PTR,
                  "clusterInfo is NULL");
  HCCL_REQUIRE_AS(api, comm != nullptr, HCCL_E_PTR, "comm is NULL");
  // The path is at most 4096 bytes with its terminator.
  HCCL_REQUIRE_AS(api, strnlen(clusterInfo, 4096) < 4096, HCCL_E_PARA,
                  "clusterInfo is 4096 bytes or longer");
  HCCL_REQUIRE_AS(api, clusterInfo[0] != '\0', HCCL_E_PARA,
                  "clusterInfo is empty");
  const std::string path = clusterInfo;
  if (GroupActive()) {
    HCCL_RETURN_IF_ERROR(GroupNote(api, GroupUse::kComm));
    std::shared_ptr<HcclCommConfig> copy;
    if (config != nullptr) copy = std::make_shared<HcclCommConfig>(*config);
    GroupDefer(
        [=] { return InitFromRankTable(api, path, rank, copy.get(), comm); });
    return HCCL_SUCCESS;
  }
  return InitFromRankTable(api, path, rank, config, comm);
}

HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank,
                                   HcclComm* comm) try {
  return InitTable(__func__, clusterInfo, rank, nullptr, comm);
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank,
                                         HcclCommConfig* config,
                                         HcclComm* comm) try {
  HCCL_REQUIRE_PTR(config, "config");
  return InitTable(__func__, clusterInfo, rank, config, comm);
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices,
                           HcclComm* comms) try {
  HCCL_REQUIRE(ndev > 0, HCCL_E_PARA, "ndev is 0");
  HCCL_REQUIRE_PTR(devices, "devices");
  HCCL_REQUIRE_PTR(comms, "comms");
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) count = 0;
  std::set<int32_t> seen;
  for (uint32_t i = 0; i < ndev; ++i) {
    HCCL_REQUIRE(devices[i] >= 0 && static_cast<uint32_t>(devices[i]) < count,
                 HCCL_E_PARA,
                 "devices[" + std::to_string(i) +
                     "] = " + std::to_string(devices[i]) + " is not a device");
    HCCL_REQUIRE(seen.insert(devices[i]).second, HCCL_E_PARA,
                 "device " + std::to_string(devices[i]) + " appears twice");
  }
  return InitAll(__func__, ndev, devices, comms);
}
HCCL_ENTRY_CATCH()

HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum,
                                   uint32_t* rankIds, uint64_t subCommId,
                                   uint32_t subCommRankId,
                                   HcclCommConfig* config,
                                   HcclComm* subComm) try {
  HCCL_REQUIRE_PTR(comm, "comm");
  HCCL_REQUIRE_PTR(subComm, "subComm");
  HCCL_REQUIRE_PTR(config, "config");
  std::shared_ptr<Comm> parent;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, *comm, &parent));
  if (rankIds == nullptr) {
    // This rank is not in the new communicator.
    *subComm = nullptr;
    return HCCL_SUCCESS;
  }
  return InitSubComm(__func__, *comm, rankNum, rankIds, subCommId,
                     subCommRankId, config, subComm);
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommDestroy(HcclComm comm) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  if (GroupActive()) HCCL_RETURN_IF_ERROR(GroupNote(__func__, GroupUse::kComm));
  Notify(comm, HCCL_COMM_STATE_PHASE_DESTROY_PRE);
  HCCL_RETURN_IF_ERROR(DestroyComm(__func__, comm));
  Notify(comm, HCCL_COMM_STATE_PHASE_DESTROY_POST);
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(rankSize, "rankSize");
  *rankSize = c->size;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(rank, "rank");
  *rank = c->rank;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGetCommName(HcclComm comm, char* commName) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(commName, "commName");
  const size_t n = std::min<size_t>(c->name.size(), COMM_NAME_MAX_LENGTH - 1);
  std::memcpy(commName, c->name.data(), n);
  commName[n] = '\0';
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm) try {
  HCCL_REQUIRE_PTR(commName, "commName");
  HCCL_REQUIRE_PTR(comm, "comm");
  std::shared_ptr<Comm> c = CommTable::Get().FindByName(
      std::string(commName, strnlen(commName, COMM_NAME_MAX_LENGTH)),
      DeviceOrDefault());
  if (c == nullptr) {
    return Refuse(__func__, HCCL_E_NOT_FOUND,
                  std::string("no communicator is named ") + commName);
  }
  *comm = reinterpret_cast<HcclComm>(static_cast<uintptr_t>(c->id));
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status) try {
  HCCL_REQUIRE_PTR(commId, "commId");
  HCCL_REQUIRE_PTR(status, "status");
  std::shared_ptr<Comm> c = CommTable::Get().FindByName(
      std::string(commId, strnlen(commId, COMM_NAME_MAX_LENGTH)),
      DeviceOrDefault());
  if (c == nullptr) {
    return Refuse(__func__, HCCL_E_NOT_FOUND,
                  std::string("no communicator is named ") + commId);
  }
  *status = c->suspended ? HCCL_COMM_STATUS_SUSPENDING : HCCL_COMM_STATUS_READY;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(asyncError, "asyncError");
  *asyncError = static_cast<HcclResult>(c->async_error.load());
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

const char* HcclGetErrorString(HcclResult code) {
  // A C caller may pass any int: read it as one, never as the enum (a load of
  // an enumeration outside its values is undefined in C++).
  int raw = 0;
  std::memcpy(&raw, &code, sizeof(raw));
  switch (raw) {
    case HCCL_SUCCESS:
      return "success";
    case HCCL_E_PARA:
      return "parameter error";
    case HCCL_E_PTR:
      return "empty pointer";
    case HCCL_E_MEMORY:
      return "memory error";
    case HCCL_E_INTERNAL:
      return "internal error";
    case HCCL_E_NOT_SUPPORT:
      return "not supported feature";
    case HCCL_E_NOT_FOUND:
      return "specific resource not found";
    case HCCL_E_UNAVAIL:
      return "resource unavailable";
    case HCCL_E_SYSCALL:
      return "system call error";
    case HCCL_E_TIMEOUT:
      return "timeout";
    case HCCL_E_OPEN_FILE_FAILURE:
      return "open file failure";
    case HCCL_E_TCP_CONNECT:
      return "tcp connect failure";
    case HCCL_E_ROCE_CONNECT:
      return "roce connect failure";
    case HCCL_E_TCP_TRANSFER:
      return "tcp transfer failure";
    case HCCL_E_ROCE_TRANSFER:
      return "roce transfer failure";
    case HCCL_E_RUNTIME:
      return "call runtime api failure";
    case HCCL_E_DRV:
      return "call driver api failure";
    case HCCL_E_PROFILING:
      return "call profiling api failure";
    case HCCL_E_CCE:
      return "call cce api failure";
    case HCCL_E_NETWORK:
      return "call network api failure";
    case HCCL_E_AGAIN:
      return "try again";
    case HCCL_E_REMOTE:
      return "error cqe";
    case HCCL_E_SUSPENDING:
      return "communicator suspending";
    case HCCL_E_OPRETRY_FAIL:
      return "operation retry failure";
    case HCCL_E_OOM:
      return "out of memory";
    case HCCL_E_IN_STATUS:
      return "the error is in the status";
    default:
      return "unknown error";
  }
}

uint32_t HcclGetCommConfigCapability() {
  return static_cast<uint32_t>(HCCL_COMM_CONFIG_RESERVED);
}

HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) try {
  HCCL_REQUIRE(config == HCCL_DETERMINISTIC, HCCL_E_PARA,
               "only HCCL_DETERMINISTIC can be set");
  HCCL_REQUIRE(configValue.value >= 0 && configValue.value <= 2, HCCL_E_PARA,
               "HCCL_DETERMINISTIC takes 0, 1 or 2");
  std::lock_guard<std::mutex> lock(g_config_mu);
  g_deterministic = configValue.value;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue) try {
  HCCL_REQUIRE(config == HCCL_DETERMINISTIC, HCCL_E_PARA,
               "only HCCL_DETERMINISTIC can be read");
  HCCL_REQUIRE_PTR(configValue, "configValue");
  std::lock_guard<std::mutex> lock(g_config_mu);
  configValue->value = g_deterministic;
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommSuspend(HcclComm comm) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  c->suspended = true;
  c->transport->Abort(Outcome::Suspended("the communicator was suspended"));
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommResume(HcclComm comm) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  Notify(comm, HCCL_COMM_STATE_PHASE_RESUME_PRE);
  if (c->transport->lost()) {
    return Refuse(__func__, HCCL_E_REMOTE,
                  "the communicator's connections to its peers were lost");
  }
  c->transport->Reset();
  c->async_error = HCCL_SUCCESS;
  c->suspended = false;
  Notify(comm, HCCL_COMM_STATE_PHASE_RESUME_POST);
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclCommRegCommStateCallback(const char* regName,
                                        HcclCommStateCallback cb,
                                        void* args) try {
  HCCL_REQUIRE_PTR(regName, "regName");
  HCCL_REQUIRE_PTR(cb, "cb");
  HCCL_REQUIRE(strnlen(regName, 161) <= 160, HCCL_E_PARA,
               "regName is longer than 160 bytes");
  StateCallbacks& c = Callbacks();
  std::lock_guard<std::mutex> lock(c.mu);
  c.by_name[regName] = {cb, args};
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGroupStart() try {
  GroupStart();
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclGroupEnd() try { return GroupEnd(__func__); }
HCCL_ENTRY_CATCH()

HcclResult HcclGroupStatusGet(bool* isGroupEnabled) try {
  HCCL_REQUIRE_PTR(isGroupEnabled, "isGroupEnabled");
  *isGroupEnabled = GroupActive();
  return HCCL_SUCCESS;
}
HCCL_ENTRY_CATCH()

HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType,
                             uint32_t infoLen, void* info) try {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(__func__, comm, &c));
  HCCL_REQUIRE_PTR(info, "info");
  if (cfgType == HCCL_CONFIG_TYPE_OP_EXPANSION_MODE) {
    HCCL_REQUIRE(infoLen == sizeof(HcclConfigTypeOpExpansionMode), HCCL_E_PARA,
                 "infoLen must be sizeof(HcclConfigTypeOpExpansionMode)");
    // Operations here expand on the host, whatever the configuration asked.
    const HcclConfigTypeOpExpansionMode mode = HCCL_OP_EXPANSION_MODE_HOST;
    std::memcpy(info, &mode, sizeof(mode));
    return HCCL_SUCCESS;
  }
  if (cfgType == HCCL_CONFIG_TYPE_HCCL_ALGO) {
    HCCL_REQUIRE(infoLen >= HCCL_COMM_ALGO_MAX_LENGTH, HCCL_E_PARA,
                 "infoLen must be at least HCCL_COMM_ALGO_MAX_LENGTH");
    const size_t n = std::min<size_t>(c->settings.algo.size(),
                                      HCCL_COMM_ALGO_MAX_LENGTH - 1);
    std::memcpy(info, c->settings.algo.data(), n);
    static_cast<char*>(info)[n] = '\0';
    return HCCL_SUCCESS;
  }
  return Refuse(__func__, HCCL_E_PARA,
                "cfgType " + std::to_string(cfgType) + " is not a setting");
}
HCCL_ENTRY_CATCH()
