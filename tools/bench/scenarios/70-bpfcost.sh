# BPF cost: the same Reno as a BPF struct_ops program (bpf_reno) and as the
# kernel's built-in reno, over an unshaped veth pair at full speed, in
# pairs run back to back with the order alternating.  CPU per GB from
# /proc/stat (all CPUs, busy = everything but idle and iowait: the whole
# machine, so other work on it counts too) and from iperf3's getrusage of
# the sender process (user+system of that process only; the ACK
# processing that runs the congestion control happens mostly in softirq
# context and is charged to whichever task is on the CPU).
SC_NAME=bpfcost
SC_TITLE="BPF cost (bpf_reno vs reno)"
SC_KIND=veth
SC_ALGS="bpf_reno reno"
SC_RATE_MBIT=none
SC_BASE_RTT_MS=0
SC_SECONDS=5
SC_QUICK_SECONDS=3
SC_PARALLEL=0
SC_LINK=""
SC_VARIANTS=(
	"veth|"
)
SC_REPS=6
SC_METRICS="goodput_mbps sys_cpu_s_per_gb sender_cpu_s_per_gb proc_cpu_s_per_gb"
