#!/usr/bin/env bash
# Hybla does what it exists for, measured side by side with bpf_reno over
# identical emulated links (one linkem per flow, run at the same time):
#  1. GEO satellite, 10 Mbit/s, RTT 600 ms, buffer = BDP (500 packets):
#     rho = 24; slow start adds 2^rho - 1 (capped at 2^16) segments per ACK,
#     up to the 65535 clamp at the first ACK, so Hybla's window
#     and delivered data are far ahead of Reno's within a few RTTs;
#  2. the same link with ssthresh = 40 from a locked route metric, so both
#     flows are soon in congestion avoidance: Hybla adds about
#     rho^2 = 576 segments per RTT, Reno one;
#  3. RTT 10 ms (< rtt0 = 25 ms): rho = 1.  With abc=1 keep_iw=1 (the
#     improvements, registered as a second copy) Hybla is Reno: same goodput,
#     same window, same loss rate within small margins.  With the defaults,
#     which are the module's, Hybla counts ACKs where the stack's Reno counts
#     segments: behind delayed ACKs (s segments per ACK) it adds 1/s segment
#     per RTT, so the same buffer-bound sawtooth (same goodput and mean
#     window) is cut about 1/s as often as Reno's.
# Scenarios 1 and 2 run with the defaults: at 600 ms the receiver ACKs
# nearly every segment, so counting ACKs or segments hardly differs there.
# The receiver's buffer and initial window (initrwnd) are raised in every
# server namespace so that the receive window never caps either sender.
# Flows are tools/xfer (it connects and sends at once, unlike iperf3 which
# spends ~5 RTTs = 3 s on its control exchange at 600 ms); windows and
# delivered bytes (snd_una) come from tcp_probe, per ACK, each flow timed
# from its own first ACK; Hybla's rho from its iterator.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 120

XFER="$TCPCA_ROOT/tools/xfer"
HY=${RUN_ID}hy HA=${RUN_ID}ha RE=${RUN_ID}re
[ -x "$TCPCA_LOAD" ] || bail_out "build tcpca-load first (make)"
tb_build || bail_out "cannot build linkem"

bh_register "$HY" hybla
ok $? "hybla registers as $HY" || bail_out "cannot register hybla"
bh_register "$HA" hybla abc=1 keep_iw=1
ok $? "hybla abc=1 keep_iw=1 registers as $HA" || bail_out "cannot register hybla with abc"
bh_register "$RE" reno
ok $? "reno registers as $RE" || bail_out "cannot register reno"

# Ports: flow i uses tb_port i; tcp_probe records all of them from here on.
tb_probe_start 0 1 2 3 4 5 6 || bail_out "no tcp:tcp_probe tracepoint"

declare -A CNS SNS
# link NAME RTT_MS QUEUE: 10 Mbit/s each way, half the RTT each way
link() {
	tb_link "c$1" "s$1" --rate 10mbit --delay "$(($2 / 2))ms" --queue "$3" || return 1
	CNS[$1]=$TB_CLIENT_NS SNS[$1]=$TB_SERVER_NS
	nsx "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_rmem="4096 4194304 16777216" &&
	ip -n "$TB_SERVER_NS" route replace 198.18.0.0/24 dev linkem0 initrwnd 1000
}

declare -A SEND_PID SERVE_PID
# serve LINK INDEX SECONDS: an xfer receiver on tb_port INDEX
serve() {
	local l=$1 i=$2 out="$TB_DIR/serve-$2.out"
	nsx "${SNS[$l]}" timeout $(($3 + 5)) "$XFER" serve "$SERVER_IP" "$(tb_port "$i")" >"$out" 2>&1 &
	SERVE_PID[$i]=$!
	on_exit "kill ${SERVE_PID[$i]}"
	tb_wait_for 5 grep -qs listening "$out"
}

# send LINK INDEX CA BYTES SECONDS: an xfer sender, in the background
send() {
	nsx "${CNS[$1]}" timeout "$5" "$XFER" send "$SERVER_IP" "$(tb_port "$2")" "$4" "$3" \
		>"$TB_DIR/send-$2.out" 2>&1 &
	SEND_PID[$2]=$!
	on_exit "kill ${SEND_PID[$2]}"
}

# pair HLINK HINDEX RLINK RINDEX BYTES SECONDS: Hybla and Reno flows, started together
pair() {
	serve "$1" "$2" "$6" && serve "$3" "$4" "$6" || return 1
	send "$1" "$2" "$HY" "$5" "$6"
	send "$3" "$4" "$RE" "$5" "$6"
}

