#!/usr/bin/env bash
# BBR behind a token-bucket policer, side by side with the kernel's
# built-in bbr on the same link: a 5 Mbit/s policer (linkem --up-police, a
# bucket of 40 ms at its rate, 25 kB) ahead of a 20 Mbit/s link with a
# 2-BDP buffer, RTT 40 ms.  BBR v1's long-term sampling finds a policer by
# two intervals of 4-16 rounds lossy by 20 % or more at rates within 1/8,
# and then paces at that rate (lt_bw) for 48 rounds, its PROBE_BW pacing
# gain held at 1:
#  - ours says so itself: lt_use_bw=1 in the iterator, and --events phase
#    records at gain 1 where the cycle has 5/4 or 3/4;
#  - the module does not report the mode (get_info has bw and the gains),
#    so for both it is read from ss's gains the same way: PROBE_BW held at
#    gain 1 for 12 RTTs or more, which its cycle never does (it leaves gain
#    1 after 6 phases of min_rtt), at a bw near the policed rate;
#  - ours' goodput and the share of its packets the policer dropped are
#    within the module's spread over two runs (twice its range, at least
#    10 % of goodput and 3 points of loss: fidelity's rule, K = 2).
# ~75 s of flows.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 200 iperf3 jq python3

grep -qw bbr /proc/sys/net/ipv4/tcp_available_congestion_control ||
	modprobe tcp_bbr 2>/dev/null || skip_all "this kernel has no bbr to compare with"
plan 9

SECS=15 RTT_MS=40
POLICE=5mbit:40ms
# the policed rate in payload bit/s, as BBR's bw counts it: 1448 of 1500 bytes
LT_WANT=$(awk 'BEGIN { print 5e6 * 1448 / 1500 }')
BBR="${RUN_ID}bbr"
bh_register "$BBR" bbr || bail_out "cannot register bbr"
SAMPLER="$TCPCA_ROOT/tools/fidelity/state-sample"

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

bh_on_link() { bh_big_buffers; }
# while the flow runs: its state every 20 ms (tools/fidelity/state-sample:
# ss's bbr info for the module, our iterator for ours) in TAG.state.csv
bh_during() {
	nsenter --net="/run/netns/$TB_CLIENT_NS" "$SAMPLER" "$SERVER_IP" "$(tb_port 0)" 20 \
		$((SECS + 3)) "$TB_DIR/$2.state.csv" "$TEST_PIN_DIR/$1/sockets"
}
run() {	# CA TAG
	bh_run "$1" "$2" "$SECS" --rate 20mbit --delay 20ms --up-queue 132 \
		--up-police "$POLICE" --seed 11
}

# lt TAG: "share first_s bw_mbps iter_share" of the data connection's
# samples: the share of those after STARTUP in PROBE_BW stretches at pacing
# gain 1 lasting 12 RTTs or more, when the first began (s from the first
# sample in STARTUP), the model's bw p50 in them (Mbit/s), and the share of
# samples after STARTUP where our iterator said lt_use_bw=1 ("-" for the
# module, which does not say)
lt() {
	awk -F, -v min="$(calc "12 * $RTT_MS / 1000")" '
	NR == 1 { next }
	{ if ($6 + 0 >= acked[$2]) acked[$2] = $6 + 0; row[NR] = $0 }
	END {
		for (p in acked) if (best == "" || acked[p] > acked[best]) best = p
		for (i = 2; i <= NR; i++) {
			split(row[i], f, ",")
			if (f[2] != best || f[7] == "") continue
			n++; t[n] = f[1]; pg[n] = f[7] + 0; cg[n] = f[8] + 0; bw[n] = f[9]; it[n] = f[10]
		}
		for (i = 1; i <= n && pg[i] < 2.5; i++) ;	# the first sample in STARTUP
		t0 = t[i]
		for (; i <= n && pg[i] > 2.5; i++) ;		# its end
		for (j = i; j <= n; j++) {
			after++
			if (it[j] != "") { told++; if (it[j] == 1) on++ }
			g1 = pg[j] == 1 && cg[j] == 2
			if (g1 && !s) s = j
			if (s && (!g1 || j == n)) {
				if (t[j] - t[s] >= min) {
					for (k = s; k < j; k++) { in_lt++; if (bw[k] != "") b[++nb] = bw[k] / 1e6 }
					if (first == "") first = t[s] - t0
				}
				s = 0
			}
		}
		# the p50 of the bw samples: sort them (few hundred)
		for (x = 2; x <= nb; x++) for (y = x; y > 1 && b[y - 1] > b[y]; y--) { z = b[y]; b[y] = b[y - 1]; b[y - 1] = z }
		med = nb ? (nb % 2 ? b[(nb + 1) / 2] : (b[nb / 2] + b[nb / 2 + 1]) / 2) : "none"
		printf "%.3f %s %s %s\n", after ? in_lt / after : 0, first == "" ? "none" : sprintf("%.2f", first),
			med == "none" ? med : sprintf("%.2f", med), told ? sprintf("%.3f", on / told) : "-"
	}' "$TB_DIR/$1.state.csv"
}
police_loss() { calc "$(tb_stat "c$1" .up.drops.police) / $(tb_stat "c$1" .up.pkts_in)"; }

