# Long fat pipe: what BIC (Xu, Harfoush & Rhee, 2004), CUBIC (RFC 9438), HighSpeed TCP
# (RFC 3649) and the later high-speed algorithms (Scalable, H-TCP,
# Illinois, YeAH) exist for.  As fast as linkem holds accurately on this 2-core
# VM while others work (100 Mbit/s: see docs/benchmarks.md), RTT 100 ms,
# buffer = 1 BDP = 833 packets, loss of data packets 1e-5.  At 100 Mbit/s
# a 20 s flow sends ~170k packets, so 1e-5 gives each flow ~1.7 random
# losses, often none after slow start: to measure the recovery of every
# algorithm, linkem also drops everything for 3 ms (~25 packets, one
# congestion episode) at the same moment in every run, well after the
# start-up (8 s; quick: 5 s).  Recovery counts the losses from
# 1.5 s before that moment on (SC_STEADY_S; the flow starts ~0.5 s after
# the link): the start-up is left out.
# Cells run one at a time (the link's pace needs a core); the order of the
# algorithms rotates between repetitions.
SC_NAME=longfat
SC_TITLE="Long fat pipe (BIC, CUBIC, HighSpeed, Scalable, H-TCP, Illinois, YeAH)"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=${BENCH_LFP_MBIT:-100}
SC_BASE_RTT_MS=100
SC_SECONDS=20
SC_PARALLEL=0
SC_QUICK_SECONDS=10
SC_QUICK_ALGS="bic bpf_cubic highspeed scalable htcp bpf_reno reno cubic"
kick=8
[ "${BENCH_QUICK:-0}" = 1 ] && kick=5
SC_STEADY_S=$((kick - 2)).5
SC_LINK="--rate ${SC_RATE_MBIT}mbit --delay 50ms --queue $((SC_RATE_MBIT * 100000 / 8 / 1500)) --up-event ${kick}000ms:loss:1 --up-event ${kick}003ms:loss:0.00001"
SC_VARIANTS=(
	"loss1e-5|--up-loss 0.00001"
)
SC_METRICS="goodput_mbps util recovery_s loss_events max_cwnd rtt_p95_ms retrans"
