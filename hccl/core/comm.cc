#include "hccl/core/comm.h"

#include "hccl/core/log.h"

namespace ascend::hccl {

Outcome Outcome::Timeout(std::string why) {
  return {HCCL_E_TIMEOUT, ACL_ERROR_RT_WAIT_TIMEOUT, std::move(why)};
}
Outcome Outcome::Remote(std::string why) {
  return {HCCL_E_REMOTE, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, std::move(why)};
}
Outcome Outcome::Mismatch(std::string why) {
  return {HCCL_E_PARA, ACL_ERROR_RT_INTERNAL_ERROR, std::move(why)};
}
Outcome Outcome::Suspended(std::string why) {
  return {HCCL_E_SUSPENDING, ACL_ERROR_RT_INTERNAL_ERROR, std::move(why)};
}
Outcome Outcome::Internal(std::string why) {
  return {HCCL_E_INTERNAL, ACL_ERROR_RT_INTERNAL_ERROR, std::move(why)};
}

CommTable& CommTable::Get() {
  static CommTable* t = new CommTable;  // never destroyed: tasks may run late
  return *t;
}

HcclResult CommTable::Add(const char* api, std::shared_ptr<Comm> c,
                          HcclComm* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, other] : comms_) {
    if (other->name == c->name && other->job != c->job) {
      return Refuse(api, HCCL_E_PARA,
                    "a communicator named " + c->name +
                        " already exists in this process");
    }
  }
  c->id = next_++;
  comms_[c->id] = c;
  *handle = reinterpret_cast<HcclComm>(static_cast<uintptr_t>(c->id));
  return HCCL_SUCCESS;
}

std::shared_ptr<Comm> CommTable::Find(HcclComm handle) const {
  return FindById(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
}

std::shared_ptr<Comm> CommTable::FindById(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = comms_.find(id);
  return it == comms_.end() ? nullptr : it->second;
}

std::shared_ptr<Comm> CommTable::Remove(HcclComm handle) {
  const auto id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  std::lock_guard<std::mutex> lock(mu_);
  auto it = comms_.find(id);
  if (it == comms_.end()) return nullptr;
  std::shared_ptr<Comm> c = std::move(it->second);
  comms_.erase(it);
  return c;
}

std::shared_ptr<Comm> CommTable::FindByName(const std::string& name,
                                            int32_t device) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<Comm> any;
  for (const auto& [id, c] : comms_) {
    if (c->name != name) continue;
    if (c->device == device) return c;
    if (any == nullptr) any = c;
  }
  return any;
}

bool CommTable::HasTableRank(const std::string& prefix, uint32_t rank) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, c] : comms_) {
    if (c->origin == Origin::kRankTable &&
        c->job.compare(0, prefix.size(), prefix) == 0 && c->rank == rank) {
      return true;
    }
  }
  return false;
}

std::vector<std::shared_ptr<Comm>> CommTable::OnDevice(int32_t device) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<Comm>> out;
  for (const auto& [id, c] : comms_) {
    if (c->device == device) out.push_back(c);
  }
  return out;
}

HcclResult Lookup(const char* api, HcclComm handle,
                  std::shared_ptr<Comm>* out) {
  if (handle == nullptr) return Refuse(api, HCCL_E_PTR, "comm is NULL");
  *out = CommTable::Get().Find(handle);
  if (*out == nullptr) {
    return Refuse(api, HCCL_E_PARA,
                  "comm is not a live communicator (destroyed, or never made)");
  }
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
