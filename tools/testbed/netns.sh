# shellcheck shell=bash
# Network namespaces for the tests, the benchmark and the tools: unique
# names per run, addresses in 198.18.0.0/15, and one cleanup list that runs
# on every exit path (success, failure, signal), so that a ^C or a
# timeout(1) leaves nothing behind.

TCPCA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TCPCA_LOAD="$TCPCA_ROOT/tcpca-load"
# shellcheck disable=SC2034 # for the scripts that source this
RUN_ID="t$$"				# short: it ends up in 15-character CA names
TEST_PIN_DIR="/sys/fs/bpf/tcpca-test-$$"

_cleanups=()

# on_exit COMMAND: eval COMMAND at exit; the last registered runs first, as
# things are undone in the reverse of the order they were made.
on_exit() { _cleanups+=("$*"); }

# on_exit_last COMMAND: eval COMMAND after every other cleanup: for a
# watchdog (the tests' time_limit), whose limit must cover the
# cleanups too.
on_exit_last() { _cleanups=("$*" "${_cleanups[@]}"); }

_run_cleanups() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${_cleanups[i]}" >/dev/null 2>&1 || true
	done
	_cleanups=()
	return 0
}
trap '_run_cleanups' EXIT
trap '_run_cleanups; exit 130' INT TERM

# version_code 6.4 -> 394240; kernel_version_code: the running kernel's
# shellcheck disable=SC2086 # split on the dots
version_code() { local IFS=.; set -- $1; echo $(( ($1 << 16) + (${2:-0} << 8) )); }
kernel_version_code() { local v; v=$(uname -r); version_code "${v%%[-+]*}"; }
# How the loader registers here: by link from 6.4 on, by map update before.
kernel_reg_mode() { [ "$(kernel_version_code)" -ge "$(version_code 6.4)" ] && echo link || echo map; }
# too_old_for SAID: the Linux version that tcpca-load's refusal SAID names
# ("... needs FEATURE (Linux X.Y), which this kernel lacks"), if this kernel
# is older than it: the refusal is then what should happen here.
too_old_for() {
	local need
	need=$(echo "$1" | sed -n 's/.* needs .*(Linux \([0-9.]*\)), which this kernel lacks$/\1/p')
	[ -n "$need" ] && [ "$(kernel_version_code)" -lt "$(version_code "$need")" ] && echo "$need"
}
# What a CA program may call here: kfuncs from 5.13, bpf_setsockopt from 5.15.
kernel_has_kfuncs() { [ "$(kernel_version_code)" -ge "$(version_code 5.13)" ]; }
kernel_has_ca_setsockopt() { [ "$(kernel_version_code)" -ge "$(version_code 5.15)" ]; }
# ... may store to sk_pacing_rate from 6.0; cong_control takes (sk, ack, flag, rs) from 6.10.
kernel_has_ca_pacing() { [ "$(kernel_version_code)" -ge "$(version_code 6.0)" ]; }
kernel_has_cc_ack_flag() { [ "$(kernel_version_code)" -ge "$(version_code 6.10)" ]; }

# Unload every algorithm the test registered under its own pin directory.
use_test_pin_dir() {
	on_exit "'$TCPCA_LOAD' --pin-dir '$TEST_PIN_DIR' --unload --all; rmdir '$TEST_PIN_DIR'"
}

# ns_create NAME: a fresh namespace with loopback up, removed at exit.
ns_create() {
	ip netns add "$1" || return 1
	on_exit "ip netns pids '$1' | xargs -r kill; ip netns del '$1'"
	ip -n "$1" link set lo up
}

nsx() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# veth_pair CLIENT_NS SERVER_NS: a direct 198.18.0.1 <-> 198.18.0.2 link.
veth_pair() {
	local c=$1 s=$2
	ns_create "$c" && ns_create "$s" || return 1
	ip link add veth0 netns "$c" type veth peer name veth0 netns "$s" || return 1
	ip -n "$c" addr add 198.18.0.1/24 dev veth0
	ip -n "$s" addr add 198.18.0.2/24 dev veth0
	ip -n "$c" link set veth0 up
	ip -n "$s" link set veth0 up
}

# veth6_pair CLIENT_NS SERVER_NS RATE: a second link between them, IPv6
# only (CLIENT_IP6 <-> SERVER_IP6), at RATE both ways (tbf), so that a
# transfer over it lasts long enough to be looked at.
veth6_pair() {
	local c=$1 s=$2 rate=$3 ns
	ip link add veth6 netns "$c" type veth peer name veth6 netns "$s" || return 1
	ip -n "$c" addr add "$CLIENT_IP6/64" dev veth6 nodad
	ip -n "$s" addr add "$SERVER_IP6/64" dev veth6 nodad
	for ns in "$c" "$s"; do
		ip -n "$ns" link set veth6 up
		tc -n "$ns" qdisc add dev veth6 root tbf rate "$rate" burst 32kb latency 50ms || return 1
	done
}

# shellcheck disable=SC2034 # for the scripts that source this
CLIENT_IP=198.18.0.1
# shellcheck disable=SC2034
SERVER_IP=198.18.0.2
# IPv6's benchmarking prefix (RFC 5180), as 198.18.0.0/15 is IPv4's
CLIENT_IP6=2001:2::1
SERVER_IP6=2001:2::2
