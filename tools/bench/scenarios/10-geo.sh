# GEO satellite: what TCP Hybla exists for (Caini & Firrincieli, 2004).
# 10 Mbit/s, RTT 600 ms (300 ms each way), buffer = 1 BDP = 500 packets,
# loss on the data direction 0 and 0.5 %.
SC_NAME=geo
SC_TITLE="GEO satellite (Hybla)"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=10
SC_BASE_RTT_MS=600
SC_SECONDS=60
SC_QUICK_SECONDS=12
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=5			# at most 5 links at once: linkem stays accurate (docs/benchmarks.md)
SC_LINK="--rate 10mbit --delay 300ms --queue 500 --spin 0"
SC_VARIANTS=(
	"loss0|"
	"loss0.5|--up-loss 0.5%"
)
SC_METRICS="goodput_mbps util t90_s rtt_p95_ms retrans"
