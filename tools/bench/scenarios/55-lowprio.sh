# Low priority: one flow of the algorithm beside one of the kernel's reno,
# both from the start, on the link of tests/behaviour-lp.t (15 Mbit/s, RTT
# 30 ms, buffer 2 BDP = 75 packets).  TCP-LP exists to take only what Reno
# leaves; as the 6.1 module computes it on today's stack it shares as Reno
# does (docs/algorithms.md), which bpf_reno and reno beside reno measure.
SC_NAME=lowprio
SC_TITLE="Low priority (LP beside Reno)"
SC_KIND=pair
SC_BASELINES="bpf_reno reno"
SC_RATE_MBIT=15
SC_BASE_RTT_MS=30
SC_SECONDS=20
SC_QUICK_SECONDS=8
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=3
SC_LINK="--rate 15mbit --delay 15ms --queue 75 --spin 0"
# name|extra link options|second flow's algorithm
SC_VARIANTS=(
	"vs-reno||reno"
)
SC_QUICK_VARIANTS="vs-reno"
SC_METRICS="share0 jain util goodput0_mbps goodput1_mbps"
