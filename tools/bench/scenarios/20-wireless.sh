# Lossy wireless: what TCP Westwood+ (Mascolo et al. 2001, Grieco &
# Mascolo 2004) and Veno (Fu & Liew 2003) exist for.  10 Mbit/s, RTT 50 ms, buffer = 1 BDP = 42
# packets, i.i.d. loss of data packets 0.1, 1 and 3 %; 15 s flows.
SC_NAME=wireless
SC_TITLE="Lossy wireless (Westwood+, Veno)"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=10
SC_BASE_RTT_MS=50
SC_SECONDS=15
SC_QUICK_SECONDS=10
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=5			# at most 5 links at once: linkem stays accurate (docs/benchmarks.md)
SC_LINK="--rate 10mbit --delay 25ms --queue 42 --spin 0"
SC_VARIANTS=(
	"loss0.1|--up-loss 0.1%"
	"loss1|--up-loss 1%"
	"loss3|--up-loss 3%"
)
SC_QUICK_VARIANTS="loss1"
SC_METRICS="goodput_mbps util rtt_p95_ms retrans"
