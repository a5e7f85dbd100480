#include "acl/tdt/queue.h"

#include <utility>

#include "absl/synchronization/mutex.h"
#include "acl/acl_rt.h"
#include "acl/tdt/tdt_util.h"

namespace ascend::tdt {
namespace {

// Full and empty are answers, not faults: logged at INFO.
aclError Answer(const char* api, aclError code, const std::string& message) {
  LogInfo(api, message + " (error " + std::to_string(code) + ")");
  return code;
}

std::string QueueName(uint32_t qid) { return "queue " + std::to_string(qid); }

// The valid data length of buf's chain (head included); the runtime's code
// when buf is not a live buffer.
aclError ChainLength(void* buf, size_t* total) {
  uint32_t count = 0;
  aclError ret = aclrtGetBufChainNum(buf, &count);
  if (ret != ACL_SUCCESS) return ret;
  *total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    void* piece = nullptr;
    size_t len = 0;
    ret = aclrtGetBufFromChain(buf, i, &piece);
    if (ret == ACL_SUCCESS) ret = aclrtGetBufDataLen(piece, &len);
    if (ret != ACL_SUCCESS) return ret;
    *total += len;
  }
  return ACL_SUCCESS;
}

}  // namespace

Queues& Queues::Get() {
  static auto* const queues = new Queues;
  return *queues;
}

std::shared_ptr<Queues::Queue> Queues::FindLocked(std::optional<int32_t> device,
                                                  uint32_t qid) const {
  const auto it = queues_.find(qid);
  if (it == queues_.end()) return nullptr;
  if (device.has_value() && it->second->device != *device) return nullptr;
  return it->second;
}

bool Queues::IsSourceLocked(uint32_t qid) const {
  const auto it = routes_.lower_bound(Route(qid, 0));
  return it != routes_.end() && it->first == qid;
}

bool Queues::IsDestinationLocked(uint32_t qid) const {
  for (const Route& route : routes_) {
    if (route.second == qid) return true;
  }
  return false;
}

aclError Queues::Create(const char* api, int32_t device,
                        const std::string& name, uint32_t depth,
                        uint32_t* qid) {
  if (depth < kMinDepth || depth > kMaxDepth) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID,
                  "depth " + std::to_string(depth) + " is outside [2, 8192]");
  }
  ascend::MutexLock lock(&mu_);
  const auto taken =
      [&](const std::string& candidate) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        for (const auto& [id, queue] : queues_) {
          if (queue->device == device && queue->name == candidate) {
            return true;
          }
        }
        return false;
      };
  std::string actual = name;
  if (actual.empty()) {
    // A generated name that no queue of the device uses.
    for (uint32_t n = next_qid_; actual.empty() || taken(actual); ++n) {
      actual = "tdt_queue_" + std::to_string(n);
    }
  } else if (taken(actual)) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "a queue named '" + actual + "' exists on device " +
                      std::to_string(device));
  }
  auto queue = std::make_shared<Queue>();
  queue->device = device;
  queue->name = std::move(actual);
  queue->depth = depth;
  const uint32_t id = next_qid_;
  queues_.emplace(id, std::move(queue));
  ++next_qid_;
  *qid = id;
  return ACL_SUCCESS;
}

aclError Queues::Destroy(const char* api, int32_t device, uint32_t qid,
                         Garbage* garbage) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Queue> queue = FindLocked(device, qid);
  if (queue == nullptr) {
    return Reject(
        api, ACL_ERROR_RT_PARAM_INVALID,
        "no " + QueueName(qid) + " on device " + std::to_string(device));
  }
  if (IsSourceLocked(qid) || IsDestinationLocked(qid)) {
    return Reject(api, ACL_ERROR_FAILURE,
                  QueueName(qid) + " is bound by a route: unbind it first");
  }
  garbage->reserve(garbage->size() + queue->buffers.size());
  queues_.erase(qid);
  queue->destroyed = true;  // waiters re-check when the lock is released
  for (void* buf : queue->buffers) {
    queued_.erase(buf);
    garbage->push_back(buf);
  }
  queue->buffers.clear();
  return ACL_SUCCESS;
}

aclError Queues::Check(const char* api, std::optional<int32_t> device,
                       uint32_t qid) {
  ascend::MutexLock lock(&mu_);
  if (FindLocked(device, qid) == nullptr) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID, "no " + QueueName(qid));
  }
  return ACL_SUCCESS;
}

