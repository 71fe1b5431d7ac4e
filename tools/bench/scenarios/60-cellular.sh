# Cellular: a Mahimahi trace (default the T-Mobile LTE downlink shipped in
# tools/traces/; --trace FILE for another) on the data
# direction, one-way delay 20 ms each way, droptail 150 packets; ACKs
# unshaped.  Capacity = the trace's mean rate.
SC_NAME=cellular
SC_TITLE="Cellular trace"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_TRACE=${BENCH_TRACE:-$root/tools/traces/TMobile-LTE-short.down}
SC_RATE_MBIT=trace
SC_BASE_RTT_MS=40
SC_SECONDS=20
SC_QUICK_SECONDS=8
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=5			# at most 5 links at once: linkem stays accurate (docs/benchmarks.md)
SC_LINK="--up-trace $SC_TRACE --delay 20ms --queue 150 --spin 0"
SC_VARIANTS=(
	"$(basename "$SC_TRACE")|"
)
SC_METRICS="goodput_mbps util rtt_p50_ms rtt_p95_ms retrans"
