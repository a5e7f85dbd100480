#include "hccl/core/store.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>

#include "gloo/common/error.h"
#include "hccl/core/env.h"
#include "hccl/core/log.h"

namespace ascend::hccl {
namespace {

enum Op : uint8_t { kSet = 1, kSetIfAbsent = 2, kGet = 3, kErasePrefix = 4 };

// Keys and values are small; anything larger is a stray connection.
constexpr uint32_t kMaxField = 1u << 20;

struct Registry {
  std::mutex mu;
  std::vector<StoreServer*> servers;
  std::vector<std::pair<std::string, uint16_t>> keys;  // (ip, base) asked
};
Registry& Servers() {
  static Registry* r = new Registry;  // never destroyed: servers outlive main
  return *r;
}

void PutU32(std::string* s, uint32_t v) {
  s->append(reinterpret_cast<const char*>(&v), sizeof(v));
}
uint32_t GetU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

}  // namespace

struct StoreServer::Connection {
  int fd = -1;
  std::string in;
};

HcclResult StoreServer::Ensure(const char* api, const NetAddress& at,
                               uint16_t base, int tries, StoreServer** out) {
  Registry& r = Servers();
  std::lock_guard<std::mutex> lock(r.mu);
  for (size_t i = 0; i < r.keys.size(); ++i) {
    if (r.keys[i].first == at.ip && r.keys[i].second == base) {
      *out = r.servers[i];
      return HCCL_SUCCESS;
    }
  }
  bool white_on = false;
  std::vector<std::string> white;
  HCCL_RETURN_IF_ERROR(WhiteList(api, &white_on, &white));
  uint16_t port = 0;
  int fd = -1;
  if (base == 0 || tries >= 32) {
    fd = Listen(at, base, &port);
  } else {
    // One exact port (a rank table's device_port).
    fd = Listen(at, base, &port);
    if (fd >= 0 && port != base) {
      close(fd);
      fd = -1;
    }
  }
  if (fd < 0) {
    return Refuse(api, HCCL_E_NETWORK,
                  "cannot listen on " + at.ip +
                      (base ? " port " + std::to_string(base) : "") + ": " +
                      std::strerror(errno));
  }
  auto server = std::unique_ptr<StoreServer>(
      new StoreServer(at, fd, port, std::move(white), white_on));
  StoreServer* s = server.get();
  std::thread([s] { s->Loop(); }).detach();
  server.release();
  r.servers.push_back(s);
  r.keys.emplace_back(at.ip, base);
  *out = s;
  return HCCL_SUCCESS;
}

StoreServer::StoreServer(const NetAddress& at, int fd, uint16_t port,
                         std::vector<std::string> white_list,
                         bool white_list_on)
    : at_(at),
      listen_fd_(fd),
      port_(port),
      white_list_(std::move(white_list)),
      white_list_on_(white_list_on) {}

void StoreServer::ErasePrefix(const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = data_.lower_bound(prefix);
  while (it != data_.end() &&
         it->first.compare(0, prefix.size(), prefix) == 0) {
    it = data_.erase(it);
  }
}

void StoreServer::Answer(int fd, uint8_t status, const std::string& value) {
  std::string out(1, static_cast<char>(status));
  PutU32(&out, static_cast<uint32_t>(value.size()));
  out += value;
  // A client that does not read its answers is dropped by its next poll.
  (void)SendAll(fd, out.data(), out.size(),
                Clock::now() + std::chrono::seconds(2));
}

void StoreServer::Serve(Connection& c) {
  for (;;) {
    if (c.in.size() < 9) return;
    const uint8_t op = static_cast<uint8_t>(c.in[0]);
    const uint32_t klen = GetU32(c.in.data() + 1);
    const uint32_t vlen = GetU32(c.in.data() + 5);
    if (klen > kMaxField || vlen > kMaxField) {
      c.in.clear();
      close(c.fd);
      c.fd = -1;
      return;
    }
    if (c.in.size() < 9 + size_t{klen} + vlen) return;
    std::string key = c.in.substr(9, klen);
    std::string value = c.in.substr(9 + klen, vlen);
    c.in.erase(0, 9 + size_t{klen} + vlen);
    std::vector<int> wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      switch (op) {
        case kSet:
          data_[key] = value;
          break;
        case kSetIfAbsent: {
          auto it = data_.find(key);
          if (it != data_.end()) {
            Answer(c.fd, 0, it->second);
            continue;
          }
          data_[key] = value;
          break;
        }
        case kGet: {
          auto it = data_.find(key);
          if (it == data_.end()) {
            waiting_.emplace(key, c.fd);
          } else {
            Answer(c.fd, 0, it->second);
          }
          continue;
        }
        case kErasePrefix: {
          auto it = data_.lower_bound(key);
          while (it != data_.end() &&
                 it->first.compare(0, key.size(), key) == 0) {
            it = data_.erase(it);
          }
          Answer(c.fd, 0, "");
          continue;
        }
        default:
          close(c.fd);
          c.fd = -1;
          return;
      }
      auto range = waiting_.equal_range(key);
      for (auto it = range.first; it != range.second; ++it) {
        wake.push_back(it->second);
      }
      waiting_.erase(range.first, range.second);
      Answer(c.fd, op == kSetIfAbsent ? 1 : 0, value);
      for (int fd : wake) Answer(fd, 0, value);
    }
  }
}

