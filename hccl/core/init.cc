#include "hccl/core/init.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/core/comm.h"
#include "hccl/core/config.h"
#include "hccl/core/env.h"
#include "hccl/core/gloo_transport.h"
#include "hccl/core/local_world.h"
#include "hccl/core/log.h"
#include "hccl/core/netif.h"
#include "hccl/core/rank_table.h"
#include "hccl/core/root_info.h"
#include "hccl/core/snapshot.h"
#include "hccl/core/store.h"

namespace ascend::hccl {
namespace {

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016" PRIx64, v);
  return buf;
}

// Who this process is, to tell ranks of one process from others.
const std::string& ProcessToken() {
  static const std::string* token =
      new std::string(Hex(RandomId()) + Hex(RandomId()));
  return *token;
}

// In-process worlds by job, while a rank of them lives.
struct Worlds {
  std::mutex mu;
  std::map<std::string, std::weak_ptr<LocalWorld>> by_job;
};
Worlds& TheWorlds() {
  static Worlds* w = new Worlds;
  return *w;
}

std::shared_ptr<LocalWorld> WorldOf(const std::string& job, uint32_t size) {
  Worlds& w = TheWorlds();
  std::lock_guard<std::mutex> lock(w.mu);
  std::shared_ptr<LocalWorld> world = w.by_job[job].lock();
  if (world == nullptr || world->size() != size) {
    world = std::make_shared<LocalWorld>(size);
    w.by_job[job] = world;
  }
  // Forget worlds nobody uses any more.
  for (auto it = w.by_job.begin(); it != w.by_job.end();) {
    it = it->second.expired() ? w.by_job.erase(it) : std::next(it);
  }
  return world;
}

struct Member {
  std::string token;
  int32_t device = 0;
  NetAddress address;
};

std::string Encode(const Member& m) {
  std::ostringstream s;
  s << "v1 " << m.token << ' ' << m.device << ' ' << m.address.family << ' '
    << (m.address.ip.empty() ? "-" : m.address.ip);
  return s.str();
}

bool Decode(const std::string& text, Member* m) {
  std::istringstream s(text);
  std::string version;
  s >> version >> m->token >> m->device >> m->address.family >> m->address.ip;
  return version == "v1" && !s.fail();
}

HcclResult CurrentDevice(const char* api, int32_t* device) {
  const aclError ret = aclrtGetDevice(device);
  if (ret != ACL_SUCCESS) {
    return Refuse(api, HCCL_E_RUNTIME,
                  "no device is set on this thread (aclrtSetDevice first; "
                  "aclrtGetDevice returned " +
                      std::to_string(ret) + ")");
  }
  return HCCL_SUCCESS;
}

std::string DefaultName(const std::string& job) {
  std::string name = "hccl_comm_";
  for (char c : job) name += (c == '/' ? '_' : c);
  return name.substr(0, COMM_NAME_MAX_LENGTH - 1);
}

struct Join {
  const char* api;
  uint32_t nranks;
  uint32_t rank;
  int32_t device;
  std::string store_ip;
  uint16_t store_port;
  std::string job;
  CommSettings settings;
  Origin origin;
};

HcclResult Publish(const std::shared_ptr<Comm>& c, HcclComm* out) {
  HCCL_RETURN_IF_ERROR(CommTable::Get().Add("HcclCommInit", c, out));
  RegisterSnapshotCallbacks();
  return HCCL_SUCCESS;
}

HcclResult JoinJob(const Join& j, std::shared_ptr<Comm>* made) {
  Millis timeout;
  HCCL_RETURN_IF_ERROR(ConnectTimeout(j.api, &timeout));
  const Clock::time_point deadline = Clock::now() + timeout;
  auto client = std::make_unique<StoreClient>();
  if (!client->Connect(j.store_ip, j.store_port, deadline)) {
    return Refuse(j.api, HCCL_E_TCP_CONNECT,
                  "cannot reach the root at " + j.store_ip + ":" +
                      std::to_string(j.store_port) +
                      " within HCCL_CONNECT_TIMEOUT");
  }
  client->set_timeout(timeout);
  bool stored = false;
  std::string existing;
  if (!client->SetIfAbsent(j.job + "/size", std::to_string(j.nranks), &stored,
                           &existing)) {
    return Refuse(j.api, HCCL_E_TCP_CONNECT, "the root stopped answering");
  }
  if (!stored && existing != std::to_string(j.nranks)) {
    return Refuse(j.api, HCCL_E_PARA,
                  "nRanks " + std::to_string(j.nranks) +
                      " differs from another rank's " + existing);
  }
  Member me;
  me.token = ProcessToken();
  me.device = j.device;
  HCCL_RETURN_IF_ERROR(LocalAddress(j.api, &me.address));
  if (!client->SetIfAbsent(j.job + "/rank/" + std::to_string(j.rank),
                           Encode(me), &stored, &existing)) {
    return Refuse(j.api, HCCL_E_TCP_CONNECT, "the root stopped answering");
  }
  if (!stored) {
    return Refuse(
        j.api, HCCL_E_PARA,
        "rank " + std::to_string(j.rank) + " already joined this communicator");
  }
  std::vector<Member> members(j.nranks);
  bool same_process = true;
  for (uint32_t i = 0; i < j.nranks; ++i) {
    std::string text;
    if (!client->Get(j.job + "/rank/" + std::to_string(i), deadline, &text)) {
      return Refuse(j.api, HCCL_E_TIMEOUT,
                    "rank " + std::to_string(i) + " of " +
                        std::to_string(j.nranks) +
                        " did not join within HCCL_CONNECT_TIMEOUT (" +
                        std::to_string(timeout.count() / 1000) + " s)");
    }
    if (!Decode(text, &members[i])) {
      return Refuse(j.api, HCCL_E_INTERNAL, "a malformed rank record");
    }
    same_process = same_process && members[i].token == me.token;
  }
  auto c = std::make_shared<Comm>();
  c->rank = j.rank;
  c->size = j.nranks;
  c->device = j.device;
  c->job = j.job;
  c->settings = j.settings;
  c->origin = j.origin;
  c->name = j.settings.name.empty() ? DefaultName(j.job) : j.settings.name;
  c->rendezvous = {j.store_ip, j.store_port, j.job};
  if (same_process) {
    c->world = WorldOf(j.job, j.nranks);
    c->transport = std::make_unique<LocalTransport>(c->world, j.rank);
  } else {
    const Millis left = std::chrono::duration_cast<Millis>(
        std::max(deadline - Clock::now(), Clock::duration(Millis(1))));
    std::string why;
    c->transport =
        GlooTransport::Connect(*client, j.job + "/gloo", j.rank, j.nranks,
                               nullptr, me.address, left, &why);
    if (c->transport == nullptr) {
      return Refuse(j.api,
                    why.find("imed out") != std::string::npos
                        ? HCCL_E_TIMEOUT
                        : HCCL_E_TCP_CONNECT,
                    "connecting the ranks over Gloo failed: " + why);
    }
  }
  *made = std::move(c);
  return HCCL_SUCCESS;
}

}  // namespace

