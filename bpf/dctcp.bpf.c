// SPDX-License-Identifier: GPL-2.0
/*
 * DCTCP: on an ECN echo, cuts cwnd by alpha / 2, alpha the share of its
 * packets marked CE, holding a short queue at full rate.  Needs ECN.
 *
 * M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010; RFC 8257.
 * Follows net/ipv4/tcp_dctcp.c and tcp_dctcp.h (6.1).
 * Arithmetic: include/dctcp.h.
 *
 * Departures from the module:
 *  - Without ECN it switches to "reno", not dctcp-reno: BPF cannot set ops.
 *  - Before 5.15 (no bpf_setsockopt) it runs dctcp-reno's rules itself.
 *  - The immediate ACK is bpf_tcp_send_ack(), which calls __tcp_send_ack().
 *  - The ssthresh and alpha products are 64-bit.
 *  - ECN_OK is bit 0 or bit 4 of ecn_flags: 6.18's ECN modes.
 *  - clamp_alpha_on_loss brings back the module's pre-4.20 option (off).
 *  - No get_info: the iterator and --events show the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "DCTCP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "dctcp.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(dctcp_params, DCTCP_PARAMS);

/* include/net/tcp.h and include/uapi/linux/tcp.h */
#define TCP_CONG_NEEDS_ECN	0x2
#define TCP_ECN_OK		0x1	/* 6.18: TCP_ECN_MODE_RFC3168 */
#define TCP_ECN_MODE_ACCECN	0x10	/* 6.18 only */
#define TCP_ECN_DEMAND_CWR	0x4
#define TCP_CONGESTION		13

/* The module's struct dctcp. */
struct dctcp_ca {
	u32 old_delivered;	/* tp->delivered at the start of this window, segments */
	u32 old_delivered_ce;	/* tp->delivered_ce then, segments */
	u32 prior_rcv_nxt;	/* receiver: rcv_nxt at the last CE event, sequence number */
	u32 alpha;		/* fraction of segments marked, EWMA, 1/1024 (DCTCP_MAX_ALPHA = 1) */
	u32 next_seq;		/* the window ends when snd_una reaches this sequence number */
	u32 ce_state;		/* receiver: 1 if the last data segment was CE, else 0 */
	u32 loss_cwnd;		/* cwnd at the last reduction (ECN or loss), packets; 0 = none */
	u32 reno;		/* 1: no ECN on a kernel that cannot switch the socket to
				 * reno (no bpf_setsockopt before 5.15): dctcp-reno's
				 * rules run here instead */
};
TCPCA_STATE_FITS(struct dctcp_ca);

/* Event record kinds (tcpca-load --events). */
enum {
	DCTCP_EV_ALPHA = 1,	/* once per window: v0 = alpha (1/1024), v1 = segments
				 * delivered, v2 = of them CE, v3 = shift_g */
	DCTCP_EV_FALLBACK = 2,	/* no ECN, switched to reno: v0 = ecn_flags, v1 = the
				 * setsockopt's result (0 or -errno; -EOPNOTSUPP: the
				 * kernel has none, dctcp-reno runs in this program) */
};

/* A new window starts here: remember the counters. */
static __always_inline void dctcp_reset(const struct tcp_sock *tp, struct dctcp_ca *ca)
{
	ca->next_seq = tp->snd_nxt;
	ca->old_delivered = tp->delivered;
	ca->old_delivered_ce = tp->delivered_ce;
}

void TCPCA_OPS(dctcp_init, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct dctcp_ca *ca = inet_csk_ca(sk);
	u8 state = sk->__sk_common.skc_state;
	char fallback[] = "reno";
	long err;

	if ((tp->ecn_flags & (TCP_ECN_OK | TCP_ECN_MODE_ACCECN)) ||
	    state == TCP_LISTEN || state == TCP_CLOSE) {
		ca->prior_rcv_nxt = tp->rcv_nxt;
		ca->alpha = min(params.alpha_on_init, DCTCP_MAX_ALPHA);
		ca->loss_cwnd = 0;
		ca->ce_state = 0;
		dctcp_reset(tp, ca);
		return;
	}
	/* No ECN: Reno, without ECT on the wire (see the top of this file). */
	if (!tcpca_have(TCPCA_KF_SETSOCKOPT)) {
		ca->reno = 1;
		tcpca_event(sk, DCTCP_EV_FALLBACK, tp->ecn_flags, (u32)-EOPNOTSUPP, 0, 0);
		return;
	}
	err = bpf_setsockopt(sk, SOL_TCP, TCP_CONGESTION, fallback, sizeof(fallback));
	tcpca_event(sk, DCTCP_EV_FALLBACK, tp->ecn_flags, (u32)err, 0, 0);
}

/* Once per window of data: alpha from the fraction of it that came back CE. */
void TCPCA_OPS(dctcp_update_alpha, struct sock *sk, u32 flags)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct dctcp_ca *ca = inet_csk_ca(sk);
	u32 delivered, delivered_ce, shift_g = params.shift_g;

	if (ca->reno || before(tp->snd_una, ca->next_seq))
		return;
	delivered = tp->delivered - ca->old_delivered;
	delivered_ce = tp->delivered_ce - ca->old_delivered_ce;
	ca->alpha = dctcp_alpha_next(ca->alpha, delivered, delivered_ce, shift_g);
	tcpca_event(sk, DCTCP_EV_ALPHA, ca->alpha, delivered, delivered_ce, shift_g);
	dctcp_reset(tp, ca);
}

