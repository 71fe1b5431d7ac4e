#!/usr/bin/env bash
# BIC on a long fat pipe (100 Mbit/s x 100 ms, buffer = BDP): after a loss
# in congestion avoidance it backs off to ~0.8 W and regains 90% of its
# pre-loss window many times sooner than bpf_reno under the same loss,
# measured side by side on identical links with a scheduled drop.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 90 iperf3 jq

RATE=100mbit DELAY=50ms
QUEUE=833		# packets: one BDP (100e6 * 0.1 / 8 / 1500)
FLOW_S=14		# seconds per flow
LOSS_AT=5		# s after the link is up: a 3 ms blackout of the data direction
plan 8

bh_register "${RUN_ID}bic" bic || bail_out "cannot register bic"
bh_register "${RUN_ID}reno" reno || bail_out "cannot register bpf_reno"

# run CA TAG: one flow over a fresh link with the drop (bh_run_blackout);
# the sender's tcp_probe trace goes to $TB_DIR/TAG.csv
bh_on_link() { bh_big_buffers; }
bh_during() {
	[ "$2" = bic ] || return 0
	sleep $((LOSS_AT + 1))	# BIC's own view, one second after the drop
	diag "bic state: $(bh_sockets "$1" | grep "^$CLIENT_IP" | head -n 1)"
}
run() { bh_run_blackout "$1" "$2" "$FLOW_S" "$LOSS_AT" --rate $RATE --delay $DELAY --queue $QUEUE; }

# loss TAG: the first loss in congestion avoidance at or after the drop
# (bh_ca_loss):
#   "w=<cwnd before> ss=<ssthresh after> md=<ss/w> t85=.. t90=.. seen=.."
# tNN: seconds from the loss until cwnd, having fallen below NN% of w in
# the recovery, is back at NN% of w; "-" when that did not happen before
# the trace ended, "seen" seconds after the loss.
loss() {
	bh_ca_loss "$1" "$LOSS_AT" '
	ev && t - te <= 1.5 { cw15 = cw }
	END {
		if (!ev) { print "none"; exit }
		printf "w=%d ss=%d md=%.3f t85=%s t90=%s cwnd_1.5s=%d seen=%.2f\n",
		       w, ss_new, ss_new / w, t85, t90, cw15, end - te
	}'
}

run "${RUN_ID}bic" bic || bail_out "bic flow failed"
run "${RUN_ID}reno" reno || bail_out "bpf_reno flow failed"

b=$(loss bic) r=$(loss reno)
diag "bic:  $b"
diag "reno: $r"
[ "$b" != none ]; ok $? "bic: a loss in congestion avoidance after the drop"
# bpf_reno, the control, only where the blackout reached its flow (bh_judged)
why=""
bh_judged "$r" "$(tb_stat creno .up.drops.linkdown)" || why=$BH_UNJUDGED
bh_control_loss bpf_reno "$r" "$(tb_stat creno .up.drops.linkdown)"

bw=$(kv w "$b") bmd=$(kv md "$b") bt=$(kv t85 "$b")
rw=$(kv w "$r") rmd=$(kv md "$r") rt=$(kv t85 "$r") rseen=$(kv seen "$r")
cmp_ok "$bw" '>=' 800 "bic: the window before the loss is at least a BDP (${bw} pkts)"
cmp_ok "$(awk -v m="$bmd" 'BEGIN { print (m - 0.8 < 0 ? 0.8 - m : m - 0.8) }')" '<' 0.03 \
	"bic: ssthresh/cwnd at the loss = beta = 819/1024 ($bmd)"
cmp_or_skip "$why" "$(awk -v m="$rmd" 'BEGIN { print (m - 0.5 < 0 ? 0.5 - m : m - 0.5) }')" '<' 0.03 \
	"bpf_reno: ssthresh/cwnd at the loss = 1/2 ($rmd)"
# 85%, not 90%: when the loss comes below the previous Wmax, fast
# convergence aims BIC at (1 + beta)/2 = 0.9 of w, where it then lingers
[ "$bt" != - ]; ok $? "bic: back to 85% of its pre-loss window (in ${bt} s; 90% in $(kv t90 "$b") s)"
# Reno's time is at least what we watched when it did not get back at all
censored=""; [ "$rt" = - ] && { rt=$rseen; censored=" and still not back"; }
cmp_or_skip "$why" "$(awk -v b="$bt" -v r="$rt" 'BEGIN { print (b == "-" ? 0 : r / (b > 0.1 ? b : 0.1)) }')" \
	'>=' 5 "bic regains 85% at least 5x sooner than bpf_reno (${bt} s vs ${rt} s$censored)"
diag "bpf_reno would need ~$(awk -v w="$rw" 'BEGIN { printf "%.0f", 0.35 * w * 0.1 }') s at one segment per 100 ms RTT"
cmp_or_skip "$why" "$(awk -v b="$(kv cwnd_1.5s "$b")" -v r="$(kv cwnd_1.5s "$r")" -v bw="$bw" -v rw="$rw" \
	'BEGIN { print (b / bw) - (r / rw) }')" '>=' 0.25 \
	"1.5 s after the loss bic holds a far larger share of its window ($(kv cwnd_1.5s "$b")/$bw vs $(kv cwnd_1.5s "$r")/$rw)"
done_testing
