# Hook cost: what each algorithm's programs cost per ACK, seen by the
# kernel's own accounting (BPF statistics: run_time_ns and run_cnt of every
# program, on for this scenario only), over an unshaped veth pair, one flow
# at a time.  Beside them, measured in the same run, the baselines of
# tools/bench/bpf/floor.bpf.c: "floor", a Reno whose hooks only call the
# kernel's kfuncs; "empty", the same with an empty hook before cong_avoid
# (entering a hook plus the accounting); "tuned", the floor's cong_avoid
# also reading a tunable, as the per-ACK hooks of bpf/ with tunables do.
# Absolute figures move with the machine's load between runs; the ratios to
# the floor are what compares (docs/benchmarks.md).
SC_NAME=hookcost
SC_TITLE="Hook cost (kernel BPF statistics, per ACK)"
SC_KIND=veth
SC_EVERY_ALG=1
SC_BASELINES="floor empty tuned"
SC_RATE_MBIT=none
SC_BASE_RTT_MS=0
SC_SECONDS=3
SC_QUICK_SECONDS=2
SC_PARALLEL=0
SC_LINK=""
SC_VARIANTS=(
	"veth|"
)
SC_REPS=3
SC_QUICK_REPS=1
SC_BPF_STATS=1
SC_METRICS="goodput_mbps bpf_ns_per_ack"
