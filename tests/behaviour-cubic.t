#!/usr/bin/env bash
# CUBIC's growth is a function of time, not of RTTs: after a loss the
# window follows W(t) = origin - C (K - t)^3 with K = cbrt((origin - ssthresh)
# / C) seconds (origin: W_max, less with fast convergence), so it closes 80%
# of the gap to origin in K (1 - cbrt(0.2)) = 0.415 K s whatever the RTT.
# Two paths with the same BDP (167 packets, 1-BDP buffer), a long one
# (10 Mbit/s x 200 ms) and a short one (40 Mbit/s x 50 ms), a 3 ms blackout
# on each for one loss in congestion avoidance: bpf_cubic and the kernel's
# built-in cubic, in the same run, both follow that time on both paths
# (Reno's time is RTTs: 4x on the long path); bpf_cubic's own records give
# the same W_max and K; on the long path bpf_reno takes many times longer.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 150 iperf3 jq

QUEUE=167				# packets: one BDP on both paths
LONG=(--rate 10mbit --delay 100ms)	# RTT 200 ms
SHORT=(--rate 40mbit --delay 25ms)	# RTT 50 ms
LONG_S=10 SHORT_S=8			# seconds per flow
LONG_AT=4 SHORT_AT=2.5			# the blackout: after slow start on either path,
LONG_OFF=20ms SHORT_OFF=5ms		# for about 17 packets of a full link
C=0.4004				# bic_scale 41: 410/1024
plan 9

OURS="${RUN_ID}cubic"
bh_register "$OURS" cubic || bail_out "cannot register cubic"
bh_register "${RUN_ID}reno" reno || bail_out "cannot register bpf_reno"
grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control ||
	bail_out "this kernel has no built-in cubic to compare with"

bh_on_link() { bh_big_buffers; }
# run CA TAG SECONDS AT BLACKOUT PATH...: one flow, the data direction down
# for BLACKOUT (long enough to catch a packet of a small window's bursts) AT
# s after its first packet (linkem's "+": however late the machine starts
# the flow); bpf_cubic's events in TAG.ev
run() {
	local ca=$1 tag=$2 secs=$3 at=$4 off=$5
	shift 5
	bh_run "$ca" "$tag" "$secs" "$@" --queue $QUEUE --up-event "+${at}s:down:$off" || return 1
	diag "$tag: linkem dropped $(tb_stat "c$tag" .up.drops.linkdown) in the blackout, $(tb_stat "c$tag" .up.drops.queue) at the queue"
	[ "$ca" = "$OURS" ] || return 0
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$OURS" 0.3 >"$TB_DIR/$tag.ev"
}

# loss TAG AT BETA FC: of the sender's rows of TAG's trace, the reductions
# (ssthresh falling to BETA times the cwnd before it, within 2 packets), and
# from AT s after the trace's first row (less 0.5 s) the first one whose window
# came back to 80% of the gap before the next reduction (else the last one),
# with the curve that should follow it, from the trace alone:
#   w: cwnd before it; ss: ssthresh after it; origin: W_max by the module's
#   rule (fast convergence when FC = 1 and w is below the W_max of the
#   reduction before), else w; k: cbrt((origin - ss) / C) s; model: 0.415 k
#   s, when W(t) has closed 80% of the gap (or, where the emulated Reno
#   window at 0.53 per RTT gets there first, its time: region=reno);
#   t80: s from the reduction until cwnd, having been below ss + 80% of the
#   gap, is back there ("-" if never before the next reduction or the end,
#   seen s after it); rtt: the trace's smallest srtt, s (linkem's real delay)
# Prints "none" when there is no such reduction.  tcp_probe's ssthresh is
# tcp_current_ssthresh() (it creeps up at 3/4 cwnd outside recovery), which
# never falls, so only reductions match.
loss() {
	awk -F, -v at="$2" -v me="$CLIENT_IP" -v b="$3" -v fc="$4" -v c="$C" '
	NR == 1 || $2 != me { next }
	t_from == "" { t_from = $1 + at - 0.5 }
	{ t = $1; cw = $6; ss = $7; rtt = $8 / 1e6 }
	rtt > 0 && (rmin == "" || rtt < rmin) { rmin = rtt }
	last_ss != "" && ss < last_ss && (ss - int(last_cw * b)) ^ 2 <= 4 {
		o = (fc && last_cw < wm) ? int(last_cw * (1 + b) / 2) : last_cw
		wm = o
		if (t >= t_from && last_ss < 2147483647 && !done) {
			n++; te[n] = t; w[n] = last_cw; sn[n] = ss; org[n] = o
			goal[n] = ss + 0.8 * (o - ss); t80[n] = "-"; below = 0
		}
	}
	n && !done && cw < goal[n] { below = 1 }
	n && !done && below && t > te[n] && cw >= goal[n] { t80[n] = sprintf("%.2f", t - te[n]); done = 1 }
	{ last_ss = ss; last_cw = cw; end = t }
	END {
		if (!n) { print "none"; exit }
		gap = org[n] - sn[n]
		k = (gap > 0 ? gap / c : 0) ^ (1 / 3)
		reno = 0.8 * gap * rmin / 0.5294
		region = 0.415 * k <= reno ? "cubic" : "reno"
		printf "w=%d ss=%d md=%.3f origin=%d k=%.2f model=%.2f region=%s t80=%s seen=%.2f rtt=%.4f nth=%d\n",
		       w[n], sn[n], sn[n] / w[n], org[n], k, (region == "cubic" ? 0.415 * k : reno), region,
		       t80[n], end - te[n], rmin, n
	}' "$TB_DIR/$1.csv"
}

