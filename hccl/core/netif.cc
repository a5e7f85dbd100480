#include "hccl/core/netif.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "hccl/core/env.h"
#include "hccl/core/log.h"

namespace ascend::hccl {
namespace {

struct Candidate {
  std::string name;
  NetAddress address;
};

// Interfaces with an address of `family`, in the order of their names.
std::vector<Candidate> Interfaces(int family) {
  std::vector<Candidate> found;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != family) continue;
    if ((i->ifa_flags & IFF_UP) == 0) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw =
        family == AF_INET
            ? static_cast<const void*>(
                  &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr)
            : static_cast<const void*>(
                  &reinterpret_cast<sockaddr_in6*>(i->ifa_addr)->sin6_addr);
    if (inet_ntop(family, raw, text, sizeof(text)) == nullptr) continue;
    // Link-local IPv6 addresses need a scope: skip them.
    if (family == AF_INET6 && std::strncmp(text, "fe80", 4) == 0) continue;
    found.push_back({i->ifa_name, {family, text}});
  }
  freeifaddrs(list);
  std::stable_sort(
      found.begin(), found.end(),
      [](const Candidate& a, const Candidate& b) { return a.name < b.name; });
  return found;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = s.find(',', at);
    const size_t end = comma == std::string::npos ? s.size() : comma;
    if (end > at) parts.push_back(s.substr(at, end - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return parts;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// HCCL_SOCKET_IFNAME's four forms.
bool Matches(const std::string& rule, const std::string& name) {
  std::string r = rule;
  bool negate = false;
  bool exact = false;
  if (StartsWith(r, "^")) {
    negate = true;
    r = r.substr(1);
  }
  if (StartsWith(r, "=")) {
    exact = true;
    r = r.substr(1);
  }
  bool any = false;
  for (const std::string& p : Split(r)) {
    if (exact ? name == p : StartsWith(name, p)) any = true;
  }
  return negate ? !any : any;
}

void SetCloexecNodelay(int fd) {
  const int flags = fcntl(fd, F_GETFD);
  if (flags >= 0) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

bool FillSockaddr(const std::string& ip, uint16_t port, sockaddr_storage* ss,
                  socklen_t* len) {
  std::memset(ss, 0, sizeof(*ss));
  auto* v4 = reinterpret_cast<sockaddr_in*>(ss);
  if (inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    *len = sizeof(sockaddr_in);
    return true;
  }
  auto* v6 = reinterpret_cast<sockaddr_in6*>(ss);
  if (inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    *len = sizeof(sockaddr_in6);
    return true;
  }
  return false;
}

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - Clock::now());
  if (left.count() <= 0) return 0;
  return static_cast<int>(std::min<int64_t>(left.count(), 1000 * 1000));
}

}  // namespace

bool ParseAddress(const std::string& ip, int* family) {
  sockaddr_storage ss;
  socklen_t len = 0;
  if (!FillSockaddr(ip, 0, &ss, &len)) return false;
  *family = ss.ss_family;
  return true;
}

HcclResult LocalAddress(const char* api, NetAddress* out) {
  const std::string if_ip = EnvString("HCCL_IF_IP");
  if (!if_ip.empty()) {
    int family = 0;
    if (!ParseAddress(if_ip, &family)) {
      return Refuse(api, HCCL_E_PARA,
                    "HCCL_IF_IP=" + if_ip + " is not an IPv4 or IPv6 address");
    }
    *out = {family, if_ip};
    return HCCL_SUCCESS;
  }
  const std::string family_name = EnvString("HCCL_SOCKET_FAMILY");
  int family = AF_INET;
  if (family_name == "AF_INET6") {
    family = AF_INET6;
  } else if (!family_name.empty() && family_name != "AF_INET") {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_SOCKET_FAMILY=" + family_name +
                      " is neither AF_INET nor AF_INET6");
  }
  const std::vector<Candidate> all = Interfaces(family);
  const std::string rule = EnvString("HCCL_SOCKET_IFNAME");
  if (!rule.empty()) {
    for (const Candidate& c : all) {
      if (Matches(rule, c.name)) {
        *out = c.address;
        return HCCL_SUCCESS;
      }
    }
    return Refuse(
        api, HCCL_E_PARA,
        "HCCL_SOCKET_IFNAME=" + rule + " matches no interface with an address");
  }
  // Others by name, then docker*, then lo.
  for (int pass = 0; pass < 3; ++pass) {
    for (const Candidate& c : all) {
      const bool lo = c.name == "lo";
      const bool docker = StartsWith(c.name, "docker");
      if ((pass == 0 && !lo && !docker) || (pass == 1 && docker) ||
          (pass == 2 && lo)) {
        *out = c.address;
        return HCCL_SUCCESS;
      }
    }
  }
  return Refuse(api, HCCL_E_NETWORK, "no network interface has an address");
}

int Listen(const NetAddress& at, uint16_t base, uint16_t* port) {
  const int tries = base == 0 ? 1 : 32;
  for (int i = 0; i < tries; ++i) {
    const uint16_t want = base == 0 ? 0 : static_cast<uint16_t>(base + i);
    sockaddr_storage ss;
    socklen_t len = 0;
    if (!FillSockaddr(at.ip, want, &ss, &len)) {
      errno = EINVAL;
      return -1;
    }
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0 &&
        listen(fd, 1024) == 0) {
      sockaddr_storage bound;
      socklen_t blen = sizeof(bound);
      getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &blen);
      *port = ntohs(bound.ss_family == AF_INET
                        ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                        : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
      return fd;
    }
    const int saved = errno;
    close(fd);
    errno = saved;
  }
  return -1;
}

int ConnectBefore(const std::string& ip, uint16_t port,
                  Clock::time_point deadline) {
  sockaddr_storage ss;
  socklen_t len = 0;
  if (!FillSockaddr(ip, port, &ss, &len)) return -1;
  auto pause = std::chrono::milliseconds(5);
  for (;;) {
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0) {
      SetCloexecNodelay(fd);
      return fd;
    }
    close(fd);
    if (Clock::now() + pause >= deadline) return -1;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(200));
  }
}

bool SendAll(int fd, const void* data, size_t size,
             Clock::time_point deadline) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    pollfd pfd{fd, POLLOUT, 0};
    const int ready = poll(&pfd, 1, RemainingMs(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool RecvAll(int fd, void* data, size_t size, Clock::time_point deadline) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    pollfd pfd{fd, POLLIN, 0};
    const int ready = poll(&pfd, 1, RemainingMs(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t n = recv(fd, p, size, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::string PeerAddress(int fd) {
  sockaddr_storage ss;
  socklen_t len = sizeof(ss);
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "";
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw = ss.ss_family == AF_INET
                        ? static_cast<const void*>(
                              &reinterpret_cast<sockaddr_in*>(&ss)->sin_addr)
                        : static_cast<const void*>(
                              &reinterpret_cast<sockaddr_in6*>(&ss)->sin6_addr);
  if (inet_ntop(ss.ss_family, raw, text, sizeof(text)) == nullptr) return "";
  std::string s(text);
  // An IPv4 peer of an IPv6 socket reads as ::ffff:a.b.c.d.
  if (StartsWith(s, "::ffff:")) s = s.substr(7);
  return s;
}

}  // namespace ascend::hccl
