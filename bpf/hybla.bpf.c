// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Hybla as a BPF program.
 *
 *	C. Caini, R. Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous
 *	networks", International Journal of Satellite Communications and
 *	Networking 22(5), 547-566, September 2004.
 *
 * A long-RTT connection (a GEO satellite hop: 600 ms) grows its window once
 * per RTT like any other, so it takes rho = RTT / rtt0 times longer than a
 * reference connection to reach the same rate.  Hybla scales the growth so
 * that the window, measured in time rather than in RTTs, evolves as at rtt0:
 * slow start adds 2^rho - 1 segments per ACK, congestion avoidance rho^2 / W.
 * rho comes from the smallest smoothed RTT seen; with RTT <= rtt0 it is 1 and
 * Hybla is Reno.  The arithmetic (fixed point, the 2^(k/8) table) is in
 * include/hybla.h; this file only wires it to the socket.
 *
 * This follows today's net/ipv4/tcp_hybla.c (microseconds since 2014, the
 * 2^16 cap on 2^int(rho), the "cwnd not grown for a window" guard), which
 * grew from the 2005 patch.  Where it departs, and why:
 *
 *  - snd_cwnd_clamp: the module sets it to 65535 at init; a BPF CA cannot
 *    store to it, but bpf_setsockopt(TCP_BPF_SNDCWND_CLAMP) sets it (every
 *    kernel this loads on: 5.15+), and init does that, putting back the
 *    ssthresh that the option also overwrites (tcpca_set_cwnd_clamp).  So
 *    the stack's own uses of the clamp (tcp_slow_start() in the Reno
 *    fallback, the restart window after idle) see 65535 as with the module.
 *    One difference, chosen: a socket whose clamp is already lower (a
 *    route's "cwnd lock N", or a sock_ops program's TCP_BPF_SNDCWND_CLAMP)
 *    keeps it; the module raises it to 65535, overriding an administrator's
 *    limit.  min(cwnd, 65535, tp->snd_cwnd_clamp) after our own updates
 *    stays as the fallback should the setsockopt fail (clamp_set_failed).
 *  - The module moves carried fractions into cwnd with a while loop; both
 *    addends are below 128, so a shift and a mask do it (hybla_window_grow).
 *  - abc=1 (default 0, the module's counting): the per-ACK rules are
 *    applied once per segment acked (RFC 3465), as the stack's own Reno does
 *    since 2.6.x; the module applies them once per ACK, so with delayed or
 *    stretch (GRO/TSO) ACKs it grows slower than Reno at rho = 1 although
 *    its authors say it then is Reno.
 *  - keep_iw=1 (default 0, the module's): the first window is max(rho, the
 *    stack's IW); the module sets it to rho, which was no smaller than the
 *    IW of 2005 (2-4) but is below today's IW10 whenever RTT < 10 * rtt0.
 *  - rho is recomputed only when srtt_us drops below the smallest seen, as in
 *    the module, but also when there was no RTT sample at init (srtt_us = 0:
 *    a TCP Fast Open server, or a handshake retransmitted without
 *    timestamps) and when rtt0 was changed with --set.  The module then
 *    keeps minrtt_us = 0, so no later srtt is ever lower and rho stays 1 for
 *    the life of the socket: Hybla silently off on such a connection, which
 *    we take for an accident of the code rather than behaviour to copy.
 *  - rho << 3 is capped at 46340 so that rho^2 << 7 fits in 32 bits (the
 *    module overflows there; it takes a 145 s RTT at rtt0 = 25 ms).
 *  - Like the module, CA rounds rho^2/W down to 1/128 segment per ACK: at
 *    rho = 1 and 64 < W <= 128 it grows W/128 segments per RTT, not 1.
 *    Kept for fidelity; above W = 128 rho^2 the guard makes it Reno again.
 *  - get_info is refused for BPF: the sockets iterator prints the state.
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "hybla.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(hybla_params, HYBLA_PARAMS);

/* Per-socket state (struct hybla in the module; vmlinux.h may have that name). */
struct hybla_ca {
	u8	hybla_en;	/* 1 in TCP_CA_Open: Hybla's rules; else Reno's */
	u32	snd_cwnd_cents;	/* fraction of a segment not yet added, << 7, < 128 */
	u32	rho;		/* integer part of rho, >= 1 */
	u32	rho2;		/* integer part of rho^2 */
	u32	rho_3ls;	/* rho << 3 */
	u32	rho2_7ls;	/* rho^2 << 7 */
	u32	minrtt_us;	/* smallest tp->srtt_us seen: microseconds << 3 */
	u32	rtt0_ms;	/* the rtt0 rho was computed with, ms */
};
TCPCA_STATE_FITS(struct hybla_ca);

/* rho and its derived forms from the smallest smoothed RTT (srtt_us, << 3). */
static __always_inline void hybla_recalc_param(struct hybla_ca *ca, u32 srtt_us)
{
	u32 rtt0 = params.rtt0;

	ca->rtt0_ms = rtt0;
	ca->rho_3ls = hybla_rho_3ls(srtt_us, rtt0);	/* treats rtt0 = 0 as 1 */
	ca->rho = ca->rho_3ls >> HYBLA_RHO_SHIFT;
	ca->rho2_7ls = hybla_rho2_7ls(ca->rho_3ls);
	ca->rho2 = ca->rho2_7ls >> HYBLA_SHIFT;
}

/* The module's snd_cwnd_clamp = 65535, or the socket's if lower. */
static __always_inline u32 hybla_clamp(const struct tcp_sock *tp)
{
	return min(tp->snd_cwnd_clamp, HYBLA_CWND_CLAMP);
}

static __always_inline void hybla_apply_clamp(struct tcp_sock *tp)
{
	tp->snd_cwnd = tcpca_cap_cwnd(tp->snd_cwnd, hybla_clamp(tp));
}

/*
 * The stack has already set the initial window (IW10) and, for an active
 * open, srtt_us from the SYN/SYN-ACK exchange.
 */
void TCPCA_OPS(hybla_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hybla_ca *ca = inet_csk_ca(sk);
	u32 cwnd;

	TCPCA_COUNT(init);
	ca->snd_cwnd_cents = 0;
	ca->hybla_en = 1;
	/* the module's snd_cwnd_clamp = 65535, never raising a lower clamp */
	tcpca_set_cwnd_clamp(sk, hybla_clamp(tp));
	hybla_recalc_param(ca, tp->srtt_us);
	ca->minrtt_us = tp->srtt_us;

	cwnd = hybla_init_cwnd(ca->rho_3ls, tp->snd_cwnd, params.keep_iw, hybla_clamp(tp));
	if (cwnd < ca->rho)
		TCPCA_COUNT(cwnd_clamps);
	tp->snd_cwnd = cwnd;
}

/* Called on every ACK that advances snd_una, with the segments it acked. */
void TCPCA_OPS(hybla_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hybla_ca *ca = inet_csk_ca(sk);
	struct hybla_window w;

	TCPCA_COUNT(cong_avoid);

	/* A lower srtt (or the first one) means a new rho; so does a new rtt0. */
	if (tp->srtt_us && (!ca->minrtt_us || tp->srtt_us < ca->minrtt_us)) {
		hybla_recalc_param(ca, tp->srtt_us);
		ca->minrtt_us = tp->srtt_us;
	} else if (ca->rtt0_ms != params.rtt0) {
		hybla_recalc_param(ca, ca->minrtt_us);
	}

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (!ca->hybla_en) {
		tcpca_reno_cong_avoid(sk, ack, acked);
		hybla_apply_clamp(tp);
		return;
	}

	w.cwnd = tp->snd_cwnd;
	w.cnt = tp->snd_cwnd_cnt;
	w.cents = ca->snd_cwnd_cents;
	if (hybla_window_grow(&w, tp->snd_ssthresh, ca->rho_3ls, ca->rho2_7ls,
			      params.abc ? acked : 1, hybla_clamp(tp)))
		TCPCA_COUNT(cwnd_clamps);
	tp->snd_cwnd = w.cwnd;
	tp->snd_cwnd_cnt = w.cnt;
	ca->snd_cwnd_cents = w.cents;
}

/* Multiplicative decrease as Reno: half the window, never below two segments. */
u32 TCPCA_OPS(hybla_ssthresh, struct sock *sk)
{
	return tcpca_reno_ssthresh(sk);
}

/* Hybla's rules hold only in Open; recovery, loss and disorder grow as Reno. */
void TCPCA_OPS(hybla_set_state, struct sock *sk, u8 new_state)
{
	struct hybla_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	ca->hybla_en = new_state == TCP_CA_Open;
}

/* As Reno: a spurious loss gives back the window held before it. */
u32 TCPCA_OPS(hybla_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undo_cwnd);
	return min(max(tp->snd_cwnd, tp->prior_cwnd), hybla_clamp(tp));
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops hybla = {
	.init		= (void *)hybla_init,
	.cong_avoid	= (void *)hybla_cong_avoid,
	.ssthresh	= (void *)hybla_ssthresh,
	.set_state	= (void *)hybla_set_state,
	.undo_cwnd	= (void *)hybla_undo_cwnd,
	.name		= "hybla",
};

static __always_inline void hybla_print_state(struct seq_file *seq, const struct hybla_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " hybla_en=%u rho=%u rho_3ls=%u rho2=%u rho2_7ls=%u",
		       ca->hybla_en, ca->rho, ca->rho_3ls, ca->rho2, ca->rho2_7ls);
	BPF_SEQ_PRINTF(seq, " cwnd_cents_7ls=%u min_srtt_us=%u rtt0_ms=%u",
		       ca->snd_cwnd_cents, ca->minrtt_us >> 3, ca->rtt0_ms);
}

TCPCA_SOCKETS(struct hybla_ca, hybla_print_state);
