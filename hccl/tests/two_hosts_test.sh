#!/usr/bin/env bash
# Ranks on two "hosts": two network namespaces joined by a veth pair, each
# rank binding its namespace's address (HCCL_IF_IP), rank 0 publishing the
# root information for the others (as a launcher passes it on). Four ranks,
# two per namespace, run every operation over Gloo across the pair.
#
#   two_hosts_test.sh HCCL_RANK_BINARY
#
# Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) and iproute2; where namespaces
# cannot be made, it says why and passes without running (a skip).
set -uo pipefail
rank_bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
skip() {
  echo "SKIP: $*"
  exit 0
}
command -v ip >/dev/null 2>&1 || skip "no ip command (iproute2)"
suffix=$(printf '%04x' $((RANDOM)))
ns_a="hccl_a_$suffix"
ns_b="hccl_b_$suffix"
veth_a="hva$suffix"
veth_b="hvb$suffix"
net="10.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1))"
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/two_hosts.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [[ -n "$p" ]] && kill -9 "$p" 2>/dev/null; done
  ip netns del "$ns_a" 2>/dev/null
  ip netns del "$ns_b" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$ns_a" 2>"$work/err" ||
  skip "cannot create a network namespace: $(cat "$work/err")"
ip netns add "$ns_b" || skip "cannot create a second network namespace"
ip link add "$veth_a" type veth peer name "$veth_b" ||
  skip "cannot create a veth pair"
ip link set "$veth_a" netns "$ns_a" && ip link set "$veth_b" netns "$ns_b" ||
  skip "cannot move the veth ends into the namespaces"
ip -n "$ns_a" addr add "$net.1/24" dev "$veth_a"
ip -n "$ns_b" addr add "$net.2/24" dev "$veth_b"
for ns in "$ns_a" "$ns_b"; do
  ip -n "$ns" link set lo up
done
ip -n "$ns_a" link set "$veth_a" up
ip -n "$ns_b" link set "$veth_b" up
echo "host A: $ns_a $net.1; host B: $ns_b $net.2"

root_file="$work/root_info"
# rank -> namespace and address: 0, 1 on A; 2, 3 on B.
for rank in 0 1 2 3; do
  if ((rank < 2)); then ns=$ns_a ip=$net.1; else ns=$ns_b ip=$net.2; fi
  ip netns exec "$ns" env HCCL_IF_IP="$ip" HCCL_EXEC_TIMEOUT=30 \
    HCCL_CONNECT_TIMEOUT=30 timeout 120 "$rank_bin" --nranks=4 \
    --rank="$rank" --device="$((rank % 2))" --root_file="$root_file" \
    --scenario=collectives >"$work/rank$rank.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in 0 1 2 3; do
  if ! wait "${pids[$i]}"; then failed=1; fi
  pids[$i]=""
  cat "$work/rank$i.log"
  grep -q "RANK $i collectives OK" "$work/rank$i.log" || failed=1
done
if ((failed)); then
  echo "FAIL: the ranks across the two namespaces did not all pass"
  exit 1
fi
echo "PASS: four ranks on two namespaces ran every operation"
