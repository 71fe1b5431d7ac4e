#!/usr/bin/env bash
# BBR in the three scenarios it is known by, each side by side with the
# kernel's built-in bbr in the same run (same links, same loss seed):
#  1. 1% random loss (20 Mbit/s, RTT 40 ms, 2-BDP buffer): BBR v1 does not
#     take random loss for congestion and keeps the link full, where cubic
#     is held near the Mathis rate;
#  2. a deep buffer (10 Mbit/s, RTT 40 ms, 10 BDP = 330 packets, no loss):
#     BBR keeps about one BDP queued (cwnd_gain 2 caps it there), and
#     goes through STARTUP, DRAIN, PROBE_BW and, 10 s after its last new
#     min_rtt, PROBE_RTT at 4 packets for 200 ms;
#  3. two BBR flows on one bottleneck (20 Mbit/s, RTT 40 ms, 2 BDP), the
#     second starting 2 s later: they share fairly over the 9 s they overlap.
# Timing bounds take their slack from what linkem measured of itself in
# this run (tb_late_us).  ~70 s of flows.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 150 iperf3 jq

grep -qw bbr /proc/sys/net/ipv4/tcp_available_congestion_control ||
	modprobe tcp_bbr 2>/dev/null || skip_all "this kernel has no bbr to compare with"
plan 19

BASE_MS=40
LOSS_RATE=20 LOSS_S=6		# Mbit/s, s per flow: scenario 1
DEEP_RATE=10 DEEP_S=12		# scenario 2: 12 s to see one ProbeRTT
FAIR_S=12 FAIR_AT=2 FAIR_FROM=1	# scenario 3: the second flow's start, judged from its 2nd s

BBR="${RUN_ID}bbr"
bh_register "$BBR" bbr || bail_out "cannot register bbr"

calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
ratio() { calc "$1 / ($2 + 1e-9)"; }

# --- 1. random loss ---------------------------------------------------------
loss_run() {
	bh_run "$1" "$2" "$LOSS_S" --rate ${LOSS_RATE}mbit --delay 20ms --up-loss 1% \
		--up-queue 138 --seed 7
}
loss_run "$BBR" lossours || bail_out "bpf_bbr's lossy flow failed"
loss_run bbr lossnative || bail_out "bbr's lossy flow failed"
loss_run cubic losscubic || bail_out "cubic's lossy flow failed"
go=$(bh_goodput lossours) gn=$(bh_goodput lossnative) gc=$(bh_goodput losscubic)
diag "1% loss: goodput bpf_bbr $go, bbr $gn, cubic $gc Mbit/s of $LOSS_RATE;" \
	"random drops $(tb_stat clossours .up.drops.loss), $(tb_stat clossnative .up.drops.loss), $(tb_stat closscubic .up.drops.loss);" \
	"linkem p99 late $(tb_late_us clossours) us"
# the reference decides whether this machine let a BBR flow fill the link
busy=""
awk -v g="$gn" -v c=$LOSS_RATE 'BEGIN { exit !(g < 0.75 * c) }' &&
	busy="the kernel's bbr reached only $gn of $LOSS_RATE Mbit/s: the machine, not the algorithm"
cmp_or_skip "$busy" "$(ratio "$go" $LOSS_RATE)" '>=' 0.8 \
	"1% loss: bpf_bbr uses the link: $go of $LOSS_RATE Mbit/s (bbr: $gn)"
cmp_ok "$(ratio "$go" "$gn")" '>=' 0.85 "1% loss: bpf_bbr's goodput is the kernel bbr's: $go vs $gn Mbit/s"
cmp_ok "$(ratio "$gc" $LOSS_RATE)" '<' 0.5 "1% loss: cubic is loss-bound: $gc of $LOSS_RATE Mbit/s"
cmp_ok "$(ratio "$go" "$gc")" '>=' 2.5 "1% loss: bpf_bbr gets at least 2.5 x cubic's goodput ($go vs $gc)"
cmp_ok "$(tb_stat clossours .up.drops.loss)" '>' 50 "1% loss: the flow met random losses"

