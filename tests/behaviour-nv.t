#!/usr/bin/env bash
# TCP-NV on a bottleneck with a deep buffer (50 Mbit/s, RTT 20 ms: a BDP of
# 83 packets; buffer 10 BDP, 200 ms when full): NV estimates the queue it
# keeps as cwnd minus the window its rate needs at min_rtt and cuts when
# that exceeds pad = 10 packets (2.4 ms at 50 Mbit/s), so its RTT stays
# within a few ms of the base while the link stays full; bpf_reno and the
# kernel's cubic, on identical links (same seed), fill the buffer.
# One flow at a time; RTTs are the sender's srtt (tcp_probe) from SKIP_S on.
# Goodput is judged against bpf_reno's only as far as linkem kept time: NV
# reads the emulator's lateness as queue (see the goodput checks).
#
# Where NV's claim holds, and its limits: NV was designed for data centres
# (us RTTs, Gbit/s) with every flow NV.  pad is in packets, so the queue it
# keeps is 10 packets at any rate: 2.4 ms here, 12 ms at 10 Mbit/s; beside a
# loss-based flow it would give the queue away (not tested).  Its slow start
# ends when the rate measured (which lags a doubling window) says
# "congestion", here at ~80 segments, below the BDP; from there it grows a
# segment per RTT, which costs some goodput in the first second (measured
# 0.96 of bpf_reno's over 12 s).  min_rtt is renewed every ~5 s from the
# smallest averaged RTT of the period before, which includes NV's own queue
# at its lowest: over a long flow min_rtt may creep up (seen: 20.4 -> 20.7
# ms in 12 s); the test checks it stays within 3 ms of the path's.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 90 iperf3 jq

RATE=50mbit DELAY=10ms		# RTT 20 ms: BDP 125 kB = 83 packets of 1500 B
QUEUE=830			# packets: 10 x BDP, 200 ms of queue when full
BASE_MS=20
PAD=10				# nv's default pad, packets
PKT_MS=0.24			# one 1500-byte packet at 50 Mbit/s
FLOW_S=12			# seconds per flow
LATE_CLOSE_US=10000		# linkem's p99 lateness up to which nv's goodput is judged closely,
LATE_LOOSE_US=50000		# ... and loosely
SKIP_S=4			# judge from this second on (start-up over)
plan 15

NV="${RUN_ID}nv"
RENO="${RUN_ID}reno"
bh_register "$NV" nv || bail_out "cannot register nv"
bh_register "$RENO" reno || bail_out "cannot register bpf_reno"

bh_on_link() { bh_big_buffers; }
# NV's iterator every 0.5 s into $TB_DIR/TAG.iter
bh_during() {
	[ "$1" = "$NV" ] || return 0
	bh_sample "$1" 0.5 $((FLOW_S * 2)) >>"$TB_DIR/$2.iter"
}
run() { bh_run "$1" "$2" "$FLOW_S" --rate $RATE --delay $DELAY --up-queue $QUEUE --seed 7; }

# records TAG: NV's --events records of its client sockets since the last
# read, one per evaluation, as "seconds_since_link_up rate queue by_slope
# decision" lines in $TB_DIR/TAG.ev (rate in 100 bit/s; queue = cwnd -
# cwnd_by_slope before the decision, packets; decision 0 wait, 1 decrease,
# 2 grow, 3 hold, 4 TSO floor, 5 growth stopped)
records() {
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$NV" 0.3 |
		awk -F, -v me="$CLIENT_IP:" -v t0="$(tb_link_mono "c$1")" \
		'NR > 1 && index($2, me) == 1 && $4 == 1 {
			q = $9; if (q >= 2147483648) q -= 4294967296
			printf "%.3f %s %d %s %s\n", $1 - t0, $8, q, $10, $11 }' >"$TB_DIR/$1.ev"
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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "none" || b == "none" || b <= 0) print 0; else print a / b }'; }

run "$NV" nv || bail_out "nv flow failed"
records nv
run "$RENO" reno || bail_out "bpf_reno flow failed"
run cubic cubic || bail_out "cubic flow failed"

read -r n50 n95 nn <<<"$(srtt nv $SKIP_S)"
read -r r50 _ rn <<<"$(srtt reno $SKIP_S)"
read -r c50 _ cn <<<"$(srtt cubic $SKIP_S)"
gn=$(bh_goodput nv) gr=$(bh_goodput reno) gc=$(bh_goodput cubic)
late=$(tb_late_us cnv p99)
diag "srtt p50/p95 from ${SKIP_S} s: nv ${n50}/${n95} ms ($nn ACKs), bpf_reno p50 ${r50} ($rn), cubic ${c50} ($cn); linkem's p50/p99 lateness on nv's link $(tb_late_us cnv p50)/${late} us"
diag "goodput: nv ${gn} Mbit/s, bpf_reno ${gr}, cubic ${gc}"