aclError Queues::Enqueue(const char* api, std::optional<int32_t> device,
                         uint32_t qid, void* buf, int32_t timeout,
                         Garbage* garbage) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Queue> queue = FindLocked(device, qid);
  if (queue == nullptr) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID, "no " + QueueName(qid));
  }
  if (queued_.contains(buf)) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID,
                  "the buffer is already in a queue");
  }
  auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return queue->destroyed || queue->buffers.size() < queue->depth;
  };
  if (!ready() && timeout != 0) {
    mu_.AwaitWithDeadline(absl::Condition(&ready), DeadlineFor(timeout));
  }
  if (queue->destroyed) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID,
                  QueueName(qid) + " was destroyed");
  }
  if (queue->buffers.size() >= queue->depth) {
    return Answer(api, ACL_ERROR_RT_QUEUE_FULL, QueueName(qid) + " is full");
  }
  if (queued_.contains(buf)) {  // enqueued by another thread meanwhile
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID,
                  "the buffer is already in a queue");
  }
  queued_.insert(buf);
  try {
    queue->buffers.push_back(buf);
  } catch (...) {
    queued_.erase(buf);
    throw;
  }
  PumpLocked(qid, garbage);
  return ACL_SUCCESS;
}

aclError Queues::Dequeue(const char* api, std::optional<int32_t> device,
                         uint32_t qid, int32_t timeout,
                         std::optional<size_t> max_len, void** buf, size_t* len,
                         Garbage* garbage) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Queue> queue = FindLocked(device, qid);
  if (queue == nullptr) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID, "no " + QueueName(qid));
  }
  auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return queue->destroyed || !queue->buffers.empty();
  };
  if (!ready() && timeout != 0) {
    mu_.AwaitWithDeadline(absl::Condition(&ready), DeadlineFor(timeout));
  }
  if (queue->destroyed) {
    return Reject(api, ACL_ERROR_RT_PARAM_INVALID,
                  QueueName(qid) + " was destroyed");
  }
  if (queue->buffers.empty()) {
    return Answer(api, ACL_ERROR_RT_QUEUE_EMPTY, QueueName(qid) + " is empty");
  }
  void* const head = queue->buffers.front();
  size_t total = 0;
  const aclError ret = ChainLength(head, &total);
  if (ret != ACL_SUCCESS) {
    // Freed behind the queue's back: it leaves the queue.
    queue->buffers.pop_front();
    queued_.erase(head);
    PumpLocked(qid, garbage);
    return Reject(api, ret,
                  "the oldest buffer of " + QueueName(qid) +
                      " is no longer a live buffer");
  }
  *len = total;
  if (max_len.has_value() && total > *max_len) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "dataSize " + std::to_string(*max_len) +
                      " is below the oldest buffer's " + std::to_string(total) +
                      " bytes");
  }
  queue->buffers.pop_front();
  queued_.erase(head);
  *buf = head;
  PumpLocked(qid, garbage);
  return ACL_SUCCESS;
}

void Queues::PutBack(uint32_t qid, void* buf, Garbage* garbage) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Queue> queue = FindLocked(std::nullopt, qid);
  if (queue == nullptr) {
    garbage->push_back(buf);
    return;
  }
  queue->buffers.push_front(buf);
  queued_.insert(buf);
}

bool Queues::Queued(void* buf) const {
  ascend::MutexLock lock(&mu_);
  return queued_.contains(buf);
}

void Queues::PumpLocked(uint32_t qid, Garbage* garbage) {
  // The caller's own change is made; moving data along routes is extra work
  // that must not turn it into a failure.
  try {
    if (IsSourceLocked(qid)) PumpSourceLocked(qid, garbage);
    std::vector<uint32_t> sources;
    for (const Route& route : routes_) {
      if (route.second == qid) sources.push_back(route.first);
    }
    for (uint32_t src : sources) PumpSourceLocked(src, garbage);
  } catch (...) {
    try {
      LogWarning(__func__, "buffers along the routes of " + QueueName(qid) +
                               " wait: out of host memory");
    } catch (...) {
    }
  }
}

