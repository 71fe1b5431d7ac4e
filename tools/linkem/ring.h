/* SPDX-License-Identifier: GPL-2.0 */
/* FIFO rings of slot indices; sized a power of two above the pool. */
#ifndef LINKEM_RING_H
#define LINKEM_RING_H

#include <stdlib.h>
#include "linkem.h"

static inline int ring_init(struct ring *r, u32 min_size)
{
	u32 size = 1;

	while (size < min_size + 1)
		size <<= 1;
	r->v = calloc(size, sizeof(*r->v));
	r->mask = size - 1;
	r->head = r->tail = 0;
	return r->v ? 0 : -1;
}

static inline u32 ring_len(const struct ring *r)
{
	return r->tail - r->head;
}

static inline bool ring_empty(const struct ring *r)
{
	return r->tail == r->head;
}

static inline u32 ring_peek(const struct ring *r)
{
	return r->v[r->head & r->mask];
}

static inline u32 ring_at(const struct ring *r, u32 pos)
{
	return r->v[pos & r->mask];
}

static inline u32 ring_pop(struct ring *r)
{
	return r->v[r->head++ & r->mask];
}

static inline void ring_push(struct ring *r, u32 idx)
{
	r->v[r->tail++ & r->mask] = idx;
}

#endif
