# Shallow marking: what DCTCP exists for (Alizadeh et al. 2010; RFC 8257).
# 50 Mbit/s, RTT 10 ms (BDP 42 packets), a 200-packet buffer that marks
# ECT packets CE once 20 are queued (DCTCP's step marking, K = 20), as
# tests/behaviour-dctcp.t.  The hosts negotiate ECN, as a data centre's do
# (SC_ECN_HOSTS: tcp_ecn=1 at both ends, and the receiver runs the cell's
# algorithm): DCTCP answers the share of marks, Reno and CUBIC each mark as
# RFC 3168 says (as a loss), BBR does not answer marks.
SC_NAME=datacentre
SC_TITLE="Shallow marking (DCTCP)"
SC_KIND=single
SC_BASELINES="bpf_reno reno cubic bbr"
SC_RATE_MBIT=50
SC_BASE_RTT_MS=10
SC_SECONDS=15
SC_QUICK_SECONDS=8
SC_PARALLEL=1			# every cell on its own identical link, at the same time
SC_JOBS=3			# 50 Mbit/s links: three at once keep linkem on time
SC_ECN_HOSTS=1
SC_LINK="--rate 50mbit --delay 5ms --queue 200 --ecn-threshold 20 --spin 0"
SC_VARIANTS=(
	"k20|"
)
SC_METRICS="goodput_mbps util rtt_p50_ms rtt_p95_ms retrans"