void StoreServer::Loop() {
  std::vector<Connection> conns;
  for (;;) {
    try {
      std::vector<pollfd> fds;
      fds.push_back({listen_fd_, POLLIN, 0});
      for (const Connection& c : conns) fds.push_back({c.fd, POLLIN, 0});
      if (poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      for (size_t i = 1; i < fds.size(); ++i) {
        Connection& c = conns[i - 1];
        if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        char buf[4096];
        const ssize_t n = recv(c.fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n > 0) {
          c.in.append(buf, static_cast<size_t>(n));
          Serve(c);
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          close(c.fd);
          c.fd = -1;
        }
      }
      // Drop closed connections and their pending GETs.
      std::vector<Connection> alive;
      for (Connection& c : conns) {
        if (c.fd >= 0) alive.push_back(std::move(c));
      }
      if (alive.size() != conns.size()) {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto it = waiting_.begin(); it != waiting_.end();) {
          bool open = false;
          for (const Connection& c : alive) open = open || c.fd == it->second;
          it = open ? std::next(it) : waiting_.erase(it);
        }
      }
      conns = std::move(alive);
      if (fds[0].revents & POLLIN) {
        const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
          const std::string peer = PeerAddress(fd);
          if (white_list_on_ &&
              std::find(white_list_.begin(), white_list_.end(), peer) ==
                  white_list_.end()) {
            LogWarning("HcclRendezvous",
                       "refused " + peer + ": not in HCCL_WHITELIST_FILE");
            close(fd);
          } else {
            conns.push_back(Connection{fd, {}});
          }
        }
      }
    } catch (...) {
      // Out of memory: keep serving what can be served.
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

StoreClient::~StoreClient() {
  if (fd_ >= 0) close(fd_);
}

bool StoreClient::Connect(const std::string& ip, uint16_t port,
                          Clock::time_point deadline) {
  if (fd_ >= 0) close(fd_);
  fd_ = ConnectBefore(ip, port, deadline);
  return fd_ >= 0;
}

bool StoreClient::Request(uint8_t op, const std::string& key,
                          const std::string& value, Clock::time_point deadline,
                          uint8_t* status, std::string* reply) {
  if (fd_ < 0) return false;
  std::string out(1, static_cast<char>(op));
  PutU32(&out, static_cast<uint32_t>(key.size()));
  PutU32(&out, static_cast<uint32_t>(value.size()));
  out += key;
  out += value;
  char head[5];
  if (!SendAll(fd_, out.data(), out.size(), deadline) ||
      !RecvAll(fd_, head, sizeof(head), deadline)) {
    // The answer may still come: the connection cannot be reused.
    close(fd_);
    fd_ = -1;
    return false;
  }
  const uint32_t len = GetU32(head + 1);
  if (len > kMaxField) {
    close(fd_);
    fd_ = -1;
    return false;
  }
  reply->resize(len);
  if (len != 0 && !RecvAll(fd_, &(*reply)[0], len, deadline)) {
    close(fd_);
    fd_ = -1;
    return false;
  }
  *status = static_cast<uint8_t>(head[0]);
  return true;
}

bool StoreClient::SetIfAbsent(const std::string& key, const std::string& value,
                              bool* stored, std::string* existing) {
  uint8_t status = 0;
  if (!Request(kSetIfAbsent, key, value, Clock::now() + timeout_, &status,
               existing)) {
    return false;
  }
  *stored = status == 1;
  return true;
}

bool StoreClient::Get(const std::string& key, Clock::time_point deadline,
                      std::string* value) {
  uint8_t status = 0;
  return Request(kGet, key, "", deadline, &status, value);
}

bool StoreClient::Set(const std::string& key, const std::string& value) {
  uint8_t status = 0;
  std::string reply;
  return Request(kSet, key, value, Clock::now() + timeout_, &status, &reply);
}

bool StoreClient::ErasePrefix(const std::string& prefix) {
  uint8_t status = 0;
  std::string reply;
  return Request(kErasePrefix, prefix, "", Clock::now() + timeout_, &status,
                 &reply);
}

void StoreClient::set(const std::string& key, const std::vector<char>& data) {
  if (!Set(key, std::string(data.begin(), data.end()))) {
    throw gloo::IoException("rendezvous store: set " + key + " failed");
  }
}

std::vector<char> StoreClient::get(const std::string& key) {
  std::string v;
  if (!Get(key, Clock::now() + timeout_, &v)) {
    throw gloo::IoException("rendezvous store: timed out waiting for " + key);
  }
  return std::vector<char>(v.begin(), v.end());
}

void StoreClient::wait(const std::vector<std::string>& keys) {
  wait(keys, timeout_);
}

void StoreClient::wait(const std::vector<std::string>& keys,
                       const std::chrono::milliseconds& timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  for (const std::string& k : keys) {
    std::string v;
    if (!Get(k, deadline, &v)) {
      throw gloo::IoException("rendezvous store: timed out waiting for " + k);
    }
  }
}

}  // namespace ascend::hccl
