#!/usr/bin/env bash
# TCP-LP beside a Reno flow, as the 6.1 module computes it.  LP exists to
# yield: alone it takes the link, and once a Reno flow shares the bottleneck
# its rising one-way delay should make LP back off to a small share.  Here
# (15 Mbit/s, RTT 30 ms, 2-BDP buffer) an LP flow runs alone for 8 s, then a
# bpf_reno flow joins for 11 s; the same again with bpf_reno in LP's place
# gives the fair share to compare with.
#
# What the module's arithmetic does on Linux >= 4.10 (include/lp.h,
# tests/unit/test_lp.c): its estimate of the peer's clock rate, from the
# whole-ms steps of successive ACKs, reads 1030-1500 Hz for a 1000 Hz peer
# at these ACK rates, which makes the OWD sample -TSecr (mod 2^32); and the
# OWD includes the random offset between the two ends' timestamp clocks.
# Both put the samples at or above 2^29 ticks, where the smoothed OWD (kept
# << 3 in 32 bits) wraps below owd_min, so the threshold is never crossed:
# no back-off, and LP shares the link as Reno does.  The test asserts that,
# with the iterator's remote HZ and back-off count, side by side with
# bpf_reno's fair share.  When the random offset happens to fall below 2^29
# (about 1 connection in 8) the filter sees real samples part of the time,
# backs off and restarts owd_min below 2^29; the share checks then skip with
# the reason, as the module's LP is then not Reno but not the paper's either.
# Last, 6 s of LP alone without TCP timestamps (tcp_timestamps=0 in both
# namespaces): no remote HZ, no OWD, the threshold at 2^32 - 1, Reno.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 120 iperf3 jq

RATE=15mbit RATE_MBIT=15 DELAY=15ms	# RTT 30 ms: BDP 56 kB = 38 packets
QUEUE=75				# packets: 2 BDP, 60 ms of queue
FIRST_S=20 SECOND_S=11 SECOND_AT=8	# s: the first flow, the second, its start
plan 11

LP="${RUN_ID}lp"
RENO="${RUN_ID}reno"
bh_register "$LP" lp || bail_out "cannot register lp"
bh_register "$RENO" reno || bail_out "cannot register bpf_reno"

# pair CA TAG: CA's flow 0 alone, bpf_reno's flow 1 joining SECOND_AT s
# later, on a fresh link cTAG; the iterator of LP sampled once a second
# into TAG.iter.  JSON in TAG-0.json, TAG-1.json.
pair() {
	local i
	tb_link "c$2" "s$2" --rate $RATE --delay $DELAY --queue $QUEUE || return 1
	bh_big_buffers || return 1
	tb_flow 0 "$FIRST_S" 0 -C "$1" || return 1
	tb_flow 1 "$SECOND_S" "$SECOND_AT" -C "$RENO" || return 1
	: >"$TB_DIR/$2.iter"
	if [ "$1" = "$LP" ]; then
		for ((i = 0; i < FIRST_S - 1; i++)); do
			sleep 1
			bh_sockets "$LP" | bh_busiest >>"$TB_DIR/$2.iter"
		done
	fi
	tb_flows_wait || return 1
	bh_keep_flows "$2"
}

# field TAG KEY: the values of KEY= in TAG's iterator samples, one a line
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$TB_DIR/$1.iter"; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

pair "$LP" lp || bail_out "the lp + bpf_reno run failed"
pair "$RENO" reno || bail_out "the bpf_reno + bpf_reno run failed"

# LP alone without timestamps; the iterator read 5 s in
tb_link cnots snots --rate $RATE --delay $DELAY --queue $QUEUE || bail_out "no link for the last run"
for ns in "$TB_CLIENT_NS" "$TB_SERVER_NS"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_timestamps=0 || bail_out "cannot turn timestamps off in $ns"
done
bh_big_buffers || bail_out "cannot set the socket buffers"
tb_flow 0 6 0 -C "$LP" || bail_out "the flow without timestamps did not start"
sleep 5
nots=$(bh_sockets "$LP" | bh_busiest)
tb_flows_wait || bail_out "the flow without timestamps failed"
bh_keep_flows nots

