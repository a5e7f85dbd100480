// The profiler side of mstx (mstx/ms_tools_ext.h, DESIGN.md §5.24):
// InitInjectionMstx fills the header's tables with these functions, which
// record marks and ranges while a collection with ACL_PROF_MSPROFTX runs. A
// non-NULL stream also gets a mark at its place in task order
// (ascendclTimelineMark).
#define MSTX_NO_IMPL
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "acl/prof/collector.h"
#include "acl/prof/prof_log.h"
#include "acl/prof/thread_id.h"
#include "ascendcl/timeline.h"
#include "mstx/ms_tools_ext.h"

// What a domain handle points to (the header leaves the type opaque).
struct mstxDomainRegistration_st {
  std::string name;
};

namespace ascend::prof {
namespace {

constexpr const char* kDefaultDomain = "default";

struct OpenRange {
  std::string message;
  std::string domain;
  const mstxDomainRegistration_st* handle;  // null: the default domain
  uint64_t start;
  uint32_t thread;
  aclrtStream stream;
};

// Live domains by name, and ranges started and not ended.
class MstxState {
 public:
  static MstxState& Get() {
    static MstxState* const s = new MstxState();
    return *s;
  }
  mstxDomainHandle_t Create(const char* name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = domains_[name];
    if (slot == nullptr) {
      slot = std::make_unique<mstxDomainRegistration_st>();
      slot->name = name;
    }
    return slot.get();
  }
  void Destroy(mstxDomainHandle_t domain) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = domains_.begin(); it != domains_.end(); ++it) {
      if (it->second.get() == domain) {
        domains_.erase(it);
        return;
      }
    }
  }
  // The domain's name, or nullopt when it is not live.
  bool Name(mstxDomainHandle_t domain, std::string* name) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [n, d] : domains_) {
      if (d.get() == domain) {
        *name = n;
        return true;
      }
    }
    return false;
  }
  uint64_t Open(OpenRange range) {
    std::lock_guard<std::mutex> lock(mu_);
    const uint64_t id = next_id_++;
    ranges_.emplace(id, std::move(range));
    return id;
  }
  bool Close(uint64_t id, const mstxDomainRegistration_st* handle,
             OpenRange* range) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ranges_.find(id);
    if (it == ranges_.end() || it->second.handle != handle) return false;
    *range = std::move(it->second);
    ranges_.erase(it);
    return true;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<mstxDomainRegistration_st>> domains_;
  std::map<uint64_t, OpenRange> ranges_;
  uint64_t next_id_ = 1;
};

void Mark(const std::string& domain, const char* message, aclrtStream stream) {
  if (message == nullptr || !Collector::Get().TxActive()) return;
  if (stream != nullptr) (void)ascendclTimelineMark(stream, message);
  TxRecord r;
  r.type = "mstx_mark";
  r.message = message;
  r.domain = domain;
  r.thread = CurrentThreadId();
  r.start = r.end = MsprofSysCycleTime();
  Collector::Get().ReportTx(std::move(r));
}

mstxRangeId Start(const std::string& domain,
                  const mstxDomainRegistration_st* handle, const char* message,
                  aclrtStream stream) {
  if (message == nullptr || !Collector::Get().TxActive()) return 0;
  if (stream != nullptr) (void)ascendclTimelineMark(stream, message);
  return MstxState::Get().Open(OpenRange{message, domain, handle,
                                         MsprofSysCycleTime(),
                                         CurrentThreadId(), stream});
}

void End(const mstxDomainRegistration_st* handle, mstxRangeId id) {
  OpenRange range;
  if (!MstxState::Get().Close(id, handle, &range)) return;
  if (range.stream != nullptr) {
    (void)ascendclTimelineMark(range.stream, range.message.c_str());
  }
  TxRecord r;
  r.type = "mstx_range";
  r.message = std::move(range.message);
  r.domain = std::move(range.domain);
  r.thread = range.thread;
  r.start = range.start;
  r.end = MsprofSysCycleTime();
  r.id = id;
  Collector::Get().ReportTx(std::move(r));
}

