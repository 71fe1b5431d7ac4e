// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's NAME=VALUE parser (loader/params.c) against Vegas's table
 * and consistency check: ranges, decimal digits only, unknown names, and
 * the one-line error each refusal prints.  No root, no kernel.
 */
#include "../../loader/params.c"
#include "vegas.h"
#include "tap.h"
#include "last_err.h"

#define PARAM_ROW(name, def, lo, hi, unit, doc) { #name, def, lo, hi, unit, doc },

static const struct tcpca_param vegas_rows[] = { VEGAS_PARAMS(PARAM_ROW) };
static const struct tcpca_alg vegas = {
	.name = "vegas",
	.params = vegas_rows,
	.nparams = ARRAY_SIZE(vegas_rows),
	.check = vegas_check_params,
};

enum { ALPHA, BETA, GAMMA, SS_EVERY_OTHER };

/* apply ARGS (NULL-terminated) to fresh defaults: the return value */
static int apply(__u32 *v, ...)
{
	char *args[8];
	int n = 0;
	va_list ap;

	params_defaults(&vegas, v);
	last_err[0] = '\0';
	va_start(ap, v);
	while (n < 8 && (args[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	return params_apply(&vegas, v, n, args);
}

static void refused(const char *arg, int want_rc, const char *want_msg)
{
	__u32 v[4];
	int rc = apply(v, arg, NULL);

	ok(rc == want_rc && strstr(last_err, want_msg),
	   "'%s' refused (%d): %s", arg, rc, last_err);
}

int main(void)
{
	__u32 v[4];

	is_u(apply(v, NULL), 0, "no arguments: the defaults");
	ok(v[ALPHA] == 2 && v[BETA] == 4 && v[GAMMA] == 1 && v[SS_EVERY_OTHER] == 0,
	   "defaults are the module's: alpha=2 beta=4 gamma=1");

	is_u(apply(v, "alpha=3", "beta=7", NULL), 0, "alpha=3 beta=7 accepted");
	ok(v[ALPHA] == 3 && v[BETA] == 7 && v[GAMMA] == 1, "... and set, the rest untouched");

	is_u(apply(v, "alpha=010", "beta=010", NULL), 0, "alpha=010 accepted");
	is_u(v[ALPHA], 10, "alpha=010 is ten, not octal eight");
	is_u(apply(v, "beta=65535", "alpha=0", NULL), 0, "the range's ends are inside it");
	is_u(v[BETA], 65535, "beta=65535");
	is_u(apply(v, "alpha=4", "alpha=1", NULL), 0, "a name given twice: the last wins");
	is_u(v[ALPHA], 1, "alpha=1");

	refused("alpha=0x10", -EINVAL, "alpha: '0x10' is not a number");
	refused("alpha=-1", -EINVAL, "is not a number");
	refused("alpha=+5", -EINVAL, "is not a number");
	refused("alpha= 5", -EINVAL, "is not a number");
	refused("alpha=", -EINVAL, "is not a number");
	refused("alpha=5x", -EINVAL, "is not a number");
	refused("alpha=1.5", -EINVAL, "is not a number");
	refused("alpha=18446744073709551616", -EINVAL, "is not a number");
	refused("alpha=65536", -ERANGE, "alpha=65536 is out of range [0, 65535]");
	refused("beta=4294967296", -ERANGE, "out of range");
	refused("ss_every_other=2", -ERANGE, "ss_every_other=2 is out of range [0, 1]");
	refused("delta=1", -EINVAL,
		"vegas has no parameter 'delta' (parameters: alpha, beta, gamma, ss_every_other)");
	refused("alph=1", -EINVAL, "no parameter 'alph'");
	refused("alpha", -EINVAL, "'alpha' is not PARAM=VALUE");
	refused("=3", -EINVAL, "'=3' is not PARAM=VALUE");
	refused("beta=1", -EINVAL, "vegas: alpha must not exceed beta");

	ok(apply(v, "alpha=5", "beta=9", "gamma=x", NULL) == -EINVAL,
	   "one bad value among good ones fails the whole list");

	/* --replace: what carries over to the new registration */
	{
		static const struct tcpca_param other_rows[] = {
			{ "beta", 9, 0, 5, "packets", "a narrower beta" },
			{ "delta", 7, 0, 100, "packets", "not Vegas's" },
		};
		static const struct tcpca_alg other = {
			.name = "other", .params = other_rows, .nparams = 2,
		};
		__u32 old[4] = { 3, 5, 2, 1 }, w[2];

		is_u(params_carry(&vegas, v, &vegas, old), 4, "vegas to vegas: all four carry");
		ok(v[ALPHA] == 3 && v[BETA] == 5 && v[GAMMA] == 2 && v[SS_EVERY_OTHER] == 1,
		   "... with their values");
		is_u(params_carry(&vegas, v, NULL, old), 0, "from an object: nothing carries");
		ok(v[ALPHA] == 2 && v[BETA] == 4, "... the defaults instead");
		is_u(params_carry(&other, w, &vegas, old), 1, "vegas to other: only beta carries");
		ok(w[0] == 5 && w[1] == 7, "beta=5, delta its default 7");
		old[BETA] = 6;
		is_u(params_carry(&other, w, &vegas, old), 0, "beta=6 is outside other's range");
		is_u(w[0], 9, "... so it starts at other's default");
		old[BETA] = 5;
		params_carry(&vegas, v, &vegas, old);
		{
			char *given[] = { "beta=7" };

			is_u(params_apply(&vegas, v, 1, given), 0, "beta=7 given over carried ones");
		}
		ok(v[ALPHA] == 3 && v[BETA] == 7, "alpha=3 carried, beta=7 as given");
	}
	return done_testing();
}