# --- 2. a deep buffer --------------------------------------------------------
# srtt TAG FROM_S: "p50 p95" of the sender's srtt in ms (tcp_probe) from FROM_S on
srtt() {
	awk -F, -v me="$CLIENT_IP" -v from="$(tb_link_mono "c$1" | awk -v s="$2" '{ print $1 + s }')" \
		'NR > 1 && $2 == me && $1 >= from { print $8 / 1000 }' "$TB_DIR/$1.csv" |
		tb_pct 0.5 0.95 | awk '{ print $2, $3 }'
}
deep_run() {
	bh_run "$1" "$2" "$DEEP_S" --rate ${DEEP_RATE}mbit --delay 20ms --queue 330
}
deep_run "$BBR" deepours || bail_out "bpf_bbr's deep-buffer flow failed"
# mode changes (kind 1: v0 new mode, v1 old) and phases (kind 2) of the
# data connection (the client port with most records; iperf3's control
# connection runs bbr too) since this link came up (the ring still holds
# the lossy run's): "t kind v0 v1 cwnd" lines
"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$BBR" 0.3 |
	awk -F, -v me="$CLIENT_IP:" -v t0="$(tb_link_mono cdeepours)" \
	'NR > 1 && index($2, me) == 1 && $1 >= t0 { print $2, $1 - t0, $4, $8, $9, $5 }' >"$TB_DIR/deep.raw"
port=$(awk '{ n[$1]++ } END { for (p in n) if (n[p] > best) { best = n[p]; b = p }; print b }' "$TB_DIR/deep.raw")
awk -v p="$port" '$1 == p { printf "%.3f %s %s %s %s\n", $2, $3, $4, $5, $6 }' "$TB_DIR/deep.raw" >"$TB_DIR/deep.ev"
deep_run bbr deepnative || bail_out "bbr's deep-buffer flow failed"
read -r o50 o95 <<<"$(srtt deepours 3)"
read -r n50 n95 <<<"$(srtt deepnative 3)"
do_=$(bh_goodput deepours) dn=$(bh_goodput deepnative)
late=$(tb_late_us cdeepours)
diag "deep buffer: srtt p50/p95 from 3 s: bpf_bbr $o50/$o95 ms, bbr $n50/$n95 ms (path $BASE_MS ms);" \
	"goodput $do_ and $dn Mbit/s; linkem queue p50 $(tb_stat cdeepours .up.qdelay_us.p50) and $(tb_stat cdeepnative .up.qdelay_us.p50) us; p99 late $late us"
# one BDP of queue is BASE_MS more (cwnd_gain 2, plus the aggregation and
# TSO allowances); what linkem ran late adds to every RTT
cmp_ok "$o50" '<' "$(calc "$BASE_MS * 2.5 + $late / 1000")" \
	"deep buffer: bpf_bbr's srtt p50 $o50 ms: about one BDP queued, at most 1.5 of the buffer's 10 ($BASE_MS + 60 ms, + linkem's $late us)"
cmp_ok "$o50" '<' "$(calc "$n50 * 1.3 + 5 + $late / 1000")" \
	"deep buffer: and within 30% (+ 5 ms) of the kernel bbr's p50 $n50 ms"
cmp_ok "$(ratio "$do_" $DEEP_RATE)" '>=' 0.85 "deep buffer: bpf_bbr keeps the link busy: $do_ of $DEEP_RATE Mbit/s (bbr $dn)"
cmp_ok "$(tb_stat cdeepours .up.drops.queue)" '==' 0 "deep buffer: STARTUP's overshoot fits the buffer (no drop)"
modes=$(awk '$2 == 1 { printf "%s%s", sep, $3; sep = " " }' "$TB_DIR/deep.ev")
diag "deep buffer: bpf_bbr's modes (0 STARTUP 1 DRAIN 2 PROBE_BW 3 PROBE_RTT): $modes;" \
	"$(awk '$2 == 2' "$TB_DIR/deep.ev" | wc -l) gain-cycle phases"
