#include "hccl/core/group.h"

#include <thread>
#include <utility>
#include <vector>

#include "hccl/core/comm.h"
#include "hccl/core/launch.h"
#include "hccl/core/log.h"
#include "hccl/core/op.h"

namespace ascend::hccl {
namespace {

struct Batch {
  HcclComm comm;
  aclrtStream stream;
  std::vector<HcclSendRecvItem> items;
};

struct Group {
  int depth = 0;
  bool any = false;
  GroupUse use = GroupUse::kComm;
  std::vector<std::function<HcclResult()>> makes;
  std::vector<Batch> batches;
};

Group& Mine() {
  thread_local Group g;
  return g;
}

HcclResult RunMakes(std::vector<std::function<HcclResult()>> makes) {
  if (makes.size() == 1) return makes[0]();
  std::vector<HcclResult> results(makes.size(), HCCL_SUCCESS);
  std::vector<std::thread> threads;
  HcclResult failed = HCCL_SUCCESS;
  for (size_t i = 0; i < makes.size(); ++i) {
    try {
      threads.emplace_back([&, i] {
        try {
          results[i] = makes[i]();
        } catch (...) {
          results[i] = HCCL_E_INTERNAL;
        }
      });
    } catch (...) {
      // No thread: this creation cannot run beside the others.
      results[i] = HCCL_E_UNAVAIL;
    }
  }
  for (std::thread& t : threads) t.join();
  for (HcclResult r : results) {
    if (failed == HCCL_SUCCESS) failed = r;
  }
  return failed;
}

HcclResult SubmitBatch(const char* api, const Batch& b) {
  std::shared_ptr<Comm> c = CommTable::Get().Find(b.comm);
  if (c == nullptr) {
    return Refuse(api, HCCL_E_PARA,
                  "a communicator of the group was destroyed before its end");
  }
  OpBuilder op(OpKind::kBatchSendRecv, c->id);
  for (const HcclSendRecvItem& it : b.items) {
    OpItem item{};
    item.type = static_cast<uint32_t>(it.sendRecvType);
    item.dtype = static_cast<uint32_t>(it.dataType);
    item.buf = reinterpret_cast<uint64_t>(it.buf);
    item.count = it.count;
    item.peer = it.remoteRank;
    op.AddItem(item);
  }
  return Submit(api, op.Finish(), b.stream);
}

}  // namespace

bool GroupActive() { return Mine().depth > 0; }

void GroupStart() { ++Mine().depth; }

HcclResult GroupEnd(const char* api) {
  Group& g = Mine();
  if (g.depth == 0) {
    return Refuse(api, HCCL_E_PARA, "HcclGroupEnd without HcclGroupStart");
  }
  if (--g.depth > 0) return HCCL_SUCCESS;
  std::vector<std::function<HcclResult()>> makes = std::move(g.makes);
  std::vector<Batch> batches = std::move(g.batches);
  g = Group();
  HcclResult result = HCCL_SUCCESS;
  if (!makes.empty()) result = RunMakes(std::move(makes));
  for (const Batch& b : batches) {
    const HcclResult r = SubmitBatch(api, b);
    if (result == HCCL_SUCCESS) result = r;
  }
  return result;
}

HcclResult GroupNote(const char* api, GroupUse use) {
  Group& g = Mine();
  if (g.any && g.use != use) {
    return Refuse(api, HCCL_E_PARA,
                  "a group holds one kind of call: communicator management, "
                  "collectives, or sends and receives");
  }
  g.any = true;
  g.use = use;
  return HCCL_SUCCESS;
}

void GroupDefer(std::function<HcclResult()> make) {
  Mine().makes.push_back(std::move(make));
}

void GroupDeferTransfer(HcclComm comm, aclrtStream stream,
                        const HcclSendRecvItem& item) {
  Group& g = Mine();
  for (Batch& b : g.batches) {
    if (b.comm == comm && b.stream == stream) {
      b.items.push_back(item);
      return;
    }
  }
  g.batches.push_back({comm, stream, {item}});
}

}  // namespace ascend::hccl