run "$BBR" ours1 || bail_out "bpf_bbr's first flow failed"
# phase records of the data connection at gain 1 (256) in the 5/4 or 3/4
# slot (cycle_idx 0 or 1): the long-term mode, in --events' words
"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$BBR" 0.3 |
	awk -F, -v me="$CLIENT_IP:" 'NR > 1 && index($2, me) == 1 && $4 == 2 { n[$2]++; if (($8 == 0 || $8 == 1) && $9 == 256) lt[$2]++ }
		END { for (p in n) if (n[p] > best) { best = n[p]; b = p }; print best + 0, lt[b] + 0 }' >"$TB_DIR/ours1.phases"
run bbr native1 || bail_out "bbr's first flow failed"
run "$BBR" ours2 || bail_out "bpf_bbr's second flow failed"
run bbr native2 || bail_out "bbr's second flow failed"

declare -A SHARE FIRST BW ITER GP PL	# of each run, by its tag
for tag in native1 native2 ours1 ours2; do
	read -r "SHARE[$tag]" "FIRST[$tag]" "BW[$tag]" "ITER[$tag]" <<<"$(lt "$tag")"
	GP[$tag]=$(calc "$(bh_goodput "$tag")") PL[$tag]=$(police_loss "$tag")
	diag "$tag: long-term mode (gain 1 for 12+ RTTs) in ${SHARE[$tag]} of the samples after STARTUP," \
		"first at ${FIRST[$tag]} s, bw p50 ${BW[$tag]} Mbit/s there (policed: $(calc "$LT_WANT / 1e6"));" \
		"iterator lt_use_bw=1 in ${ITER[$tag]}; goodput ${GP[$tag]} Mbit/s, the policer dropped ${PL[$tag]}" \
		"of the packets; linkem p99 late $(tb_late_us "c$tag") us"
done
read -r phases ltphases <"$TB_DIR/ours1.phases"
diag "ours1: $ltphases of $phases gain-cycle phase records at gain 1 in the 5/4 or 3/4 slot"

both() { [ "$1" != none ] && [ "$2" != none ]; }	# A B: both runs found one
# one value of two runs, by awk expression over a and b
of2() { awk -v a="$2" -v b="$3" "BEGIN { printf \"%.3f\", ($1) }"; }	# (): a ">" in it is not a redirection

both "${FIRST[native1]}" "${FIRST[native2]}"
ok $? "the kernel's bbr goes into the long-term mode (at ${FIRST[native1]} and ${FIRST[native2]} s)"
awk -v a="${ITER[ours1]}" -v b="${ITER[ours2]}" 'BEGIN { exit !(a > 0 && b > 0) }'
ok $? "bpf_bbr's iterator says lt_use_bw=1 (in ${ITER[ours1]} and ${ITER[ours2]} of the samples after STARTUP)"
both "${FIRST[ours1]}" "${FIRST[ours2]}"
ok $? "bpf_bbr's gains show the mode as the module's do (at ${FIRST[ours1]} and ${FIRST[ours2]} s)"
cmp_ok "$ltphases" '>' 0 "--events: $ltphases gain-cycle phases at gain 1 in the 5/4 or 3/4 slot"
# the rule that reads the module must agree with what ours says
cmp_ok "$(of2 'a > b ? a - b : b - a' "${SHARE[ours1]}" "${ITER[ours1]}")" '<=' 0.1 \
	"the gains' rule and the iterator agree on the mode's share (${SHARE[ours1]} vs ${ITER[ours1]})"
lo=$(of2 'a < b ? a : b' "${BW[ours1]}" "${BW[ours2]}") hi=$(of2 'a > b ? a : b' "${BW[ours1]}" "${BW[ours2]}")
want=$(calc "$LT_WANT / 1e6")
awk -v l="$lo" -v h="$hi" -v w="$want" 'BEGIN { exit !(l >= 0.85 * w && h <= 1.15 * w) }'
ok $? "in it bpf_bbr's bw is the policed rate within 15%: ${BW[ours1]} and ${BW[ours2]} of $want Mbit/s"
nat=$(of2 '(a + b) / 2' "${BW[native1]}" "${BW[native2]}") our=$(of2 '(a + b) / 2' "${BW[ours1]}" "${BW[ours2]}")
cmp_ok "$(of2 'a > b ? a / b - 1 : b / a - 1' "$our" "$nat")" '<=' 0.1 \
	"... and the module's within 10%: $our vs $nat Mbit/s"
# within the module's spread: K = 2 times its range, at least a floor
spread() {	# FLOOR N1 N2 O1 O2: |mean(O) - mean(N)| <= max(FLOOR, 2 |N1 - N2|)
	awk -v f="$1" -v n1="$2" -v n2="$3" -v o1="$4" -v o2="$5" 'BEGIN {
		d = (o1 + o2 - n1 - n2) / 2; d = d < 0 ? -d : d; r = n1 - n2; r = r < 0 ? -r : r
		exit !(d <= (f > 2 * r ? f : 2 * r)) }'
}
gn=$(of2 '(a + b) / 2' "${GP[native1]}" "${GP[native2]}")
spread "$(calc "0.1 * $gn")" "${GP[native1]}" "${GP[native2]}" "${GP[ours1]}" "${GP[ours2]}"
ok $? "goodput within the module's spread: ${GP[ours1]}, ${GP[ours2]} vs ${GP[native1]}, ${GP[native2]} Mbit/s"
spread 0.03 "${PL[native1]}" "${PL[native2]}" "${PL[ours1]}" "${PL[ours2]}"
ok $? "the policer's loss within the module's spread: ${PL[ours1]}, ${PL[ours2]} vs ${PL[native1]}, ${PL[native2]}"