# What NV saw at its evaluations from SKIP_S on: the queue's median, decisions
q50=$(awk -v s=$SKIP_S '$1 >= s && $5 != 4 { print $3 }' "$TB_DIR/nv.ev" | bh_median)
ndec=$(awk -v s=$SKIP_S '$1 >= s && $5 == 1' "$TB_DIR/nv.ev" | wc -l)
ngrow=$(awk -v s=$SKIP_S '$1 >= s && $5 == 2' "$TB_DIR/nv.ev" | wc -l)
nev=$(awk -v s=$SKIP_S '$1 >= s' "$TB_DIR/nv.ev" | wc -l)
diag "nv from ${SKIP_S} s: $nev evaluations, $ndec decreases, $ngrow grow; the queue it estimated, median ${q50} packets (pad $PAD)"
diag "nv's first records (t rate queue by_slope decision): $(head -n 8 "$TB_DIR/nv.ev" | tr '\n' ';')"

# 1. NV: the queue short, the link as full as Reno keeps it.  Its queue is
# ~pad packets (2.4 ms) plus delayed ACKs and one RTT's growth; the bound
# adds what linkem itself ran late.
cmp_ok "$n50" '<' "$(awk -v l="$late" -v b=$BASE_MS 'BEGIN { print b + 8 + l / 1000 }')" \
	"nv: srtt p50 ${n50} ms within 8 ms of the ${BASE_MS} ms path (+ linkem's p99 lateness ${late} us)"
# NV reads every delay as queue: what linkem ran late, beyond its pad of
# 2.4 ms, looks like congestion to it and costs goodput.  Seen, nv's goodput
# over bpf_reno's: 0.96-0.98 at a p99 lateness of 6-7 ms; 0.93, 0.85, 0.81
# at 17, 40, 30 ms (load 14-17 on the 2 cores).  So the close comparison is
# judged only when linkem was nearly on time, the loose one unless it ran
# very late; otherwise each skips with the figure.
late_why() {
	[ "$late" -le "$1" ] ||
		echo "linkem ran ${late} us late (p99) on nv's link, over $1: NV takes that for queue"
}
cmp_or_skip "$(late_why $LATE_LOOSE_US)" "$(ratio "$gn" "$gr")" '>=' 0.75 \
	"nv's goodput is comparable to bpf_reno's (${gn} vs ${gr} Mbit/s, >= 0.75)"
cmp_or_skip "$(late_why $LATE_CLOSE_US)" "$(ratio "$gn" "$gr")" '>=' 0.9 \
	"nv keeps the link as full as bpf_reno does (${gn} vs ${gr} Mbit/s, >= 0.9)"

# 2. The loss-based algorithms fill the deep buffer
cmp_ok "$r50" '>' $((BASE_MS + 50)) "bpf_reno fills the buffer: srtt p50 ${r50} ms > ${BASE_MS} + 50"
cmp_ok "$c50" '>' $((BASE_MS + 50)) "cubic too: srtt p50 ${c50} ms > ${BASE_MS} + 50"
nq=$(awk -v n="$n50" -v b=$BASE_MS 'BEGIN { q = n - b; print (q > 0.5 ? q : 0.5) }')
rq=$(awk -v r="$r50" -v b=$BASE_MS 'BEGIN { print r - b }')
cmp_ok "$(ratio "$rq" "$nq")" '>=' 5 "nv queues at least 5x less than bpf_reno (${nq} ms vs ${rq} ms)"

# 3. The emulator's own view of its queue (whole flow, start-up included)
lq_n=$(tb_stat cnv '.up.qdelay_us.p50') lq_r=$(tb_stat creno '.up.qdelay_us.p50')
ld_n=$(tb_stat cnv '.up.drops.queue') ld_r=$(tb_stat creno '.up.drops.queue')
diag "linkem queue: nv p50 ${lq_n} us, ${ld_n} drops; bpf_reno p50 ${lq_r} us, ${ld_r} drops"
cmp_ok "$lq_n" '<' 10000 "linkem: nv's packets wait < 10 ms in the queue (p50 ${lq_n} us)"
cmp_ok "$lq_r" '>' 50000 "linkem: bpf_reno's packets wait > 50 ms (p50 ${lq_r} us)"
cmp_ok "$ld_n" '==' 0 "linkem: nv never overflows the 10 x BDP buffer (${ld_n} drops; bpf_reno ${ld_r})"

# 4. The mechanism, from NV's records and its iterator
cmp_ok "$nev" '>=' 50 "nv evaluated once per RTT or so ($nev records from ${SKIP_S} s)"
cmp_ok "$ndec" '>=' 3 "nv acted on congestion again and again ($ndec decreases)"
cmp_ok "${q50:-99}" '<=' $((PAD + 5)) "nv's estimated queue at its evaluations: median ${q50} packets, about pad ($PAD)"
iter=$TB_DIR/nv.iter
n_iter=$(grep -c nv_min_rtt_us= "$iter")
cmp_ok "$n_iter" '>=' 10 "the iterator showed the nv socket ($n_iter samples)"
min_us=$(tail -n 1 "$iter" | tr ' ' '\n' | sed -n 's/^nv_min_rtt_us=//p')
cmp_ok "${min_us:-0}" '>=' $((BASE_MS * 1000)) "nv: min_rtt ${min_us} us is not below the emulated 20 ms"
late50=$(tb_late_us cnv p50)
cmp_ok "${min_us:-99999999}" '<' $((BASE_MS * 1000 + 3000 + late50)) \
	"nv: min_rtt is the path's (+ < 3 ms = $(awk -v p=$PKT_MS 'BEGIN { printf "%d", 3 / p }') packets, + linkem's p50 lateness ${late50} us) after two renewals"
done_testing