flows_wait() {
	local i
	for i in "$@"; do
		wait "${SEND_PID[$i]}" 2>/dev/null
		wait "${SERVE_PID[$i]}" 2>/dev/null
	done
}

# hybla_state LINK: Hybla's iterator line for the link's client, once its
# connection is up (srtt measured): on a busy machine the sender may take
# seconds to start, and before the handshake the state is all zero.
hybla_state() {
	local st="" i
	for i in $(seq 100); do
		st=$(bh_sockets "$HY" "${CNS[$1]}" | head -1)
		[[ $st == *" srtt_us="[1-9]* ]] && break
		sleep 0.1
	done
	echo "$st"
}

# trace INDEX: the sender of flow INDEX, one line per ACK from tcp_probe
# (tb_probe_stop's CSV): "t cwnd ssthresh delivered" (t in s from its first
# ACK, delivered in bytes from snd_una).  tcp_probe's ssthresh is
# tcp_current_ssthresh(): at least 3/4 cwnd outside recovery, so losses are
# found as drops of cwnd instead.
trace() {
	awk -F, -v p="$(tb_port "$1")" 'NR > 1 && $5 == p {	# the sender: ACKs to its port
		if (t0 == "") { t0 = $1; u0 = $11 }
		d = $11 - u0; if (d < 0) d += 4294967296
		printf "%.4f %d %d %d\n", $1 - t0, $6, $7, d
	}' "$TB_DIR/probe.csv"
}

# cwnd_max INDEX T: the largest window in the first T seconds
cwnd_max() { trace "$1" | awk -v T="$2" '$1 <= T && $2 > c { c = $2 } END { print c + 0 }'; }

# delivered INDEX T: bytes acked in the first T seconds
delivered() { trace "$1" | awk -v T="$2" '$1 <= T { d = $4 } END { print d + 0 }'; }

# ratio A B: A / B with B at least 1
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / (b > 1 ? b : 1) }'; }

mbit() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.2f", b * 8 / s / 1e6 }'; }

