// Which address a process of a job uses (HCCL_IF_IP > HCCL_SOCKET_IFNAME >
// interfaces other than docker* and lo, by name > docker* > lo, as CANN's
// HCCL_IF_IP page orders them), and the few socket calls the rendezvous
// store needs (listen, connect with a deadline, whole-buffer send and
// receive). Bytes of operations never move here: Gloo carries them.
#ifndef ASCENDCL_HCCL_CORE_NETIF_H_
#define ASCENDCL_HCCL_CORE_NETIF_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

using Clock = std::chrono::steady_clock;

struct NetAddress {
  int family = 0;  // AF_INET or AF_INET6
  std::string ip;  // numeric
};

// This process's address for HCCL. HCCL_E_PARA: HCCL_IF_IP is no address, a
// rule matches no interface, HCCL_SOCKET_FAMILY is neither AF_INET nor
// AF_INET6; HCCL_E_NETWORK: no interface has an address.
HcclResult LocalAddress(const char* api, NetAddress* out);

// Whether `ip` is a numeric address; its family.
bool ParseAddress(const std::string& ip, int* family);

// A listening TCP socket on ip (port: the first free of [base, base + 32),
// or any free port when base is 0), close-on-exec; -1 on failure (errno).
int Listen(const NetAddress& at, uint16_t base, uint16_t* port);
// A connected socket to ip:port, retrying until `deadline` while nobody
// listens yet; -1 when the deadline passed.
int ConnectBefore(const std::string& ip, uint16_t port,
                  Clock::time_point deadline);
// Whole-buffer I/O; false on error, end of stream or the deadline.
bool SendAll(int fd, const void* data, size_t size, Clock::time_point deadline);
bool RecvAll(int fd, void* data, size_t size, Clock::time_point deadline);
// The numeric address of a connected socket's peer.
std::string PeerAddress(int fd);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_NETIF_H_
