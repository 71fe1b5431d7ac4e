# BPF cost: each algorithm whose line in bpf/algorithms.tab names bpfcost,
# a BPF copy of one of the kernel's (SC_PAIRED: scripts/algorithms' copy_of
# says which), against that built-in one, over an unshaped veth pair at
# full speed, in pairs run back to back with the order alternating; enough
# pairs that the paired ratios get a confidence interval
# (tools/bench/lib/paired.py).
# CPU per GB from the cell's own cgroup (both iperf3 processes and the
# softirq work done in their context: tools/bench/lib/accounting.sh), and,
# for comparison, from /proc/stat (the whole machine, so other work on it
# counts too) and from iperf3's getrusage.
SC_NAME=bpfcost
SC_TITLE="BPF cost (each BPF copy vs the kernel's own)"
SC_KIND=veth
SC_PAIRED=1
SC_RATE_MBIT=none
SC_BASE_RTT_MS=0
SC_SECONDS=3
SC_QUICK_SECONDS=2
SC_PARALLEL=0
SC_LINK=""
SC_VARIANTS=(
	"veth|"
)
SC_REPS=16
SC_QUICK_REPS=4
SC_METRICS="goodput_mbps cg_cpu_s_per_gb sys_cpu_s_per_gb proc_cpu_s_per_gb"
