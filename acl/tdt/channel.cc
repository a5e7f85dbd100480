#include "acl/tdt/channel.h"

#include <cstring>
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

uintptr_t Key(const acltdtChannelHandle* handle) {
  return reinterpret_cast<uintptr_t>(handle);
}

constexpr size_t kMaxNameLength = 127;  // bytes before the terminator

}  // namespace

Channels& Channels::Get() {
  static auto* const channels = new Channels;
  return *channels;
}

std::shared_ptr<Channels::Channel> Channels::FindLocked(
    const acltdtChannelHandle* handle) const {
  const auto it = channels_.find(Key(handle));
  return it == channels_.end() ? nullptr : it->second;
}

std::shared_ptr<Channels::Fifo> Channels::DeviceFifoLocked(
    uint32_t device, const std::string& name) {
  std::weak_ptr<Fifo>& slot = device_fifos_[DeviceFifoKey(device, name)];
  std::shared_ptr<Fifo> fifo = slot.lock();
  if (fifo == nullptr) {
    fifo = std::make_shared<Fifo>();
    fifo->depth = kDeviceChannelDepth;
    slot = fifo;
  }
  return fifo;
}

acltdtChannelHandle* Channels::Create(const char* api, uint32_t device,
                                      const char* name, size_t capacity,
                                      bool device_channel) {
  if (name == nullptr) {
    Reject(api, ACL_ERROR_INVALID_PARAM, "name is NULL");
    return nullptr;
  }
  if (strnlen(name, kMaxNameLength + 1) > kMaxNameLength) {
    Reject(api, ACL_ERROR_INVALID_PARAM, "the name is longer than 127 bytes");
    return nullptr;
  }
  if (!device_channel && (capacity < kMinCapacity || capacity > kMaxCapacity)) {
    Reject(api, ACL_ERROR_INVALID_PARAM,
           "capacity " + std::to_string(capacity) + " is outside [2, 8192]");
    return nullptr;
  }
  uint32_t count = 0;
  const aclError ret = aclrtGetDeviceCount(&count);
  if (ret != ACL_SUCCESS) {
    Reject(api, ret, "the device count is not available");
    return nullptr;
  }
  if (device >= count) {
    Reject(api, ACL_ERROR_INVALID_PARAM,
           "deviceId " + std::to_string(device) + " is not below the " +
               std::to_string(count) + " devices");
    return nullptr;
  }
  auto channel = std::make_shared<Channel>();
  channel->device = device;
  channel->name = name;
  channel->device_channel = device_channel;

  ascend::MutexLock lock(&mu_);
  if (!device_channel && named_.count(channel->name) != 0) {
    Reject(api, ACL_ERROR_INVALID_PARAM,
           "a channel named '" + channel->name + "' exists");
    return nullptr;
  }
  if (device_channel) {
    channel->send = DeviceFifoLocked(device, channel->name);
    const size_t prefix = sizeof kReceivePrefix - 1;
    if (channel->name.compare(0, prefix, kReceivePrefix) == 0) {
      channel->receive = DeviceFifoLocked(device, channel->name.substr(prefix));
    }
  } else {
    channel->send = std::make_shared<Fifo>();
    channel->send->depth = capacity;
    channel->receive = channel->send;
  }
  const uintptr_t id = next_id_;
  channels_.emplace(id, channel);
  if (!device_channel) {
    try {
      named_.emplace(channel->name, id);
    } catch (...) {
      channels_.erase(id);
      throw;
    }
  }
  ++next_id_;
  return reinterpret_cast<acltdtChannelHandle*>(id);
}

aclError Channels::Lookup(const char* api, const acltdtChannelHandle* handle,
                          bool* device_channel, std::string* name) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  *device_channel = channel->device_channel;
  *name = channel->name;
  return ACL_SUCCESS;
}

