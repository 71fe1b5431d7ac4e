#!/usr/bin/env bash
# Westwood+ on a lossy wireless-like path (10 Mbit/s, RTT 50 ms, 1% i.i.d.
# random loss on the data direction, buffer = BDP): random losses do not
# halve its window, because after each one it sets ssthresh (and cwnd, when
# recovery ends) to its bandwidth estimate x RTTmin.  Measured side by side
# with bpf_reno on identical links (same loss seed): more goodput, and an
# ssthresh that stays near BWE x RTTmin rather than at cwnd / 2.
#
# How much more: 1.36x to 1.58x over a dozen runs here (4.2-4.6 vs 2.8-3.0
# Mbit/s), so the test asks for 1.25x; a Westwood+ that ignored its loss
# events (so, Reno) measured 0.99x.  The gain is smaller than the paper's
# because BWE is the rate the flow itself achieved, recovery included (the
# stack still reduces towards cwnd / 2 during recovery, with PRR): after each
# loss cwnd restarts from ~0.8 of its value, not from the link's BDP.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 75 iperf3 jq

RATE=10mbit DELAY=25ms LOSS=1%	# RTT 50 ms: BDP 62.5 kB = 43 segments of 1448 B
QUEUE=42			# packets: one BDP
FLOW_S=15			# seconds per flow
SKIP_S=3			# judge the state from this second on
plan 12

WW="${RUN_ID}westwood"
bh_register "$WW" westwood || bail_out "cannot register westwood"
bh_register "${RUN_ID}reno" reno || bail_out "cannot register bpf_reno"

# run CA TAG: one flow alone on a fresh link (bh_run), losses only on the
# data direction (same seed for both runs); the iterator, which shows the
# state of any of our algorithms, is sampled every 0.1 s (2 RTTs) into
# $TB_DIR/TAG.iter (bh_sample: "index line").
bh_during() { bh_sample "$1" 0.1 $((FLOW_S * 10)) >>"$TB_DIR/$2.iter"; }
run() {
	bh_run "$1" "$2" "$FLOW_S" --rate $RATE --delay $DELAY --up-loss $LOSS \
		--up-queue $QUEUE --seed 7
}

retrans() { jq -r '.end.sum_sent.retransmits' "$TB_DIR/$1.json"; }

# field TAG KEY: KEY's value in each iterator sample taken after SKIP_S, in
# the Open state (ca_state=0), one per line
field() {
	awk -v key="$2" -v skip=$((SKIP_S * 10)) '$1 >= skip && / ca_state=0 / {
		for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2)
	}' "$TB_DIR/$1.iter"
}

# loss_ratios TAG: for each loss between two Open-state samples (ssthresh
# changed), the new ssthresh over the cwnd of the Open sample before: about 1/2
# for Reno (a bit more, since cwnd grew after that sample), BWE x RTTmin
# over the window for Westwood+.
loss_ratios() {
	awk -v skip=$((SKIP_S * 10)) '{
		st = cw = ss = ""
		for (k = 2; k <= NF; k++) {
			if ($k ~ /^ca_state=/) st = substr($k, 10)
			else if ($k ~ /^cwnd=/) cw = substr($k, 6)
			else if ($k ~ /^ssthresh=/) ss = substr($k, 10)
		}
		if (st != 0) next		# in recovery: compare the Open samples around it
		if ($1 >= skip && pss != "" && ss != pss && pss < 2147483647)
			printf "%.3f\n", ss / pcw
		pcw = cw; pss = ss
	}' "$TB_DIR/$1.iter"
}

run "$WW" westwood || bail_out "westwood flow failed"
run "${RUN_ID}reno" reno || bail_out "bpf_reno flow failed"

gw=$(bh_goodput westwood) gr=$(bh_goodput reno)
diag "westwood: goodput ${gw} Mbit/s, $(retrans westwood) retransmits; reno: ${gr} Mbit/s, $(retrans reno) retransmits"
diag "westwood state (last sample): $(tail -n 1 "$TB_DIR/westwood.iter" | cut -d' ' -f4-)"
diag "linkem random drops: westwood $(tb_stat cwestwood '.up.drops.loss') of $(tb_stat cwestwood '.up.pkts_in')," \
	"reno $(tb_stat creno '.up.drops.loss') of $(tb_stat creno '.up.pkts_in')"