void TCPCA_OPS(dctcp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	tcpca_reno_cong_avoid(sk, ack, acked);
}

/* The stack asks on an ECN echo (CWR) and on a loss: cwnd * (1 - alpha / 2). */
u32 TCPCA_OPS(dctcp_ssthresh, struct sock *sk)
{
	struct dctcp_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_sk(sk)->snd_cwnd;

	if (ca->reno)
		return tcpca_reno_ssthresh(sk);
	TCPCA_COUNT(losses);
	ca->loss_cwnd = cwnd;
	return dctcp_ssthresh_of(cwnd, ca->alpha);
}

/* A loss is congestion DCTCP's marks did not prevent: halve, as Reno. */
static __always_inline void dctcp_react_to_loss(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dctcp_ca *ca = inet_csk_ca(sk);

	ca->loss_cwnd = tp->snd_cwnd;
	tp->snd_ssthresh = dctcp_loss_ssthresh(tp->snd_cwnd);
}

/* Entering Recovery: the loss reaction (an RTO comes as CA_EVENT_LOSS). */
void TCPCA_OPS(dctcp_set_state, struct sock *sk, u8 new_state)
{
	u32 old_state = BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state);

	tcpca_count_state(new_state);
	if (((struct dctcp_ca *)inet_csk_ca(sk))->reno)
		return;
	if (new_state == TCP_CA_Recovery && new_state != old_state)
		dctcp_react_to_loss(sk);
	if (new_state == TCP_CA_Loss && params.clamp_alpha_on_loss)
		((struct dctcp_ca *)inet_csk_ca(sk))->alpha = DCTCP_MAX_ALPHA;
}

/* The receiver's ECE: set while the last data segment was CE (DEMAND_CWR). */
static __always_inline void dctcp_ece_ack_cwr(struct sock *sk, u32 ce_state)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (ce_state == 1)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/*
 * The receiver's two-state machine (RFC 8257 section 3.2): ECE must tell
 * exactly which segments were CE despite delayed ACKs.  When the CE state
 * of arriving data flips, a delayed ACK still pending is sent at once with
 * the old state's ECE and the old rcv_nxt (so it covers only the segments
 * of that state), and the next ACK goes out immediately with the new state.
 */
static __always_inline void dctcp_ece_ack_update(struct sock *sk, enum tcp_ca_event ev,
						 struct dctcp_ca *ca)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	u32 new_state = ev == CA_EVENT_ECN_IS_CE ? 1 : 0;

	if (ca->ce_state != new_state) {
		if (icsk->icsk_ack.pending & ICSK_ACK_TIMER) {
			dctcp_ece_ack_cwr(sk, ca->ce_state);
			bpf_tcp_send_ack(sk, ca->prior_rcv_nxt);
		}
		icsk->icsk_ack.pending |= ICSK_ACK_NOW;
	}
	ca->prior_rcv_nxt = tcp_sk(sk)->rcv_nxt;
	ca->ce_state = new_state;
	dctcp_ece_ack_cwr(sk, new_state);
}

void TCPCA_OPS(dctcp_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct dctcp_ca *ca = inet_csk_ca(sk);

	if (ca->reno)
		return;
	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
	case CA_EVENT_ECN_NO_CE:
		dctcp_ece_ack_update(sk, ev, ca);
		break;
	case CA_EVENT_LOSS:
		dctcp_react_to_loss(sk);
		break;
	default:
		break;
	}
}

/* A spurious reduction: back to the window before it. */
u32 TCPCA_OPS(dctcp_undo_cwnd, struct sock *sk)
{
	const struct dctcp_ca *ca = inet_csk_ca(sk);

	if (ca->reno)
		return tcpca_reno_undo_cwnd(sk);
	TCPCA_COUNT(undos);
	return max(tcp_sk(sk)->snd_cwnd, ca->loss_cwnd);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops dctcp = {
	.init		= (void *)dctcp_init,
	.in_ack_event	= (void *)dctcp_update_alpha,
	.cwnd_event	= (void *)dctcp_cwnd_event,
	.ssthresh	= (void *)dctcp_ssthresh,
	.cong_avoid	= (void *)dctcp_cong_avoid,
	.undo_cwnd	= (void *)dctcp_undo_cwnd,
	.set_state	= (void *)dctcp_set_state,
	.flags		= TCP_CONG_NEEDS_ECN,
	.name		= "dctcp",
};

static __always_inline void dctcp_print_state(struct seq_file *seq, const struct dctcp_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " alpha_x1024=%u ce_state=%u loss_cwnd_pkts=%u next_seq=%u reno=%u",
		       ca->alpha, ca->ce_state, ca->loss_cwnd, ca->next_seq, ca->reno);
	BPF_SEQ_PRINTF(seq, " window_start_delivered_pkts=%u window_start_delivered_ce_pkts=%u",
		       ca->old_delivered, ca->old_delivered_ce);
}

TCPCA_SOCKETS(struct dctcp_ca, dctcp_print_state);