aclError Channels::Send(const char* api, const acltdtChannelHandle* handle,
                        std::shared_ptr<const Message> message,
                        int32_t timeout) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  const std::shared_ptr<Fifo> fifo = channel->send;
  auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return channel->stopped || fifo->messages.size() < fifo->depth;
  };
  if (!ready() && timeout != 0) {
    mu_.AwaitWithDeadline(absl::Condition(&ready), DeadlineFor(timeout));
  }
  if (channel->stopped) {
    return Reject(api, ACL_ERROR_FAILURE,
                  "channel '" + channel->name + "' is stopped");
  }
  if (fifo->messages.size() >= fifo->depth) {
    return Answer(api, ACL_ERROR_RT_QUEUE_FULL,
                  "channel '" + channel->name + "' is full");
  }
  fifo->messages.push_back(std::move(message));
  return ACL_SUCCESS;
}

aclError Channels::Receive(const char* api, const acltdtChannelHandle* handle,
                           int32_t timeout,
                           std::shared_ptr<const Message>* out) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  if (channel->receive == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "channel '" + channel->name + "' is not a receive channel");
  }
  const std::shared_ptr<Fifo> fifo = channel->receive;
  auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return channel->stopped || !fifo->messages.empty();
  };
  if (!ready() && timeout != 0) {
    mu_.AwaitWithDeadline(absl::Condition(&ready), DeadlineFor(timeout));
  }
  if (channel->stopped) {
    return Reject(api, ACL_ERROR_FAILURE,
                  "channel '" + channel->name + "' is stopped");
  }
  if (fifo->messages.empty()) {
    return Answer(api, ACL_ERROR_RT_QUEUE_EMPTY,
                  "channel '" + channel->name + "' is empty");
  }
  *out = std::move(fifo->messages.front());
  fifo->messages.pop_front();
  return ACL_SUCCESS;
}

void Channels::PutBack(const acltdtChannelHandle* handle,
                       std::shared_ptr<const Message> message) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel != nullptr && channel->receive != nullptr) {
    channel->receive->messages.push_front(std::move(message));
  }
}

aclError Channels::Stop(const char* api, const acltdtChannelHandle* handle) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  channel->stopped = true;  // waiters re-check when the lock is released
  return ACL_SUCCESS;
}

aclError Channels::Destroy(const char* api, const acltdtChannelHandle* handle) {
  std::shared_ptr<Channel> channel;  // freed after the lock is released
  ascend::MutexLock lock(&mu_);
  channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  channel->stopped = true;
  channels_.erase(Key(handle));
  if (!channel->device_channel) {
    named_.erase(channel->name);
    return ACL_SUCCESS;
  }
  // Forget the device FIFOs no channel uses any more.
  const uint32_t device = channel->device;
  std::string receive_name;
  const size_t prefix = sizeof kReceivePrefix - 1;
  if (channel->receive != nullptr) receive_name = channel->name.substr(prefix);
  channel->send.reset();
  channel->receive.reset();
  for (const std::string& name : {channel->name, receive_name}) {
    const auto it = device_fifos_.find(DeviceFifoKey(device, name));
    if (it != device_fifos_.end() && it->second.expired()) {
      device_fifos_.erase(it);
    }
  }
  return ACL_SUCCESS;
}

aclError Channels::Clean(const char* api, const acltdtChannelHandle* handle) {
  std::deque<std::shared_ptr<const Message>> dropped;  // freed unlocked
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  if (channel->device_channel) {
    return Reject(api, ACL_ERROR_FEATURE_UNSUPPORTED,
                  "a channel of acltdtCreateChannel cannot be cleaned");
  }
  dropped.swap(channel->send->messages);
  return ACL_SUCCESS;
}

aclError Channels::Size(const char* api, const acltdtChannelHandle* handle,
                        size_t* size) {
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<Channel> channel = FindLocked(handle);
  if (channel == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "unknown channel handle");
  }
  if (channel->device_channel) {
    return Reject(api, ACL_ERROR_FEATURE_UNSUPPORTED,
                  "a channel of acltdtCreateChannel has no size query");
  }
  *size = channel->send->messages.size();
  return ACL_SUCCESS;
}

}  // namespace ascend::tdt