cmp_ok "$(awk -v w="$gw" -v r="$gr" 'BEGIN { print (r > 0 ? w / r : 0) }')" '>=' 1.25 \
	"westwood goodput ${gw} Mbit/s >= 1.25 x bpf_reno's ${gr} at 1% random loss"
# the scenario is the one Reno's theory describes: Mathis et al.'s
# 1.22 MSS / (RTT sqrt(p)) = 2.8 Mbit/s here
mathis=$(awk 'BEGIN { printf "%.2f", 1.22 * 1448 * 8 / (0.05 * sqrt(0.01)) / 1e6 }')
cmp_ok "$(awk -v r="$gr" -v m="$mathis" 'BEGIN { d = r / m; print (d > 1 ? d : 1 / d) }')" '<' 1.5 \
	"bpf_reno is loss-bound: ${gr} Mbit/s within 1.5x of the Mathis rate ${mathis}"
# the loss really happened on both (the same seed, so about the same share)
lw=$(tb_stat cwestwood '.up.drops.loss') lr=$(tb_stat creno '.up.drops.loss')
cmp_ok "$lw" '>' 30 "westwood's flow met random losses ($lw)"
cmp_ok "$lr" '>' 20 "bpf_reno's flow met random losses ($lr)"

# ssthresh after the random losses: near the pipe size BWE x RTTmin / mss
# (pipe_pkts in the iterator), not at half the window
ss_w=$(field westwood ssthresh | bh_median) pipe_w=$(field westwood pipe_pkts | bh_median)
cw_w=$(field westwood cwnd | bh_median) ss_r=$(field reno ssthresh | bh_median)
bwe=$(field westwood bw_est_kbps | bh_median) rmin=$(field westwood rtt_min_us | bh_median)
diag "westwood Open-state medians: ssthresh=$ss_w pipe_pkts=$pipe_w cwnd=$cw_w bw_est=${bwe} kbit/s rtt_min=${rmin} us; reno ssthresh=$ss_r"
n=$(field westwood ssthresh | wc -l)
cmp_ok "$n" '>=' 20 "the iterator showed westwood in the Open state after ${SKIP_S} s ($n samples)"
near=$(paste <(field westwood ssthresh) <(field westwood pipe_pkts) | awk '
	{ n++; if ($2 > 0 && ($1 - $2) / $2 <= 0.25 && ($2 - $1) / $2 <= 0.25) k++ }
	END { printf "%.2f", n ? k / n : 0 }')
cmp_ok "$near" '>=' 0.7 "westwood: ssthresh within 25% of BWE x RTTmin in ${near} of the samples"
rw=$(loss_ratios westwood | bh_median) rr=$(loss_ratios reno | bh_median)
diag "ssthresh after a loss / cwnd before it, medians: westwood $rw ($(loss_ratios westwood | wc -l) losses), reno $rr ($(loss_ratios reno | wc -l))"
cmp_ok "$rr" '<=' 0.65 "bpf_reno: ssthresh after a loss ~ cwnd / 2 (median ratio $rr)"
cmp_ok "$rw" '>=' 0.7 \
	"westwood: ssthresh after a loss is BWE x RTTmin, not cwnd / 2 (median ratio $rw vs reno's $rr)"
cmp_ok "$(awk -v s="$ss_w" -v r="$ss_r" 'BEGIN { print (r > 0 ? s / r : 0) }')" '>=' 2 \
	"westwood's ssthresh ($ss_w) at least twice bpf_reno's ($ss_r)"
# the estimate itself: no more than the link, and most of what was delivered
cmp_ok "$bwe" '<=' 10500 "westwood: BWE ${bwe} kbit/s does not exceed the 10 Mbit/s link"
cmp_ok "$(awk -v b="$bwe" -v g="$gw" 'BEGIN { d = b / 1000 / g; print (d > 1 ? d : 1 / d) }')" '<' 1.3 \
	"westwood: BWE ${bwe} kbit/s is the rate the ACKs report, within 30% of the goodput ${gw} Mbit/s"
cmp_ok "$rmin" '<' 56000 "westwood: RTTmin ${rmin} us is the path's 50 ms (+ < 6 ms)"
done_testing
