// SPDX-License-Identifier: GPL-2.0
/*
 * myreno: Reno (RFC 5681) with a tunable decrease, the template for an
 * algorithm of one's own (writing-an-algorithm.md in tcpca-dev's docs).
 * tcpca-load finds what it shows by the helpers: TCPCA_PARAMS (--show,
 * --set), TCPCA_COUNT (counters), tcpca_event (--events), TCPCA_SOCKETS.
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"

char _license[] SEC("license") = "GPL";

/* One row per tunable: name, default, min, max, unit, what it does. */
#define MYRENO_PARAMS(P) \
	P(beta, 512, 1, 1023, "1/1024", "share of cwnd kept at a loss (512: Reno's half)")

struct myreno_params { MYRENO_PARAMS(TCPCA_PARAM_FIELD) };
TCPCA_PARAMS(myreno_params, MYRENO_PARAMS);

/* Per socket, in its icsk_ca_priv. */
struct myreno_ca {
	u32 round_end;	/* snd_nxt at the round trip's start: it ends when that is acked */
	u32 rounds;	/* round trips so far */
};
TCPCA_STATE_FITS(struct myreno_ca);

/* --events kinds: ROUND v0 = rounds, v1 = beta; LOSS v0 = cwnd, v1 = ssthresh, v2 = beta */
enum { MYRENO_EV_ROUND = 1, MYRENO_EV_LOSS = 2 };

void TCPCA_OPS(myreno_init, struct sock *sk)
{
	struct myreno_ca *ca = inet_csk_ca(sk);

	ca->round_end = tcp_sk(sk)->snd_nxt;	/* the rest starts zeroed */
}

/* Every ACK that advances snd_una: Reno's growth, the kernel's own. */
void TCPCA_OPS(myreno_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct myreno_ca *ca = inet_csk_ca(sk);

	if (after(ack, ca->round_end)) {	/* an event per round trip, never per ACK */
		ca->round_end = tcp_sk(sk)->snd_nxt;
		ca->rounds++;
		tcpca_event(sk, MYRENO_EV_ROUND, ca->rounds, params.beta, 0, 0);
	}
	tcpca_reno_cong_avoid(sk, ack, acked);
}

/* A loss: keep beta/1024 of the window, never less than two segments. */
u32 TCPCA_OPS(myreno_ssthresh, struct sock *sk)
{
	u32 cwnd = tcp_sk(sk)->snd_cwnd, beta = params.beta;
	u32 ssthresh = max((u32)(((u64)cwnd * beta) >> 10), 2U);

	TCPCA_COUNT(losses);
	tcpca_event(sk, MYRENO_EV_LOSS, cwnd, ssthresh, beta, 0);
	return ssthresh;
}

void TCPCA_OPS(myreno_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);			/* counts state changes, RTOs */
}

u32 TCPCA_OPS(myreno_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);		/* a spurious loss undone */
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops myreno = {
	.init		= (void *)myreno_init,
	.cong_avoid	= (void *)myreno_cong_avoid,
	.ssthresh	= (void *)myreno_ssthresh,
	.set_state	= (void *)myreno_set_state,
	.undo_cwnd	= (void *)myreno_undo_cwnd,
	.name		= "myreno",
};

/* --show's sockets: after the fields every socket has, its own */
static __always_inline void myreno_print(struct seq_file *seq, const struct myreno_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " rounds=%u", ca->rounds);
}

TCPCA_SOCKETS(struct myreno_ca, myreno_print);