HcclResult MakeRootInfo(const char* api, HcclRootInfo* out) {
  NetAddress at;
  HCCL_RETURN_IF_ERROR(LocalAddress(api, &at));
  uint16_t base = 0;
  HCCL_RETURN_IF_ERROR(BasePort(api, &base));
  StoreServer* server = nullptr;
  HCCL_RETURN_IF_ERROR(StoreServer::Ensure(api, at, base, 32, &server));
  RootAddress a;
  a.ip = at.ip;
  a.port = server->port();
  a.job = RandomId();
  EncodeRootInfo(a, out);
  return HCCL_SUCCESS;
}

HcclResult InitFromRootInfo(const char* api, uint32_t nranks,
                            const HcclRootInfo& root, uint32_t rank,
                            const HcclCommConfig* config, int32_t device,
                            HcclComm* out) {
  RootAddress a;
  if (!DecodeRootInfo(root, &a)) {
    return Refuse(api, HCCL_E_PARA, "rootInfo was not made by HcclGetRootInfo");
  }
  Join j{api, nranks,           rank, 0, a.ip, a.port, "ri/" + Hex(a.job),
         {},  Origin::kRootInfo};
  HCCL_RETURN_IF_ERROR(ReadSettings(api, config, &j.settings));
  j.device = device;
  if (device < 0) HCCL_RETURN_IF_ERROR(CurrentDevice(api, &j.device));
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(JoinJob(j, &c));
  return Publish(c, out);
}