void Queues::PumpSourceLocked(uint32_t src, Garbage* garbage) {
  const std::shared_ptr<Queue> source = FindLocked(std::nullopt, src);
  if (source == nullptr) return;
  std::vector<std::shared_ptr<Queue>> destinations;
  for (auto it = routes_.lower_bound(Route(src, 0));
       it != routes_.end() && it->first == src; ++it) {
    std::shared_ptr<Queue> destination = FindLocked(std::nullopt, it->second);
    if (destination != nullptr) destinations.push_back(std::move(destination));
  }
  if (destinations.empty()) return;
  while (!source->buffers.empty()) {
    for (const auto& destination : destinations) {
      if (destination->buffers.size() >= destination->depth) return;
    }
    void* const buf = source->buffers.front();
    // Every destination after the first gets a reference to the same data.
    std::vector<void*> copies;
    copies.reserve(destinations.size() - 1);
    for (size_t i = 1; i < destinations.size(); ++i) {
      void* copy = nullptr;
      const aclError ret = aclrtCopyBufRef(buf, &copy);
      if (ret != ACL_SUCCESS) {
        LogWarning(__func__, "a buffer of " + QueueName(src) +
                                 " waits: its reference copy failed (error " +
                                 std::to_string(ret) + ")");
        garbage->insert(garbage->end(), copies.begin(), copies.end());
        return;
      }
      copies.push_back(copy);
    }
    source->buffers.pop_front();
    destinations[0]->buffers.push_back(buf);
    for (size_t i = 1; i < destinations.size(); ++i) {
      destinations[i]->buffers.push_back(copies[i - 1]);
      queued_.insert(copies[i - 1]);
    }
  }
}

std::string Queues::BindRefusalLocked(int32_t device, uint32_t src,
                                      uint32_t dst) const {
  if (src == dst) return "a queue cannot be bound to itself";
  if (FindLocked(device, src) == nullptr) {
    return "no source " + QueueName(src) + " on this device";
  }
  if (FindLocked(device, dst) == nullptr) {
    return "no destination " + QueueName(dst) + " on this device";
  }
  if (routes_.count(Route(src, dst)) != 0) return "";  // bound already
  if (IsSourceLocked(dst)) {
    return "destination " + QueueName(dst) + " is the source of a route";
  }
  if (IsDestinationLocked(src)) {
    return "source " + QueueName(src) + " is the destination of a route";
  }
  return "";
}

aclError Queues::Bind(const char* api, int32_t device,
                      acltdtQueueRouteList* list, Garbage* garbage) {
  ascend::MutexLock lock(&mu_);
  size_t refused = 0;
  std::string first_reason;
  for (acltdtQueueRoute& route : list->routes) {
    const std::string reason = BindRefusalLocked(device, route.src, route.dst);
    if (!reason.empty()) {
      route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
      if (refused++ == 0) first_reason = reason;
      continue;
    }
    routes_.insert(Route(route.src, route.dst));
    route.status = ACL_TDT_QUEUE_ROUTE_BIND;
  }
  // Data already waiting in a source starts moving.
  for (const acltdtQueueRoute& route : list->routes) {
    if (route.status == ACL_TDT_QUEUE_ROUTE_BIND)
      PumpLocked(route.src, garbage);
  }
  if (refused != 0) {
    return Reject(api, ACL_ERROR_FAILURE,
                  std::to_string(refused) + " of " +
                      std::to_string(list->routes.size()) +
                      " routes refused; the first: " + first_reason);
  }
  return ACL_SUCCESS;
}

void Queues::Unbind(int32_t device, acltdtQueueRouteList* list) {
  ascend::MutexLock lock(&mu_);
  for (acltdtQueueRoute& route : list->routes) {
    const std::shared_ptr<Queue> source = FindLocked(device, route.src);
    if (source != nullptr) routes_.erase(Route(route.src, route.dst));
    route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  }
}

void Queues::Query(int32_t device, const acltdtQueueRouteQueryInfo& query,
                   std::vector<acltdtQueueRoute>* routes) const {
  ascend::MutexLock lock(&mu_);
  if (query.mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL) return;  // none
  for (const Route& route : routes_) {
    if (FindLocked(device, route.first) == nullptr) continue;
    const bool src = route.first == query.src;
    const bool dst = route.second == query.dst;
    bool match = false;
    switch (query.mode) {
      case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
        match = src;
        break;
      case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
        match = dst;
        break;
      default:  // ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST
        match = src && dst;
        break;
    }
    if (match) {
      routes->push_back(acltdtQueueRoute{route.first, route.second,
                                         ACL_TDT_QUEUE_ROUTE_BIND});
    }
  }
}

}  // namespace ascend::tdt