# alone: 2-8 s of the first flow; together: the second flow's 4-10 s, which
# is the first flow's 12-18 s (iperf3 starts within a second of its delay)
la=$(bh_rate lp-0 2 8) ra=$(bh_rate reno-0 2 8)
lt=$(bh_rate lp-0 12 18) lr=$(bh_rate lp-1 4 10)
rt=$(bh_rate reno-0 12 18) rr=$(bh_rate reno-1 4 10)
lshare=$(calc "$lt / ($lt + $lr + 1e-9)") rshare=$(calc "$rt / ($rt + $rr + 1e-9)")
samples=$(grep -c . "$TB_DIR/lp.iter")
above=$(field lp remote_hz | awk '$1 > 1000 { n++ } END { print n + 0 }')
backoffs=$(field lp backoffs | tail -n 1)
owd_min=$(field lp owd_min_ms | tail -n 1)
late=$(tb_late_us clp)
diag "alone (2-8 s): lp $(calc "$la") Mbit/s, bpf_reno $(calc "$ra") of $RATE_MBIT"
diag "together (the second flow's 4-10 s): lp $(calc "$lt") + bpf_reno $(calc "$lr") (lp's share $lshare); bpf_reno $(calc "$rt") + bpf_reno $(calc "$rr") (first's share $rshare)"
diag "lp's iterator: remote_hz above 1000 in $above of $samples samples ($(field lp remote_hz | sort -n | sed -n '1p;$p' | tr '\n' ' ')), back-offs $backoffs, owd_min $owd_min ticks; linkem p99 late $late us"
diag "lp's last sample: $(tail -n 1 "$TB_DIR/lp.iter" | cut -d' ' -f9-)"
diag "without timestamps: $(calc "$(bh_rate nots-0 2 6)") Mbit/s; $(echo "$nots" | cut -d' ' -f9-)"

# the link's own capacity check: a Reno flow alone fills it, else this run
# cannot judge utilisation (the machine held the sender or linkem off)
busy=""
awk -v r="$ra" -v c="$RATE_MBIT" 'BEGIN { exit !(r < 0.8 * c) }' &&
	busy="bpf_reno alone reached only $(calc "$ra") of $RATE_MBIT Mbit/s: the machine, not the algorithm"
live=""
[ "${owd_min:-0}" -lt $((1 << 29)) ] &&
	live="owd_min $owd_min is below 2^29 after $backoffs back-off(s): a sample fell below 2^29 (the random timestamp offset was low, about 1 connection in 8), so the module's filter was live part of the time"
cmp_or_skip "${busy:-$live}" "$(calc "$la / $RATE_MBIT")" '>=' 0.85 "lp alone takes the link: utilisation $(calc "$la / $RATE_MBIT") (bpf_reno $(calc "$ra / $RATE_MBIT"))"
cmp_ok "$samples" '>=' $((FIRST_S / 2)) "lp's socket was seen by the iterator ($samples samples)"
cmp_or_skip "$live" "$above" '>=' $((samples / 2)) \
	"lp's remote HZ estimate of a 1000 Hz peer reads above 1000 Hz in $above of $samples samples (the OWD factor 1000 / remote_hz is 0)"
cmp_or_skip "$live" "${backoffs:-0}" '==' 0 "lp never backs off early in $FIRST_S s ($backoffs): the smoothed OWD never crosses the threshold"
cmp_or_skip "$live" "$lshare" '>=' 0.3 "lp does not yield: its share beside bpf_reno is $lshare (bpf_reno beside bpf_reno: $rshare)"
cmp_or_skip "$live" "$(calc "$lr / ($ra + 1e-9)")" '<=' 0.8 \
	"the Reno flow beside lp gets $(calc "$lr") Mbit/s, not nearly what a flow gets alone ($(calc "$ra"))"
# both pairs fill the link together
cmp_or_skip "$busy" "$(calc "($lt + $lr) / $RATE_MBIT")" '>=' 0.8 "lp + bpf_reno fill the link: $(calc "($lt + $lr) / $RATE_MBIT")"
cmp_or_skip "$busy" "$(calc "($rt + $rr) / $RATE_MBIT")" '>=' 0.8 "bpf_reno + bpf_reno fill the link: $(calc "($rt + $rr) / $RATE_MBIT")"
# without timestamps: the module's fallback
like "$nots" " remote_hz=0 .* backoffs=0 valid_rhz=0 valid_owd=0 within_thr=1 " \
	"without timestamps: no remote HZ, no OWD, always within the threshold, no back-off"
like "$nots" " thresh_ms=4294967295 " "... the threshold stays at 2^32 - 1"
cmp_or_skip "$busy" "$(calc "$(bh_rate nots-0 2 6) / $RATE_MBIT")" '>=' 0.85 \
	"... and LP is Reno: it takes the link ($(calc "$(bh_rate nots-0 2 6) / $RATE_MBIT"))"
done_testing