HcclResult InitFromRankTable(const char* api, const std::string& path,
                             uint32_t rank, const HcclCommConfig* config,
                             HcclComm* out) {
  RankTable table;
  HCCL_RETURN_IF_ERROR(LoadRankTable(api, path, &table));
  if (rank >= table.ranks.size()) {
    return Refuse(
        api, HCCL_E_PARA,
        "rank " + std::to_string(rank) + " is not in the rank table " + path);
  }
  const std::string prefix = "rt/" + Hex(table.digest) + "/";
  if (CommTable::Get().HasTableRank(prefix, rank)) {
    return Refuse(api, HCCL_E_PARA,
                  "rank " + std::to_string(rank) + " of " + path +
                      " is already initialised in this process");
  }
  CommSettings settings;
  HCCL_RETURN_IF_ERROR(ReadSettings(api, config, &settings));
  const RankTable::Rank& zero = table.ranks[0];
  NetAddress root;
  root.ip = zero.device_ip.empty() ? "127.0.0.1" : zero.device_ip;
  ParseAddress(root.ip, &root.family);
  uint16_t port = zero.device_port;
  if (port == 0) {
    HCCL_RETURN_IF_ERROR(BasePort(api, &port));
    if (port == 0) port = 60000;
  }
  Millis timeout;
  HCCL_RETURN_IF_ERROR(ConnectTimeout(api, &timeout));
  StoreServer* server = nullptr;
  std::string nonce;
  if (rank == 0) {
    HCCL_RETURN_IF_ERROR(StoreServer::Ensure(api, root, port, 1, &server));
    server->ErasePrefix(prefix);
    nonce = Hex(RandomId());
    StoreClient c;
    if (!c.Connect(root.ip, port, Clock::now() + timeout) ||
        !c.Set(prefix + "nonce", nonce)) {
      return Refuse(api, HCCL_E_TCP_CONNECT,
                    "cannot use this rank's own store");
    }
  } else {
    StoreClient c;
    c.set_timeout(timeout);
    const Clock::time_point deadline = Clock::now() + timeout;
    if (!c.Connect(root.ip, port, deadline)) {
      return Refuse(api, HCCL_E_TCP_CONNECT,
                    "cannot reach rank 0 at " + root.ip + ":" +
                        std::to_string(port) + " within HCCL_CONNECT_TIMEOUT");
    }
    if (!c.Get(prefix + "nonce", deadline, &nonce)) {
      return Refuse(api, HCCL_E_TIMEOUT,
                    "rank 0 did not start the job within HCCL_CONNECT_TIMEOUT");
    }
  }
  Join j{api,
         static_cast<uint32_t>(table.ranks.size()),
         rank,
         table.ranks[rank].device_id,
         root.ip,
         port,
         prefix + nonce,
         settings,
         Origin::kRankTable};
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(JoinJob(j, &c));
  c->table_prefix = prefix;
  c->table_server = server;
  return Publish(c, out);
}

HcclResult InitAll(const char* api, uint32_t ndev, const int32_t* devices,
                   HcclComm* comms) {
  const std::string job = "all/" + Hex(RandomId());
  auto world = std::make_shared<LocalWorld>(ndev);
  std::vector<HcclComm> made;
  for (uint32_t i = 0; i < ndev; ++i) {
    auto c = std::make_shared<Comm>();
    c->rank = i;
    c->size = ndev;
    c->device = devices[i];
    c->job = job;
    c->origin = Origin::kInitAll;
    c->world = world;
    c->transport = std::make_unique<LocalTransport>(world, i);
    HCCL_RETURN_IF_ERROR(ReadSettings(api, nullptr, &c->settings));
    c->name = DefaultName(job);
    HcclComm h = nullptr;
    const HcclResult r = Publish(c, &h);
    if (r != HCCL_SUCCESS) {
      for (HcclComm m : made) CommTable::Get().Remove(m);
      return r;
    }
    made.push_back(h);
  }
  for (uint32_t i = 0; i < ndev; ++i) comms[i] = made[i];
  return HCCL_SUCCESS;
}