void MarkA(const char* message, aclrtStream stream) try {
  Mark(kDefaultDomain, message, stream);
} catch (...) {
  EntryFailure<void>("mstxMarkA");
}

mstxRangeId RangeStartA(const char* message, aclrtStream stream) try {
  return Start(kDefaultDomain, nullptr, message, stream);
} catch (...) {
  return EntryFailure<mstxRangeId>("mstxRangeStartA");
}

void RangeEnd(mstxRangeId id) try { End(nullptr, id); } catch (...) {
  EntryFailure<void>("mstxRangeEnd");
}

void GetToolId(uint64_t* id) {
  if (id != nullptr) *id = MSTX_TOOL_MSPROF_ID;
}

mstxDomainHandle_t DomainCreateA(const char* name) try {
  if (name == nullptr) return nullptr;
  return MstxState::Get().Create(name);
} catch (...) {
  return EntryFailure<mstxDomainHandle_t>("mstxDomainCreateA");
}

void DomainDestroy(mstxDomainHandle_t domain) try {
  MstxState::Get().Destroy(domain);
} catch (...) {
  EntryFailure<void>("mstxDomainDestroy");
}

void DomainMarkA(mstxDomainHandle_t domain, const char* message,
                 aclrtStream stream) try {
  std::string name;
  if (MstxState::Get().Name(domain, &name)) Mark(name, message, stream);
} catch (...) {
  EntryFailure<void>("mstxDomainMarkA");
}

mstxRangeId DomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                              aclrtStream stream) try {
  std::string name;
  if (!MstxState::Get().Name(domain, &name)) return 0;
  return Start(name, domain, message, stream);
} catch (...) {
  return EntryFailure<mstxRangeId>("mstxDomainRangeStartA");
}

void DomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) try {
  End(domain, id);
} catch (...) {
  EntryFailure<void>("mstxDomainRangeEnd");
}

template <typename F>
void Fill(mstxFuncTable table, unsigned int size, unsigned int slot, F fn) {
  if (slot < size && table[slot] != nullptr) {
    *table[slot] = reinterpret_cast<mstxFuncPointer>(fn);
  }
}

}  // namespace
}  // namespace ascend::prof

extern "C" {

// Called by the header of mstx/ms_tools_ext.h in each shared object that
// uses it, at its first call: fills its tables.
MSVP_PROF_API int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable) try {
  using namespace ascend::prof;
  if (getFuncTable == nullptr) return MSTX_FAIL;
  mstxFuncTable table = nullptr;
  unsigned int size = 0;
  if (getFuncTable(MSTX_API_MODULE_CORE, &table, &size) == MSTX_SUCCESS &&
      table != nullptr) {
    Fill(table, size, MSTX_API_CORE_MARK_A, &MarkA);
    Fill(table, size, MSTX_API_CORE_RANGE_START_A, &RangeStartA);
    Fill(table, size, MSTX_API_CORE_RANGE_END, &RangeEnd);
    Fill(table, size, MSTX_API_CORE_GET_TOOL_ID, &GetToolId);
  }
  if (getFuncTable(MSTX_API_MODULE_CORE_DOMAIN, &table, &size) ==
          MSTX_SUCCESS &&
      table != nullptr) {
    Fill(table, size, MSTX_API_CORE2_DOMAIN_CREATE_A, &DomainCreateA);
    Fill(table, size, MSTX_API_CORE2_DOMAIN_DESTROY, &DomainDestroy);
    Fill(table, size, MSTX_API_CORE2_DOMAIN_MARK_A, &DomainMarkA);
    Fill(table, size, MSTX_API_CORE2_DOMAIN_RANGE_START_A, &DomainRangeStartA);
    Fill(table, size, MSTX_API_CORE2_DOMAIN_RANGE_END, &DomainRangeEnd);
  }
  return MSTX_SUCCESS;
}
PROF_ENTRY_CATCH_RETURN(MSTX_FAIL)

}  // extern "C"
