# Deep buffer: what TCP Vegas exists for (Brakmo & Peterson, 1995), and CDG
# (Hayes & Armitage, 2011) and TCP-NV (Brakmo, 2016) after it.
# 10 Mbit/s, RTT 20 ms, buffer = 10 BDP = 167 packets (200 ms of queue).
SC_NAME=deepbuffer
SC_TITLE="Deep buffer (Vegas, YeAH, CDG, NV)"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=10
SC_BASE_RTT_MS=20
SC_SECONDS=20
SC_QUICK_SECONDS=10
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=5			# at most 5 links at once: linkem stays accurate (docs/benchmarks.md)
SC_LINK="--rate 10mbit --delay 10ms --queue 167 --spin 0"
SC_VARIANTS=(
	"10xBDP|"
)
SC_METRICS="goodput_mbps util rtt_p50_ms rtt_p95_ms retrans"