HcclResult InitSubComm(const char* api, HcclComm parent_handle, uint32_t nranks,
                       const uint32_t* rank_ids, uint64_t sub_id,
                       uint32_t sub_rank, const HcclCommConfig* config,
                       HcclComm* out) {
  std::shared_ptr<Comm> parent;
  HCCL_RETURN_IF_ERROR(Lookup(api, parent_handle, &parent));
  if (parent->origin == Origin::kSubComm) {
    return Refuse(api, HCCL_E_PARA,
                  "a sub-communicator cannot be split further");
  }
  if (nranks == 0 || nranks > parent->size || sub_rank >= nranks) {
    return Refuse(api, HCCL_E_PARA,
                  "rankNum " + std::to_string(nranks) + " / subCommRankId " +
                      std::to_string(sub_rank) +
                      " do not fit a communicator "
                      "of " +
                      std::to_string(parent->size) + " ranks");
  }
  for (uint32_t i = 0; i < nranks; ++i) {
    if (rank_ids[i] >= parent->size ||
        (i > 0 && rank_ids[i] <= rank_ids[i - 1])) {
      return Refuse(api, HCCL_E_PARA,
                    "rankIds must be ascending ranks of the communicator");
    }
  }
  if (rank_ids[sub_rank] != parent->rank) {
    return Refuse(api, HCCL_E_PARA,
                  "rankIds[subCommRankId] is rank " +
                      std::to_string(rank_ids[sub_rank]) + ", not this rank " +
                      std::to_string(parent->rank));
  }
  CommSettings settings;
  HCCL_RETURN_IF_ERROR(ReadSettings(api, config, &settings));
  std::string key = settings.name.empty() ? "id" + std::to_string(sub_id)
                                          : "name" + settings.name;
  for (uint32_t i = 0; i < nranks; ++i)
    key += "." + std::to_string(rank_ids[i]);
  auto c = std::make_shared<Comm>();
  c->rank = sub_rank;
  c->size = nranks;
  c->device = parent->device;
  c->job = parent->job + "/sub/" + key;
  c->settings = settings;
  c->origin = Origin::kSubComm;
  c->name = settings.name.empty()
                ? (parent->name + "_sub_" + std::to_string(sub_id))
                      .substr(0, COMM_NAME_MAX_LENGTH - 1)
                : settings.name;
  if (parent->world != nullptr) {
    c->world = WorldOf(c->job, nranks);
    c->transport = std::make_unique<LocalTransport>(c->world, sub_rank);
  } else {
    Millis timeout;
    HCCL_RETURN_IF_ERROR(ConnectTimeout(api, &timeout));
    StoreClient client;
    client.set_timeout(timeout);
    if (!client.Connect(parent->rendezvous.ip, parent->rendezvous.port,
                        Clock::now() + timeout)) {
      return Refuse(api, HCCL_E_TCP_CONNECT,
                    "cannot reach the communicator's rendezvous store");
    }
    auto* gloo = static_cast<GlooTransport*>(parent->transport.get());
    NetAddress none;
    std::string why;
    c->transport =
        GlooTransport::Connect(client, c->job + "/gloo", sub_rank, nranks,
                               gloo->device(), none, timeout, &why);
    if (c->transport == nullptr) {
      return Refuse(api, HCCL_E_TIMEOUT,
                    "connecting the sub-communicator's ranks failed: " + why);
    }
    c->rendezvous = parent->rendezvous;
  }
  return Publish(c, out);
}

HcclResult DestroyComm(const char* api, HcclComm handle) {
  std::shared_ptr<Comm> c;
  HCCL_RETURN_IF_ERROR(Lookup(api, handle, &c));
  if (c->world == nullptr && c->running.load() != 0) {
    // A Gloo operation cannot be interrupted: CANN's "in use, try again".
    LogWarning(api, "comm is in use, please try again later");
    return HCCL_E_AGAIN;
  }
  CommTable::Get().Remove(handle);
  c->transport->Abort(Outcome::Remote(
      "Terminating operation due to external request (HcclCommDestroy)"));
  if (c->table_server != nullptr) c->table_server->ErasePrefix(c->table_prefix);
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
