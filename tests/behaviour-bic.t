#!/usr/bin/env bash
# BIC on a long fat pipe (100 Mbit/s x 100 ms, buffer = BDP): after a loss
# in congestion avoidance it backs off to ~0.8 W and regains 90% of its
# pre-loss window many times sooner than bpf_reno under the same loss,
# measured side by side on identical links with a scheduled drop.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/netns.sh"
. "$(dirname "$0")/lib/testbed.sh"
need_root
command -v iperf3 >/dev/null || skip_all "needs iperf3"
command -v jq >/dev/null || skip_all "needs jq"
time_limit 90
use_test_pin_dir

RATE=100mbit DELAY=50ms
QUEUE=833		# packets: one BDP (100e6 * 0.1 / 8 / 1500)
FLOW_S=14		# seconds per flow
LOSS_AT=5		# s after the link is up: a 3 ms blackout of the data direction
plan 8

L="$TCPCA_LOAD --pin-dir $TEST_PIN_DIR"
$L --name "${RUN_ID}bic" bic >/dev/null || bail_out "cannot register bic"
$L --name "${RUN_ID}reno" reno >/dev/null || bail_out "cannot register bpf_reno"

mono() { python3 -c 'import time; print("%.3f" % time.monotonic())'; }

# run CA TAG: one flow over a fresh link; the sender's tcp_probe trace goes
# to $TB_DIR/TAG.csv and the monotonic time of the scheduled drop to TAG.t
# (taken after tb_link returns, so up to a few 100 ms late: loss() looks
# from 0.5 s before it)
run() {
	local ca=$1 tag=$2 t0
	tb_link "c$tag" "s$tag" --rate $RATE --delay $DELAY --queue $QUEUE \
		--up-event "${LOSS_AT}s:down:3ms" || return 1
	t0=$(mono)
	# socket buffers large enough that only the link limits the window
	ip netns exec "$TB_CLIENT_NS" sysctl -qw net.ipv4.tcp_wmem="4096 65536 33554432" &&
	ip netns exec "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_rmem="4096 131072 33554432" || return 1
	echo "$t0 $LOSS_AT" | awk '{ print $1 + $2 }' >"$TB_DIR/$tag.t"
	TB_PROBE_INSTANCE="$TB_TRACEFS/instances/tcpca-$RUN_ID-$tag"	# one per flow
	tb_probe_start 0 || return 1
	tb_flow 0 "$FLOW_S" 0 -C "$ca" || return 1
	if [ "$tag" = bic ]; then	# BIC's own view, one second after the drop
		sleep $((LOSS_AT + 1))
		diag "bic state: $(nsenter --net="/run/netns/$TB_CLIENT_NS" cat "$TEST_PIN_DIR/$ca/sockets" |
			grep "^$CLIENT_IP" | head -n 1)"
	fi
	tb_flows_wait || return 1
	tb_probe_stop "$TB_DIR/$tag.csv"
	tb_link_stop "c$tag"
	diag "$tag: linkem dropped $(tb_stat "c$tag" .up.drops.linkdown) in the blackout, $(tb_stat "c$tag" .up.drops.queue) at the queue"
	unset 'TB_FLOW_JSON[0]'
}