# records TAG AT W: bpf_cubic's own view of its reduction at cwnd W from AT s
# on: that reduction record's W_max (v1) and the next epoch record's K (v0,
# ms) and origin (v1), as "wmax k_s origin"; nothing without them.
records() {
	awk -F, -v me="$CLIENT_IP:" -v w="$3" -v from="$(awk -F, -v me="$CLIENT_IP" -v s="$2" \
		'NR > 1 && $2 == me { print $1 + s - 0.5; exit }' "$TB_DIR/$1.csv")" '
	NR == 1 || index($2, me) != 1 || $1 < from { next }
	$4 == 1 && $8 == w && !red { red = 1; wmax = $9 }
	$4 == 2 && red && !ep { ep = 1; k = $8 / 1000; origin = $9 }
	END { if (ep) printf "%d %.3f %d\n", wmax, k, origin }' "$TB_DIR/$1.ev"
}

run "$OURS" long "$LONG_S" "$LONG_AT" "$LONG_OFF" "${LONG[@]}" || bail_out "bpf_cubic flow (long path) failed"
run cubic klong "$LONG_S" "$LONG_AT" "$LONG_OFF" "${LONG[@]}" || bail_out "cubic flow (long path) failed"
run "$OURS" short "$SHORT_S" "$SHORT_AT" "$SHORT_OFF" "${SHORT[@]}" || bail_out "bpf_cubic flow (short path) failed"
run cubic kshort "$SHORT_S" "$SHORT_AT" "$SHORT_OFF" "${SHORT[@]}" || bail_out "cubic flow (short path) failed"
run "${RUN_ID}reno" reno "$LONG_S" "$LONG_AT" "$LONG_OFF" "${LONG[@]}" || bail_out "bpf_reno flow failed"

declare -A R
for tag in long klong short kshort; do
	at=$LONG_AT; [ "${tag#k}" = short ] && at=$SHORT_AT
	R[$tag]=$(loss "$tag" "$at" 0.7002 1)
	diag "$tag: ${R[$tag]} (linkem late p99 $(tb_late_us "c$tag") us)"
done
R[reno]=$(loss reno "$LONG_AT" 0.5 0)
diag "reno: ${R[reno]} (linkem late p99 $(tb_late_us creno) us)"

