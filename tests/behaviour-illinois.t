#!/usr/bin/env bash
# Illinois backing off less, and growing faster, where the delay says the
# path is not congested: a long fat pipe (100 Mbit/s, RTT 100 ms, a 1-BDP
# buffer) whose data direction starts losing 0.1% of its packets at random
# 2 s after the start.  Slow start fills the buffer first, so Illinois has
# seen what a full queue looks like (dm ~ 100 ms); afterwards the random
# losses keep every window below the BDP (863 segments), the queue stays
# empty, and Illinois takes alpha = 10 segments per RTT and beta = 1/8: a
# loss leaves ssthresh = 0.875 cwnd where bpf_reno's is 0.5.  bpf_reno and
# the kernel's cubic run on identical links (same seed).
#
# What to expect: AIMD(a, b) at a random loss rate p averages about
# sqrt(a (1 - b/2) / (b p)) segments (tests/unit/test_illinois.c's closed
# form): Illinois 274, bpf_reno 39 at p = 0.1%, i.e. ~7x the goodput.  The
# test asks for 1.5x, ratios within a few hundredths of the two betas, and
# growth above 4 segments per RTT (alpha 10) against Reno's 1.  The goodput
# bound is the loose one: both flows share the first seconds (slow start to
# a full buffer and its recovery), and bpf_reno meets only 10-20 random
# losses in a flow, so one run's count moves its goodput by a third
# (measured 1.93x to 3.6x over runs; 2x failed once on a quiet machine).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/../tools/testbed/testbed.sh"
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 90 iperf3 jq

RATE=100mbit DELAY=50ms		# RTT 100 ms: BDP 12.5 MB = 863 segments of 1448 B
QUEUE=833			# packets: one BDP of 1500-byte packets
LOSS=0.1% LOSS_AT=2		# random loss from this second on
FLOW_S=12			# seconds per flow
SKIP_S=4			# judge from this second on (the start-up's window gone)
plan 12

ILL="${RUN_ID}illinois"
RENO="${RUN_ID}reno"
bh_register "$ILL" illinois || bail_out "cannot register illinois"
bh_register "$RENO" reno || bail_out "cannot register bpf_reno"

bh_on_link() { bh_big_buffers; }
# the iterator (any of our algorithms shows cwnd, ssthresh, srtt, ca_state)
# every 0.1 s, stamped: "seconds_since_link_up line"
bh_during() {
	[ "$1" = cubic ] && return 0
	local i t0=${TB_LINK_UP[c$2]/,/.}
	for ((i = 0; i < FLOW_S * 10; i++)); do
		sleep 0.1
		bh_sockets "$1" | bh_busiest |
			awk -v t="${EPOCHREALTIME/,/.}" -v t0="$t0" '{ printf "%.3f %s\n", t - t0, $0 }'
	done >"$TB_DIR/$2.iter"
}
run() {
	bh_run "$1" "$2" "$FLOW_S" --rate $RATE --delay $DELAY --up-queue $QUEUE \
		--up-event "${LOSS_AT}s:loss:$LOSS" --seed 7
}


# growth TAG: segments per RTT between iterator samples after SKIP_S that
# are both in Open with the same ssthresh (no loss between): dcwnd / dt x srtt
growth() {
	awk -v skip=$SKIP_S '{
		t = $1; st = cw = ss = rtt = ""
		for (k = 2; k <= NF; k++) {
			if ($k ~ /^ca_state=/) st = substr($k, 10)
			else if ($k ~ /^cwnd=/) cw = substr($k, 6)
			else if ($k ~ /^ssthresh=/) ss = substr($k, 10)
			else if ($k ~ /^srtt_us=/) rtt = substr($k, 9) / 1e6
		}
		if (t >= skip && st == 0 && pst == 0 && ss == pss && t > pt && cw >= pcw)
			printf "%.3f\n", (cw - pcw) / (t - pt) * rtt
		pt = t; pcw = cw; pss = ss; pst = st
	}' "$TB_DIR/$1.iter"
}

# loss records after SKIP_S (Illinois: v2 = beta in 1/64, v3 = alpha in 1/128)
run "$ILL" illinois || bail_out "illinois flow failed"
bh_losses "$ILL" illinois $SKIP_S
run "$RENO" reno || bail_out "bpf_reno flow failed"
bh_losses "$RENO" reno $SKIP_S
run cubic cubic || bail_out "cubic flow failed"

