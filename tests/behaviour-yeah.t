#!/usr/bin/env bash
# YeAH on a long fat pipe (100 Mbit/s, RTT 100 ms: a BDP of 833 packets), in
# the two situations its paper sets out to handle:
#  1. A deep buffer (2 BDP, 200 ms when full), no random loss.  YeAH reads
#     the queue it keeps from the delay and, above alpha = 80 packets, gives
#     it back within an RTT (precautionary decongestion), so the link stays
#     full with ~10 ms queued, where bpf_reno and the kernel's cubic keep the
#     buffer full.  Slow start overshoots first (Vegas' estimate lags it by
#     an RTT): the overflows that follow come before any whole RTT in Open,
#     so each cuts only 1/8 (the queue last measured, in slow start, was
#     empty), and YeAH decongests only once the window is back inside the
#     buffer (~4 s after the start; measured 5.8 s).  So the queue is judged
#     from 1 s after the first decongestion on, the others' over the same
#     seconds, by the kernel's srtt (tcp_probe).
#  2. A 1-BDP buffer with 0.1% random loss from 2 s on: the queue is empty
#     at the losses, so YeAH gives back only cwnd/8 (ssthresh 0.875 cwnd,
#     bpf_reno 0.5) and grows as Scalable between them: more goodput.
# The flows run one after the other on identical links (same seed).
# What to expect (tests/unit/test_yeah.c's closed loop): 1. the queue
# oscillates between 0 and alpha + one RTT's 1% growth (~90 packets, 11 ms),
# decongesting every ~9 RTTs; 2. as Illinois's AIMD(alpha, 1/8), a window
# several times Reno's at p = 0.1%; the test asks for 1.5x.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 150 iperf3 jq

RATE=100mbit DELAY=50ms		# RTT 100 ms: BDP 12.5 MB = 863 segments of 1448 B
DEEP=1666			# packets: 2 BDP of 1500-byte packets
QUEUE=833			# packets: 1 BDP
LOSS=0.1% LOSS_AT=2		# random loss from this second on (part 2)
DEEP_S=14			# seconds per deep-buffer flow (start-up ~6 s, then steady)
FLOW_S=10			# seconds per lossy flow
SKIP_S=4			# lossy: judge from this second on (the start-up gone)
BASE_MS=100
plan 13

YEAH="${RUN_ID}yeah"
RENO="${RUN_ID}reno"
bh_register "$YEAH" yeah || bail_out "cannot register yeah"
bh_register "$RENO" reno || bail_out "cannot register bpf_reno"

bh_on_link() { bh_big_buffers; }
deep() { bh_run "$1" "$2" "$DEEP_S" --rate $RATE --delay $DELAY --up-queue $DEEP --seed 7; }
lossy() {
	bh_run "$1" "$2" "$FLOW_S" --rate $RATE --delay $DELAY --up-queue $QUEUE \
		--up-event "${LOSS_AT}s:loss:$LOSS" --seed 7
}