# slack TAG: what a time measured on that link may be off by: two of its
# measured RTTs (the recovery, the ACK clock's granularity) and linkem's own
# lateness (p99, both ways) on it
slack() { awk -v r="$(kv rtt "${R[$1]}")" -v l="$(tb_late_us "c$1")" 'BEGIN { printf "%.3f\n", 2 * r + l / 1e6 }'; }
t80() { local t; t=$(kv t80 "${R[$1]}"); [ "$t" = - ] && t=$(kv seen "${R[$1]}"); echo "${t:-0}"; }
near() { awk -v a="$1" -v b="$2" -v s="$3" -v f="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= s + f * b) ? 1 : 0 }'; }

# hit TAG: packets linkem dropped in the blackout on that link
hit() { tb_stat "c$1" .up.drops.linkdown; }
# unjudged TAG: for the kernel's cubic and bpf_reno, the controls, why their
# loss cannot be judged: none found and linkem dropped nothing of their flow
# (the machine held it off the link all through the blackout; bh_judged);
# nothing otherwise
unjudged() { bh_judged "${R[$1]}" "$(hit "$1")" || echo "$BH_UNJUDGED"; }

for tag in long klong; do
	who=bpf_cubic why=""; [ "$tag" = klong ] && who=cubic why=$(unjudged klong)
	md=$(kv md "${R[$tag]}")
	cmp_or_skip "$why" "$(awk -v m="${md:-0}" 'BEGIN { d = m - 0.7; print d < 0 ? -d : d }')" '<' 0.03 \
		"$who, long path: a loss in congestion avoidance, ssthresh/cwnd = beta = 717/1024 ($md)"
done

# RTT-independence: the same function of time on paths 4x apart in RTT,
# for ours and the kernel's; the bound is 25% of the model plus the slack
for tag in long short klong kshort; do
	who=bpf_cubic; [ "${tag:0:1}" = k ] && who=cubic
	path=long; [ "${tag#k}" = short ] && path=short
	r=${R[$tag]} why=""
	[ "$who" = cubic ] && why=$(unjudged "$tag")
	[ -z "$why" ] || { skip_unjudged "$who, $path path: the gap closed as W(t) says" "$why"; continue; }
	[[ $(kv t80 "$r") =~ ^[0-9.]+$ ]] && [ "$(near "$(kv t80 "$r")" "$(kv model "$r")" "$(slack "$tag")" 0.25)" = 1 ]
	ok $? "$who, $path path: 80% of the gap to $(kv origin "$r") closed in $(kv t80 "$r") s, W(t) says $(kv model "$r") s (K $(kv k "$r") s, $(kv region "$r") region; within 25% + $(slack "$tag") s)"
done

# its own records of that loss: the W_max and K the trace implies
m=$(records long "$LONG_AT" "$(kv w "${R[long]}")")
diag "bpf_cubic, long path, its records: W_max ${m%% *}, K and origin ${m#* }"
[ -n "$m" ] && awk -v m="$m" -v r="${R[long]}" 'BEGIN {
	split(m, a, " "); n = split(r, b, " "); for (i = 1; i <= n; i++) { split(b[i], kv, "="); v[kv[1]] = kv[2] }
	d = a[3] - v["origin"]; if (d < 0) d = -d
	e = a[2] - v["k"]; if (e < 0) e = -e
	exit !(d <= 2 && e <= 0.05 * v["k"] + 0.02) }'
ok $? "bpf_cubic's records: origin ${m##* } and K $(echo "$m" | awk '{ print $2 }') s, the trace's $(kv origin "${R[long]}") and $(kv k "${R[long]}") s (2 packets, 5%)"

# beside the kernel's cubic on the long path: the same time, as a share of
# what W(t) says for each (their windows at the loss differ)
share() { awk -v t="$(kv t80 "${R[$1]}")" -v m="$(kv model "${R[$1]}")" 'BEGIN { if (t ~ /^[0-9.]+$/ && m > 0) printf "%.2f\n", t / m }'; }
so=$(share long) sk=$(share klong) why=$(unjudged klong)
[ -n "$why" ] && skip_unjudged "bpf_cubic takes the kernel's cubic's share of W(t)'s time on the long path" "$why"
[ -n "$why" ] || { [ -n "$so" ] && [ -n "$sk" ] && awk -v a="$so" -v b="$sk" -v s="$(slack long)" -v s2="$(slack klong)" \
	-v m="$(kv model "${R[long]}")" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.3 + (s + s2) / m) }'
ok $? "bpf_cubic takes the kernel's cubic's share of W(t)'s time on the long path ($so vs $sk, within 0.3 + the slack)"; }

# against bpf_reno on the long path: 0.8 of w/2 segments at one per RTT
why=$(unjudged reno)
rt=$(t80 reno) censored=""; [ "$(kv t80 "${R[reno]}")" = - ] && censored=" and still not there"
cmp_or_skip "$why" "$(awk -v b="$(t80 long)" -v r="$rt" 'BEGIN { print r / (b > 0.1 ? b : 0.1) }')" '>=' 1.8 \
	"bpf_cubic closes 80% of its gap at least 1.8x sooner than bpf_reno on the long path ($(t80 long) s vs ${rt} s$censored)"
diag "bpf_reno would need ~$(awk -v w="$(kv w "${R[reno]}")" 'BEGIN { printf "%.0f", 0.4 * w * 0.2 }') s at one segment per 200 ms RTT"
done_testing
