// SPDX-License-Identifier: GPL-2.0
/*
 * An algorithm built outside bpf/, as a user builds one of their own, that
 * follows the tunables convention (docs/object-convention.md): Reno with its
 * multiplicative decrease a tunable, beta.  tests/loader-object.t loads it
 * as FILE.bpf.o with beta=VALUE, --set and --show it, carries beta through
 * --replace, and applies it from tcpca.conf; tests/unit/test_tunables reads
 * its table.  It observes as the embedded ones do (counters, events, the
 * sockets iterator), which the loader pins for any object that has them.
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"

char _license[] SEC("license") = "GPL";

/* P(name, default, min, max, unit, description), as include/<alg>.h has them */
#define OUTSIDE_PARAMS(P)							\
	P(beta, 512, 1, 1023, "1/1024",						\
	  "the share of cwnd kept at a loss: 512 halves it, as Reno")

struct outside_params {
	OUTSIDE_PARAMS(TCPCA_PARAM_FIELD)
};

TCPCA_PARAMS(outside_params, OUTSIDE_PARAMS);

/* Its own state: the iterator prints it (TCPCA_SOCKETS prints no state of size 0). */
struct outside_state {
	u32 cuts;	/* losses this socket has cut cwnd for */
};
TCPCA_STATE_FITS(struct outside_state);

void TCPCA_OPS(outside_init, struct sock *sk)
{
	struct outside_state *ca = inet_csk_ca(sk);

	ca->cuts = 0;
}

void TCPCA_OPS(outside_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;
	if (tcp_in_slow_start(tp)) {
		acked = tcpca_slow_start(tp, acked);
		if (!acked)
			return;
	}
	tcpca_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

/* read on every loss: --set acts on the next one */
u32 TCPCA_OPS(outside_ssthresh, struct sock *sk)
{
	u32 cwnd = tcp_sk(sk)->snd_cwnd;
	u32 kept = (u32)(((u64)cwnd * params.beta) >> 10);

	struct outside_state *ca = inet_csk_ca(sk);

	ca->cuts++;
	TCPCA_COUNT(losses);
	tcpca_event(sk, 1, cwnd, params.beta, 0, 0);
	return max(kept, 2U);
}

void TCPCA_OPS(outside_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

u32 TCPCA_OPS(outside_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undos);
	return max(tp->snd_cwnd, tp->prior_cwnd);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops outside = {
	.init		= (void *)outside_init,
	.cong_avoid	= (void *)outside_cong_avoid,
	.ssthresh	= (void *)outside_ssthresh,
	.set_state	= (void *)outside_set_state,
	.undo_cwnd	= (void *)outside_undo_cwnd,
	.name		= "tcpca_outside",
};

static __always_inline void outside_print_state(struct seq_file *seq,
						const struct outside_state *ca)
{
	BPF_SEQ_PRINTF(seq, " cuts=%u beta=%u", ca->cuts, params.beta);
}

TCPCA_SOCKETS(struct outside_state, outside_print_state);
