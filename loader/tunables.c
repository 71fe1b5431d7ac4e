// SPDX-License-Identifier: GPL-2.0
/*
 * An object's own description of its tunables (include/tcpca_params.h,
 * docs/object-convention.md), turned into the struct tcpca_alg the rest of
 * the loader knows from the embedded algorithms.  Everything in it is
 * checked here, since an object from elsewhere may have been built by other
 * means than our macros: a table the loader would misread is refused whole.
 * Pure (bytes in, table out): tests/unit/test_tunables.c runs it without
 * root; tunables_map.c finds the bytes in an object or a pin.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tcpca.h"
#include "tcpca_params.h"

/* One heap block: the alg, its rows, then their strings. */
struct owned_alg {
	struct tcpca_alg alg;
	struct tcpca_param rows[TCPCA_PARAMS_MAX];
	struct tcpca_tunable raw[TCPCA_PARAMS_MAX];	/* the strings the rows point into */
	char name[];
};

bool alg_is_embedded(const struct tcpca_alg *alg)
{
	return alg && alg->elf_bytes;
}

void alg_free(const struct tcpca_alg *alg)
{
	if (alg && alg->owned)
		free((void *)alg);	/* an owned_alg, whose first member it is */
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* The row's own faults, named by the row (and its name, when it has one). */
static int check_row(const struct tcpca_tunable *t, unsigned int i, const char *what)
{
	if (!terminated(t->name, sizeof(t->name)) || !t->name[0]) {
		err("%s: tunable %u of its table has %s name", what, i,
		    t->name[0] ? "an unterminated" : "no");
		return -EPROTO;
	}
	if (!terminated(t->unit, sizeof(t->unit)) || !terminated(t->doc, sizeof(t->doc))) {
		err("%s: tunable '%s' of its table has an unterminated %s", what, t->name,
		    terminated(t->unit, sizeof(t->unit)) ? "description" : "unit");
		return -EPROTO;
	}
	if (t->min > t->def || t->def > t->max) {
		err("%s: tunable '%s' of its table has its default %u outside [%u, %u]", what,
		    t->name, t->def, t->min, t->max);
		return -EPROTO;
	}
	return 0;
}

/*
 * data/size: the table as the object holds it; params_size: the size of
 * its .data.params (each row is one __u32 there), 0 when it has none.
 * what: the object, for the messages, and the name of the table made.
 */
int tunables_parse(const void *data, size_t size, size_t params_size, const char *what,
		   struct tcpca_alg **out)
{
	const struct tcpca_tunables_head *h = data;
	const struct tcpca_tunable *t = (const struct tcpca_tunable *)(h + 1);
	struct owned_alg *a;
	unsigned int i, j;
	int e;

	*out = NULL;
	if (size < sizeof(*h) || h->magic != TCPCA_TUNABLES_MAGIC) {
		err("%s: its " TCPCA_TUNABLES_SEC " is not a table of tunables", what);
		return -EPROTO;
	}
	if (h->version != TCPCA_TUNABLES_VERSION || h->row_size != sizeof(*t)) {
		err("%s: its table of tunables is version %u with rows of %u bytes; this loader reads "
		    "version %d, rows of %zu", what, h->version, h->row_size, TCPCA_TUNABLES_VERSION,
		    sizeof(*t));
		return -EPROTO;
	}
	if (h->count > TCPCA_PARAMS_MAX) {
		err("%s: its table lists %u tunables; at most %d are supported", what, h->count,
		    TCPCA_PARAMS_MAX);
		return -E2BIG;
	}
	if (size != sizeof(*h) + (size_t)h->count * sizeof(*t)) {
		err("%s: its table of tunables says %u rows but holds %zu bytes", what, h->count, size);
		return -EPROTO;
	}
	if (params_size != h->count * sizeof(__u32)) {
		err("%s: its table lists %u tunables but its .data.params holds %zu (of 4 bytes each)",
		    what, h->count, params_size / sizeof(__u32));
		return -EPROTO;
	}
	for (i = 0; i < h->count; i++) {
		if ((e = check_row(&t[i], i, what)))
			return e;
		for (j = 0; j < i; j++)
			if (!strcmp(t[i].name, t[j].name)) {
				err("%s: its table lists the tunable '%s' twice", what, t[i].name);
				return -EPROTO;
			}
	}
	a = calloc(1, sizeof(*a) + strlen(what) + 1);
	if (!a)
		return -ENOMEM;
	strcpy(a->name, what);
	memcpy(a->raw, t, h->count * sizeof(*t));
	for (i = 0; i < h->count; i++)
		a->rows[i] = (struct tcpca_param){ a->raw[i].name, a->raw[i].def, a->raw[i].min,
						   a->raw[i].max, a->raw[i].unit, a->raw[i].doc };
	a->alg.name = a->name;
	a->alg.params = a->rows;
	a->alg.nparams = h->count;
	a->alg.owned = true;
	*out = &a->alg;
	return 0;
}

/* The same tunables, in the same order, with the same ranges and words. */
bool tunables_same(const struct tcpca_alg *a, const struct tcpca_alg *b)
{
	unsigned int i;

	if (a->nparams != b->nparams)
		return false;
	for (i = 0; i < a->nparams; i++) {
		const struct tcpca_param *p = &a->params[i], *q = &b->params[i];

		if (strcmp(p->name, q->name) || p->def != q->def || p->min != q->min ||
		    p->max != q->max || strcmp(p->unit, q->unit) || strcmp(p->doc, q->doc))
			return false;
	}
	return true;
}