# loss TAG: the first loss in congestion avoidance at or after the drop:
#   "w=<cwnd before> ss=<ssthresh after> md=<ss/w> t85=.. t90=.. seen=.."
# tNN: seconds from the loss until cwnd, having fallen below NN% of w in
# the recovery, is back at NN% of w; "-" when that did not happen before
# the trace ended, "seen" seconds after the loss.  tcp_probe logs one row
# per ACK, and its ssthresh is tcp_current_ssthresh(): outside recovery
# max(ssthresh, 3/4 cwnd), so rows where it just follows 3/4 cwnd are not
# losses.
loss() {
	awk -F, -v t_drop="$(cat "$TB_DIR/$1.t")" -v me="$CLIENT_IP" '
	NR == 1 || $2 != me { next }
	{ t = $1; cw = $6; ss = $7; creep = int(cw / 2) + int(cw / 4) }
	!ev && ss != last_ss && last_ss != "" && last_ss < 2147483647 && ss < 2147483647 &&
	(ss < creep - 1 || ss > creep + 1) && t >= t_drop - 0.5 {
		ev = 1; te = t; w = last_cw; ss_new = ss; t85 = t90 = "-"
	}
	ev && cw < 0.85 * w { d85 = 1 }
	ev && cw < 0.9 * w { d90 = 1 }
	ev && d85 && t85 == "-" && cw >= 0.85 * w { t85 = sprintf("%.2f", t - te) }
	ev && d90 && t90 == "-" && cw >= 0.9 * w { t90 = sprintf("%.2f", t - te) }
	ev && t - te <= 1.5 { cw15 = cw }
	{ last_ss = ss; last_cw = cw; end = t }
	END {
		if (!ev) { print "none"; exit }
		printf "w=%d ss=%d md=%.3f t85=%s t90=%s cwnd_1.5s=%d seen=%.2f\n",
		       w, ss_new, ss_new / w, t85, t90, cw15, end - te
	}' "$TB_DIR/$1.csv"
}

tb_dir
run "${RUN_ID}bic" bic || bail_out "bic flow failed"
run "${RUN_ID}reno" reno || bail_out "bpf_reno flow failed"

b=$(loss bic) r=$(loss reno)
diag "bic:  $b"
diag "reno: $r"
[ "$b" != none ]; ok $? "bic: a loss in congestion avoidance after the drop"
[ "$r" != none ]; ok $? "bpf_reno: a loss in congestion avoidance after the drop"

bw=$(kv w "$b") bmd=$(kv md "$b") bt=$(kv t85 "$b")
rw=$(kv w "$r") rmd=$(kv md "$r") rt=$(kv t85 "$r") rseen=$(kv seen "$r")
cmp_ok "$bw" '>=' 800 "bic: the window before the loss is at least a BDP (${bw} pkts)"
cmp_ok "$(awk -v m="$bmd" 'BEGIN { print (m - 0.8 < 0 ? 0.8 - m : m - 0.8) }')" '<' 0.03 \
	"bic: ssthresh/cwnd at the loss = beta = 819/1024 ($bmd)"
cmp_ok "$(awk -v m="$rmd" 'BEGIN { print (m - 0.5 < 0 ? 0.5 - m : m - 0.5) }')" '<' 0.03 \
	"bpf_reno: ssthresh/cwnd at the loss = 1/2 ($rmd)"
# 85%, not 90%: when the loss comes below the previous Wmax, fast
# convergence aims BIC at (1 + beta)/2 = 0.9 of w, where it then lingers
[ "$bt" != - ]; ok $? "bic: back to 85% of its pre-loss window (in ${bt} s; 90% in $(kv t90 "$b") s)"
# Reno's time is at least what we watched when it did not get back at all
censored=""; [ "$rt" = - ] && { rt=$rseen; censored=" and still not back"; }
cmp_ok "$(awk -v b="$bt" -v r="$rt" 'BEGIN { print (b == "-" ? 0 : r / (b > 0.1 ? b : 0.1)) }')" \
	'>=' 5 "bic regains 85% at least 5x sooner than bpf_reno (${bt} s vs ${rt} s$censored)"
diag "bpf_reno would need ~$(awk -v w="$rw" 'BEGIN { printf "%.0f", 0.35 * w * 0.1 }') s at one segment per 100 ms RTT"
cmp_ok "$(awk -v b="$(kv cwnd_1.5s "$b")" -v r="$(kv cwnd_1.5s "$r")" -v bw="$bw" -v rw="$rw" \
	'BEGIN { print (b / bw) - (r / rw) }')" '>=' 0.25 \
	"1.5 s after the loss bic holds a far larger share of its window ($(kv cwnd_1.5s "$b")/$bw vs $(kv cwnd_1.5s "$r")/$rw)"
done_testing