# ---- 1. GEO: slow start and goodput at 600 ms ---------------------------------
link geo_h 600 500 && link geo_r 600 500 || bail_out "cannot build the 600 ms links"
pair geo_h 0 geo_r 1 40000000 8 || bail_out "cannot start the 600 ms flows"
sleep 1.5
st=$(hybla_state geo_h)
like "$st" ' rho=24 rho_3ls=19[0-9] ' "600 ms: Hybla computes rho = 24 from srtt ($(kv rho_3ls "$st") << 3)"
flows_wait 0 1
counter() { "$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --show "$HY" | awk -v k="$1" '$1 == k { print $2 }'; }
clamps=$(counter cwnd_clamps) set=$(counter clamp_set) failed=$(counter clamp_set_failed)
cmp_ok "${set:-0}" '>' 0 "600 ms: snd_cwnd_clamp set to 65535 as the module does, by bpf_setsockopt ($set sockets)"
is "${failed:-x}" 0 "600 ms: ... never refused"
cmp_ok "${clamps:-0}" '>' 0 "600 ms: slow start stopped at the 65535 clamp ($clamps times)"

# ---- 2. congestion avoidance at 600 ms ----------------------------------------
# A locked ssthresh route metric reaches new sockets through the TCP metrics
# cache, which a first connection fills and which is read only with
# tcp_no_ssthresh_metrics_save=0 (per namespace).
CA_SSTHRESH=40
link ca_h 600 500 && link ca_r 600 500 || bail_out "cannot build the CA links"
for l in ca_h ca_r; do
	nsx "${CNS[$l]}" sysctl -qw net.ipv4.tcp_no_ssthresh_metrics_save=0
	ip -n "${CNS[$l]}" route replace 198.18.0.0/24 dev linkem0 ssthresh lock "$CA_SSTHRESH"
done
serve ca_h 2 5 && serve ca_r 3 5 || bail_out "cannot start the warm-up receivers"
send ca_h 2 "$RE" 1000 5; send ca_r 3 "$RE" 1000 5
flows_wait 2 3
pair ca_h 2 ca_r 3 40000000 6 || bail_out "cannot start the CA flows"
flows_wait 2 3

# ---- 3. RTT 10 ms: Hybla is Reno ---------------------------------------------
link lan_h 10 9 && link lan_r 10 9 && link lan_a 10 9 || bail_out "cannot build the 10 ms links"
serve lan_a 6 5 || bail_out "cannot start the 10 ms receivers"
pair lan_h 4 lan_r 5 40000000 5 || bail_out "cannot start the 10 ms flows"
send lan_a 6 "$HA" 40000000 5
sleep 1
st=$(hybla_state lan_h)
like "$st" ' rho=1 rho_3ls=8 ' "10 ms: rho = 1"
flows_wait 4 5 6

# ---- what tcp_probe saw ------------------------------------------------------
tb_probe_stop "$TB_DIR/probe.csv"

# 1: slow start, then goodput, each flow's time counted from its first ACK
hc=$(cwnd_max 0 1.2) rc=$(cwnd_max 1 1.2)
diag "600 ms, largest cwnd in the 1.2 s after the first ACK: hybla $hc, reno $rc"
cmp_ok "$(ratio "$hc" "$rc")" '>=' 20 "600 ms slow start: Hybla's cwnd >= 20x Reno's in 2 RTTs"
h2=$(delivered 0 1.2) r2=$(delivered 1 1.2) h6=$(delivered 0 6) r6=$(delivered 1 6)
diag "600 ms delivered in 1.2 s (2 RTTs): hybla $h2 B, reno $r2 B; in 6 s: hybla $h6 B ($(mbit "$h6" 6) Mbit/s), reno $r6 B ($(mbit "$r6" 6) Mbit/s)"
cmp_ok "$(ratio "$h2" "$r2")" '>=' 8 "600 ms, first 2 RTTs: Hybla delivers >= 8x Reno"
cmp_ok "$(ratio "$h6" "$r6")" '>=' 1.5 "600 ms, 10 RTTs: Hybla's goodput >= 1.5x Reno's"
# 6.75-7.00 Mbit/s, 5.92 with a CPU hog on one of the two cores
cmp_ok "$(mbit "$h6" 6)" '>=' 5.5 "600 ms, 10 RTTs: Hybla's goodput >= 5.5 Mbit/s of 10"

# 2: growth in congestion avoidance, from cwnd 40 (= ssthresh) to the first
# drop of cwnd (a loss).  Hybla adds rho^2/W per segment acked and Reno 1/W,
# and a window's worth of segments is acked per RTT, so the growth per RTT
# is k = W dW/dS: rho^2 and 1.  Integrated, k = (W2^2 - W1^2) / (2 S), S the
# segments (1448 bytes) acked in between: no timing, no ACK clock involved.
ca_k() {
	trace "$1" | awk -v ss="$CA_SSTHRESH" '
		$2 < last { exit }
		{ last = $2 }
		$2 >= ss && w1 == "" { w1 = $2; d1 = $4 }
		w1 != "" { w2 = $2; d2 = $4 }
		END { s = (d2 - d1) / 1448
		      if (s > 0) printf "%.2f %d %d %d", (w2 * w2 - w1 * w1) / (2 * s), w1, w2, s
		      else print "0 0 0 0" }'
}
read -r hk hw1 hw2 hs <<<"$(ca_k 2)"
read -r rk rw1 rw2 rs <<<"$(ca_k 3)"
diag "600 ms congestion avoidance, growth per RTT: hybla $hk (cwnd $hw1 -> $hw2 over $hs segments), reno $rk ($rw1 -> $rw2 over $rs segments); rho^2 = 576"
cmp_ok "$hk" '>=' 461 "CA: Hybla grows >= 0.8 rho^2 = 461 segments per RTT"
cmp_ok "$hk" '<=' 634 "CA: Hybla grows <= 1.1 rho^2 = 634 segments per RTT"
cmp_ok "$rk" '>=' 0.6 "CA: Reno grows >= 0.6 segment per RTT"
cmp_ok "$rk" '<=' 1.5 "CA: Reno grows <= 1.5 segments per RTT"

# 3: the same sawtooth at 10 ms: goodput, mean window, window reductions, and
# segments per ACK (from the trace: one line per ACK)
lan() {
	trace "$1" | awk '$1 <= 4 { d = $4 }
		$1 >= 0.5 && $1 <= 4 { s += $2; n++; if ($2 < last) e++
			if (d0 == "") d0 = $4; d1 = $4 }
		{ last = $2 }
		END { printf "%d %.1f %d %.2f\n", d, n ? s / n : 0, e, (n > 1 ? (d1 - d0) / 1448 / (n - 1) : 0) }'
}
read -r hd hm he hs <<<"$(lan 4)"
read -r rd rm re rs <<<"$(lan 5)"
read -r ad am ae as <<<"$(lan 6)"
diag "10 ms, 4 s: delivered hybla $hd B ($(mbit "$hd" 4) Mbit/s), hybla abc $ad B ($(mbit "$ad" 4) Mbit/s), reno $rd B ($(mbit "$rd" 4) Mbit/s)"
diag "10 ms: mean cwnd hybla $hm, hybla abc $am, reno $rm; cwnd reductions hybla $he, hybla abc $ae, reno $re; segments per ACK $hs, $as, $rs"
# The comparison says something of the algorithms only if the links set the
# pace: Reno near the link's rate (8.1-8.7 Mbit/s over the 4 s), and every
# flow acked through the 4 s.  A CPU hog beside the test once left Reno at
# 4 Mbit/s and a sender that started late (killed at its time limit) at 0.
why=""
for i in 4 5 6; do
	last=$(trace "$i" | awk 'END { printf "%.1f", $1 + 0 }')
	awk -v t="$last" 'BEGIN { exit !(t < 3.5) }' &&
		why="the flow on port $(tb_port "$i") was acked for only $last s of the 4: its sender started late on a busy machine"
done
awk -v r="$(mbit "$rd" 4)" 'BEGIN { exit !(r < 7) }' &&
	why="Reno moved only $(mbit "$rd" 4) Mbit/s over a 10 Mbit/s link: the machine, not the link, set the pace"

# abc=1 keep_iw=1: Reno.  Two 4 s sawtooths cut at different moments:
# their goodput ratio was 0.94-1.12 on a machine under load.
g=$(ratio "$ad" "$rd")
cmp_or_skip "$why" "$g" '>=' 0.88 "10 ms, abc=1: Hybla's goodput >= 0.88x Reno's ($g)"
cmp_or_skip "$why" "$g" '<=' 1.14 "10 ms, abc=1: Hybla's goodput <= 1.14x Reno's"
m=$(ratio "$am" "$rm")
cmp_or_skip "$why" "$m" '>=' 0.85 "10 ms, abc=1: Hybla's mean cwnd >= 0.85x Reno's ($m)"
cmp_or_skip "$why" "$m" '<=' 1.15 "10 ms, abc=1: Hybla's mean cwnd <= 1.15x Reno's"
cmp_or_skip "$why" "$ae" '<=' "$((re * 3 / 2 + 2))" "10 ms, abc=1: Hybla cuts its window no more often than 1.5x Reno ($ae vs $re)"
cmp_or_skip "$why" "$ae" '>=' "$((re * 2 / 3 - 2))" "10 ms, abc=1: ... and no less often than 2/3 of Reno"

# the defaults (the module): about the same goodput and window, about 1/s the
# cuts.  The module grows once per ACK, so with delayed ACKs it refills the
# pipe after a cut about half as fast as Reno, which counts segments: its
# goodput ratio measured 0.95-1.0 on a quiet machine, 0.86-0.89 with two VMs
# running beside it; hence the lower bound of 0.80.
g=$(ratio "$hd" "$rd")
cmp_or_skip "$why" "$g" '>=' 0.80 "10 ms, defaults: Hybla's goodput >= 0.80x Reno's ($g)"
cmp_or_skip "$why" "$g" '<=' 1.14 "10 ms, defaults: Hybla's goodput <= 1.14x Reno's"
m=$(ratio "$hm" "$rm")
cmp_or_skip "$why" "$m" '>=' 0.85 "10 ms, defaults: Hybla's mean cwnd >= 0.85x Reno's ($m)"
cmp_or_skip "$why" "$m" '<=' 1.15 "10 ms, defaults: Hybla's mean cwnd <= 1.15x Reno's"
cmp_or_skip "$why" "$hs" '>' 1.1 "10 ms: the receiver delays ACKs ($hs segments per ACK), else the next check says nothing"
c=$(awk -v h="$he" -v r="$re" -v s="$hs" 'BEGIN { printf "%.2f", (r > 0 ? h * s / r : 0) }')
cmp_or_skip "$why" "$c" '>=' 0.67 "10 ms, defaults: cuts x segments per ACK / Reno's cuts >= 0.67 ($c: 1 if growth is 1/s per RTT)"
cmp_or_skip "$why" "$c" '<=' 1.5 "10 ms, defaults: ... <= 1.5"

done_testing