# records TAG: YeAH's --events records of its client sockets since the last
# read of the ring, as "seconds_since_link_up kind v0 v1 v2 v3" lines in
# $TB_DIR/TAG.ev (kind 1: a loss, v0 cwnd, v1 ssthresh, v2 queue, v3 slow
# RTTs; kind 2: a decongestion, v0 cwnd before, v1 after, v2 queue).
records() {
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$YEAH" 0.3 |
		awk -F, -v me="$CLIENT_IP:" -v t0="$(tb_link_mono "c$1")" \
		'NR > 1 && index($2, me) == 1 { printf "%.3f %s %s %s %s %s\n", $1 - t0, $4, $8, $9, $10, $11 }' \
		>"$TB_DIR/$1.ev"
}
# srtt TAG FROM_S: "p50 p95 n" of the sender's srtt (ms; tcp_probe, one per
# ACK of the data connection) from FROM_S seconds after link cTAG came up
srtt() {
	local csv=$TB_DIR/$1.csv sport
	sport=$(awk -F, -v me="$CLIENT_IP" 'NR > 1 && $2 == me { print $4 }' "$csv" |
		sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	awk -F, -v me="$CLIENT_IP" -v sport="$sport" -v from="$(tb_link_mono "c$1" | awk -v s="$2" '{ print $1 + s }')" \
		'NR > 1 && $2 == me && $4 == sport && $1 >= from { print $8 / 1000 }' "$csv" |
		tb_pct 0.5 0.95 | awk '{ print $2, $3, $1 }'
}
qdrops() { tb_stat "c$1" '.up.drops.queue'; }

deep "$YEAH" ydeep || bail_out "yeah deep-buffer flow failed"
records ydeep
deep "$RENO" rdeep || bail_out "bpf_reno deep-buffer flow failed"
deep cubic cdeep || bail_out "cubic deep-buffer flow failed"
lossy "$YEAH" yloss || bail_out "yeah lossy flow failed"
bh_losses "$YEAH" yloss $SKIP_S
lossy "$RENO" rloss || bail_out "bpf_reno lossy flow failed"
bh_losses "$RENO" rloss $SKIP_S

gyd=$(bh_goodput ydeep) grd=$(bh_goodput rdeep) gcd=$(bh_goodput cdeep)
t_dec=$(awk '$2 == 2 { print $1; exit }' "$TB_DIR/ydeep.ev")
from=$(awk -v t="${t_dec:-$DEEP_S}" 'BEGIN { printf "%.1f", t + 1 }')
ndec=$(awk -v f="$from" '$2 == 2 && $1 >= f' "$TB_DIR/ydeep.ev" | wc -l)
nloss=$(awk -v f="$from" '$2 == 1 && $1 >= f' "$TB_DIR/ydeep.ev" | wc -l)
read -r y50 y95 yn <<<"$(srtt ydeep "$from")"
read -r r50 _ rn <<<"$(srtt rdeep "$from")"
read -r c50 _ cn <<<"$(srtt cdeep "$from")"
late=$(tb_late_us cydeep p99)
diag "deep buffer: first decongestion at ${t_dec:-none} s; from $from s on srtt p50/p95 yeah ${y50}/${y95} ms ($yn ACKs), bpf_reno p50 ${r50} ($rn), cubic ${c50} ($cn); $ndec decongestions, $nloss losses"
diag "deep buffer: goodput yeah ${gyd} Mbit/s, bpf_reno ${grd}, cubic ${gcd}; queue drops yeah $(qdrops ydeep), bpf_reno $(qdrops rdeep), cubic $(qdrops cdeep)"
diag "yeah's records (t kind v0 v1 v2 v3), first 12: $(head -n 12 "$TB_DIR/ydeep.ev" | tr '\n' ';')"

# 1. The queue once decongesting: ~alpha packets of 0.12 ms each, plus
# delayed ACKs and what linkem was late
cmp_ok "${t_dec:-99}" '<=' $((DEEP_S - 5)) "yeah starts decongesting after the start-up (at ${t_dec:-never} s, within $((DEEP_S - 5)) s)"
cmp_ok "$ndec" '>=' 2 "... and decongests again and again ($ndec times from $from s)"
cmp_ok "$nloss" '==' 0 "... with no loss: the queue stays inside the buffer (the start-up dropped $(qdrops ydeep))"
cmp_ok "$y50" '<' "$(awk -v l="$late" -v b=$BASE_MS 'BEGIN { print b + 15 + l / 1000 }')" \
	"yeah: srtt p50 ${y50} ms within 15 ms of the ${BASE_MS} ms path (+ linkem's p99 lateness ${late} us)"
# bpf_reno halves twice in the start-up's overflows (4500 -> 2500 -> 1250
# segments) and then grows a segment per RTT from there: ~420 queued
# (measured srtt 150-158 ms); cubic keeps more (beta 0.7, fast regrowth)
cmp_ok "$r50" '>' $((BASE_MS + 30)) "bpf_reno keeps the buffer filled: srtt p50 ${r50} ms > ${BASE_MS} + 30"
cmp_ok "$c50" '>' $((BASE_MS + 50)) "cubic too: srtt p50 ${c50} ms > ${BASE_MS} + 50"
# A short queue (alpha packets, ~10 ms here) runs dry whenever the machine
# holds the sender off the CPU for longer, where bpf_reno's 400 packets do
# not: judged only when linkem itself kept time (as behaviour-dctcp's fill)
if why=$(tb_too_late cydeep 120); then
	skip_unjudged "yeah keeps the link as full as bpf_reno does (${gyd} vs ${grd} Mbit/s)" "$why"
else
	cmp_ok "$(awk -v y="$gyd" -v r="$grd" 'BEGIN { print (r > 0 ? y / r : 0) }')" '>=' 0.85 \
		"yeah keeps the link as full as bpf_reno does (${gyd} vs ${grd} Mbit/s)"
fi

# 2. Random loss: the cut is the queue, clamped to cwnd/8
gyl=$(bh_goodput yloss) grl=$(bh_goodput rloss)
ny=$(wc -l <"$TB_DIR/yloss.loss") nr=$(wc -l <"$TB_DIR/rloss.loss")
ry=$(bh_ratios yloss | bh_median) rr=$(bh_ratios rloss | bh_median)
qy=$(awk '{ print $3 }' "$TB_DIR/yloss.loss" | bh_median)
sy=$(awk '{ print $4 }' "$TB_DIR/yloss.loss" | bh_median)
diag "random loss: goodput yeah ${gyl} Mbit/s, bpf_reno ${grl}; linkem random drops $(tb_stat cyloss '.up.drops.loss'), $(tb_stat crloss '.up.drops.loss')"
diag "after ${SKIP_S} s, ssthresh/cwnd at a loss, medians: yeah $ry over $ny losses (queue $qy packets, $sy slow RTTs before), bpf_reno $rr over $nr"
diag "yeah cwnd at its losses: $(awk '{ print $1 }' "$TB_DIR/yloss.loss" | tr '\n' ' ' | cut -c1-200)"

cmp_ok "$ny" '>=' 5 "yeah met random losses after ${SKIP_S} s ($ny loss records)"
cmp_ok "$sy" '<' 16 "yeah was fast (under rho slow RTTs) at its losses (median $sy)"
cmp_ok "$ry" '>=' 0.84 "yeah: ssthresh after a random loss ~ 0.875 cwnd (median $ry)"
cmp_ok "$ry" '<=' 0.9 "yeah: ... and no more than 1 - 1/8 (+ rounding) (median $ry)"
# bpf_reno's smaller window meets fewer losses; fewer than three leave its
# cut unjudged (as in behaviour-illinois.t)
few=""
[ "$nr" -ge 3 ] || few="bpf_reno met only $nr random losses after ${SKIP_S} s: too few for a median"
cmp_or_skip "$few" "$rr" '<=' 0.55 "bpf_reno: ssthresh after a loss ~ cwnd / 2 (median $rr)"
cmp_ok "$(awk -v y="$gyl" -v r="$grl" 'BEGIN { print (r > 0 ? y / r : 0) }')" '>=' 1.5 \
	"yeah goodput ${gyl} Mbit/s >= 1.5 x bpf_reno's ${grl} at 0.1% random loss"
done_testing