# DRAIN may end on the ACK that starts it: then one record, STARTUP -> PROBE_BW
like "$modes" "^(1 )?2( 3 2)*( 3)?$" "deep buffer: STARTUP -> DRAIN -> PROBE_BW (-> PROBE_RTT -> PROBE_BW)"
startup_end=$(awk '$2 == 1 && $4 == 0 { print $1; exit }' "$TB_DIR/deep.ev")
cmp_ok "${startup_end:-99}" '<' 2 "deep buffer: STARTUP ends within 2 s (at ${startup_end:-never} s)"
# ProbeRTT: 10 s after min_rtt was last lowered (within the first second or two)
read -r prt_in prt_out <<<"$(awk '$2 == 1 && $3 == 3 { a = $1 } $2 == 1 && $4 == 3 && a != "" { print a, $1; exit }' "$TB_DIR/deep.ev")"
diag "deep buffer: PROBE_RTT from ${prt_in:-none} to ${prt_out:-none} s"
cmp_ok "${prt_in:-0}" '>=' 10 "deep buffer: ProbeRTT starts at least 10 s in (${prt_in:-none})"
cmp_ok "$(calc "${prt_out:-0} - ${prt_in:-0}")" '>=' 0.2 "deep buffer: ProbeRTT lasts at least 200 ms"
prt_cwnd=$(awk '$2 == 1 && $3 == 3 { print $5; exit }' "$TB_DIR/deep.ev")
cmp_ok "${prt_cwnd:-99}" '<=' 4 "deep buffer: ProbeRTT holds cwnd at 4 packets (${prt_cwnd:-none})"
phases=$(awk '$2 == 2 && $1 >= 3 && $1 < 9' "$TB_DIR/deep.ev" | wc -l)
# one phase per min_rtt (~40 ms, more with the queue): 6 s hold ~100-150
cmp_ok "$phases" '>=' 60 "deep buffer: the gain cycle turns: $phases phases from 3 to 9 s"
cmp_ok "$(awk '$2 == 2 && $1 >= 3 && $1 < 9 { n[$3]++ } END { print (n[0] > 0 && n[1] > 0) ? 1 : 0 }' "$TB_DIR/deep.ev")" \
	'==' 1 "deep buffer: ... through its 5/4 and 3/4 phases"

# --- 3. two flows ---------------------------------------------------------------
# pair CA TAG: flow 0 for FAIR_S s, flow 1 from FAIR_AT s for FAIR_S - FAIR_AT
pair() {
	tb_link "c$2" "s$2" --rate ${LOSS_RATE}mbit --delay 20ms --queue 138 || return 1
	bh_big_buffers || return 1
	tb_flow 0 "$FAIR_S" 0 -C "$1" || return 1
	tb_flow 1 $((FAIR_S - FAIR_AT)) "$FAIR_AT" -C "$1" || return 1
	tb_flows_wait || return 1
	bh_keep_flows "$2"
}
jain() { calc "($1 + $2)^2 / (2 * ($1^2 + $2^2) + 1e-9)"; }
pair "$BBR" fairours || bail_out "the bpf_bbr pair failed"
pair bbr fairnative || bail_out "the bbr pair failed"
# the second flow's FAIR_FROM.. s is the first's FAIR_FROM + FAIR_AT.. s
end=$((FAIR_S - FAIR_AT))
a0=$(bh_rate fairours-0 $((FAIR_FROM + FAIR_AT)) $FAIR_S) a1=$(bh_rate fairours-1 $FAIR_FROM $end)
b0=$(bh_rate fairnative-0 $((FAIR_FROM + FAIR_AT)) $FAIR_S) b1=$(bh_rate fairnative-1 $FAIR_FROM $end)
jo=$(jain "$a0" "$a1") jn=$(jain "$b0" "$b1")
diag "two flows: bpf_bbr $(calc "$a0") + $(calc "$a1") Mbit/s (Jain $jo); bbr $(calc "$b0") + $(calc "$b1") (Jain $jn);" \
	"linkem p99 late $(tb_late_us cfairours) us"
# BBR v1's pairs swing (one's ProbeRTT is the other's gain), judged over the
# whole overlap; 0.85 is a 30/70 split at worst.  A latecomer whose STARTUP
# ends early can also sit at a fraction until the next ProbeRTT (the
# kernel's own pair: 0.74 once in four runs here, 2.8 of 20 Mbit/s for 6 s):
# when the kernel's pair did not share in this run, the scenario could not
# show sharing, and only the comparison with it judges ours.
unfair=""
awk -v j="$jn" 'BEGIN { exit !(j < 0.85) }' &&
	unfair="the kernel's bbr pair itself shared at Jain $jn in this run: BBR v1 had not converged in ${FAIR_S} s"
cmp_or_skip "$unfair" "$jo" '>=' 0.85 "two flows: bpf_bbr's share fairly: Jain's index $jo (bbr's $jn)"
cmp_ok "$jo" '>=' "$(calc "$jn - 0.1")" "two flows: about as fair as the kernel bbr's pair (Jain $jo vs $jn)"
cmp_ok "$(ratio "$(calc "$a0 + $a1")" $LOSS_RATE)" '>=' 0.8 "two flows: together they fill the link ($(calc "$a0 + $a1") of $LOSS_RATE)"
done_testing
