/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Vegas's per-RTT delay state and the hooks that keep it, shared by
 * bpf/vegas.bpf.c and bpf/yeah.bpf.c as net/ipv4/tcp_vegas.h shares them
 * between tcp_vegas.c and tcp_yeah.c: a state that embeds struct vegas_ca
 * first can call these on its socket.
 */
#ifndef TCPCA_VEGAS_BPF_H
#define TCPCA_VEGAS_BPF_H

#include "tcpca.bpf.h"
#include "vegas.h"

/* The module's struct vegas, plus one bit for Vegas's ss_every_other. */
struct vegas_ca {
	u32 beg_snd_nxt;	/* sequence number: the RTT ends when it is acked */
	u32 base_rtt;		/* smallest RTT ever seen (+1), us; VEGAS_RTT_NONE = none */
	u32 min_rtt;		/* smallest RTT seen this RTT (+1), us; VEGAS_RTT_NONE = none */
	u32 cnt_rtt;		/* RTT samples seen this RTT */
	u32 diff;		/* last Diff computed, packets (for the iterator) */
	u8 doing_vegas_now;	/* 1 in TCP_CA_Open; 0 = plain Reno (recovery, loss) */
	u8 ss_hold;		/* ss_every_other: 1 = this RTT keeps cwnd (measures) */
};

/*
 * Vegas restarts on a new connection, after fast recovery or an RTO, and when
 * a sender restarts after idle: the first RTT then uses stale information, so
 * no decision is made before a full RTT of fresh samples.
 */
static __always_inline void vegas_enable(struct sock *sk)
{
	struct vegas_ca *ca = inet_csk_ca(sk);

	ca->doing_vegas_now = 1;
	ca->beg_snd_nxt = tcp_sk(sk)->snd_nxt;
	ca->cnt_rtt = 0;
	ca->min_rtt = VEGAS_RTT_NONE;
	ca->ss_hold = 0;
}

/* tcp_vegas_init(): BaseRTT is learnt again. */
static __always_inline void vegas_reset(struct sock *sk)
{
	struct vegas_ca *ca = inet_csk_ca(sk);

	ca->base_rtt = VEGAS_RTT_NONE;
	ca->diff = 0;
	vegas_enable(sk);
}

/* tcp_vegas_pkts_acked(): two minimum filters, over all time (BaseRTT) and over this RTT. */
static __always_inline void vegas_rtt_sample(struct sock *sk, const struct ack_sample *sample)
{
	struct vegas_ca *ca = inet_csk_ca(sk);
	u32 vrtt;

	if (sample->rtt_us < 0)
		return;
	vrtt = (u32)sample->rtt_us + 1;		/* never 0 */
	if (vrtt < ca->base_rtt)
		ca->base_rtt = vrtt;
	if (vrtt < ca->min_rtt)
		ca->min_rtt = vrtt;
	ca->cnt_rtt++;
}

/* tcp_vegas_state(): Vegas only in Open; in CWR, recovery and loss the stack's Reno rules. */
static __always_inline void vegas_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Open)
		vegas_enable(sk);
	else
		((struct vegas_ca *)inet_csk_ca(sk))->doing_vegas_now = 0;
}

/* tcp_vegas_cwnd_event(): after idle the old BaseRTT and window say nothing. */
static __always_inline void vegas_restart(struct sock *sk, enum tcp_ca_event event)
{
	if (event == CA_EVENT_CWND_RESTART || event == CA_EVENT_TX_START)
		vegas_reset(sk);
}

#endif /* TCPCA_VEGAS_BPF_H */
