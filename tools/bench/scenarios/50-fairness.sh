# Fairness: two flows of the same algorithm with the same RTT and with
# 3x different RTTs (flow 1 on 150 ms instead of 50 ms, via linkem's
# --port-delay); and one flow of the algorithm against one of cubic.
# 10 Mbit/s, RTT 50 ms, buffer = 1 BDP (at 50 ms) = 42 packets.
SC_NAME=fairness
SC_TITLE="Fairness (all)"
SC_KIND=pair
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=10
SC_BASE_RTT_MS=50
SC_SECONDS=20
SC_QUICK_SECONDS=8
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=6
SC_LINK="--rate 10mbit --delay 25ms --queue 42 --spin 0"
# name|extra link options|second flow's algorithm (same = the same as the first)
SC_VARIANTS=(
	"same-rtt||same"
	"rtt-3x|--port-delay {P1}:75ms|same"
	"vs-cubic||cubic"
)
SC_QUICK_VARIANTS="same-rtt vs-cubic"
SC_METRICS="jain share0 util goodput0_mbps goodput1_mbps"