gi=$(bh_goodput illinois) gr=$(bh_goodput reno) gc=$(bh_goodput cubic)
ri=$(bh_ratios illinois | bh_median) rr=$(bh_ratios reno | bh_median)
ni=$(wc -l <"$TB_DIR/illinois.loss") nr=$(wc -l <"$TB_DIR/reno.loss")
bi=$(awk '{ print $3 }' "$TB_DIR/illinois.loss" | bh_median)
ai=$(awk '{ print $4 }' "$TB_DIR/illinois.loss" | bh_median)
# alpha reaches its maximum after theta low-delay RTTs, often between two
# losses rather than at one: the largest at a loss or in an iterator sample
# after SKIP_S (init sets it to the maximum too)
amax=$(awk -v skip=$SKIP_S 'FNR == NR { if ($4 > m) m = $4; next }
	$1 >= skip { for (k = 2; k <= NF; k++) if ($k ~ /^alpha_x128=/ && substr($k, 12) + 0 > m) m = substr($k, 12) + 0 }
	END { print m + 0 }' "$TB_DIR/illinois.loss" "$TB_DIR/illinois.iter")
wi=$(growth illinois | bh_median) wr=$(growth reno | bh_median)
ngi=$(growth illinois | wc -l)
last=$(tail -n 1 "$TB_DIR/illinois.iter" | cut -d' ' -f4-)
diag "goodput: illinois ${gi} Mbit/s, bpf_reno ${gr}, cubic ${gc}"
diag "linkem random drops: illinois $(tb_stat cillinois '.up.drops.loss'), reno $(tb_stat creno '.up.drops.loss'), cubic $(tb_stat ccubic '.up.drops.loss'); queue drops $(tb_stat cillinois '.up.drops.queue'), $(tb_stat creno '.up.drops.queue'), $(tb_stat ccubic '.up.drops.queue')"
diag "after ${SKIP_S} s, ssthresh/cwnd at a loss, medians: illinois $ri over $ni losses (beta ${bi}/64, alpha ${ai}/128; largest alpha, at a loss or sampled, ${amax}/128), bpf_reno $rr over $nr"
diag "growth per RTT between losses, medians: illinois $wi ($ngi sample pairs), bpf_reno $wr"
diag "illinois cwnd at its losses: $(awk '{ print $1 }' "$TB_DIR/illinois.loss" | tr '\n' ' ' | cut -c1-200)"
diag "illinois state (last sample): $last"

cmp_ok "$ni" '>=' 8 "illinois met random losses after ${SKIP_S} s ($ni loss records)"
# bpf_reno's smaller window meets fewer loss events (~10 expected in 8 s at
# ~1200 packets/s, but 1 and 2 have been seen); three give its median, and
# fewer leave its cut unjudged
few=""
[ "$nr" -ge 3 ] || few="bpf_reno met only $nr random losses after ${SKIP_S} s: too few for a median"
cmp_or_skip "$few" "$nr" '>=' 3 "bpf_reno met random losses after ${SKIP_S} s ($nr)"
cmp_ok "$bi" '<=' 12 "illinois: beta at its losses is beta_min, 8/64 (median ${bi}/64): the queue is empty"
cmp_ok "$ri" '>=' 0.84 "illinois: ssthresh after a loss ~ 0.875 cwnd (median $ri)"
cmp_ok "$ri" '<=' 0.9 "illinois: ... not above 1 - 1/8 (+ rounding) (median $ri)"
cmp_or_skip "$few" "$rr" '<=' 0.55 "bpf_reno: ssthresh after a loss ~ cwnd / 2 (median $rr)"
cmp_ok "$amax" '==' 1280 "illinois reaches alpha_max, 10 segments per RTT (${amax}/128 of 1280)"
cmp_ok "$ai" '>=' 640 "illinois: alpha at its losses mostly near its maximum (median ${ai}/128)"
cmp_ok "$ngi" '>=' 10 "the iterator gave loss-free sample pairs ($ngi)"
cmp_ok "$wi" '>=' 4 "illinois grows by more than 4 segments per RTT between losses (median $wi)"
cmp_ok "$wr" '<=' 2 "bpf_reno grows by about 1 (median $wr)"
cmp_ok "$(awk -v i="$gi" -v r="$gr" 'BEGIN { print (r > 0 ? i / r : 0) }')" '>=' 1.5 \
	"illinois goodput ${gi} Mbit/s >= 1.5 x bpf_reno's ${gr} at 0.1% random loss (cubic ${gc})"
done_testing
