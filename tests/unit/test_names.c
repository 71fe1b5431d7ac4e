// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's NAME check (loader/names.c), which every command that takes
 * a NAME applies: the kernel's 15 characters, one path component that stays
 * in the pin directory, and the one-line error of a refusal.  No root.
 */
#include <stdio.h>
#include "../../loader/names.c"
#include "tap.h"
#include "last_err.h"

int main(void)
{
	static const char *good[] = {
		"vegas", "bpf_reno", "a", "A_9", "_", "123456789012345",
	};
	static const char *bad[] = {
		"", ".", "..", "x.y", "...", ".v", "v.", "1234567890123456", "a/b", "../other", "../x/NAME", "/", "a b",
		"tab\t", "uml\xc3\xa4ut", "semi;", "star*", "-dash",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		ok(valid_ca_name(good[i]) && check_ca_name(good[i]) == 0, "'%s' is a name", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		last_err[0] = 0;
		ok(!valid_ca_name(bad[i]) && check_ca_name(bad[i]) == -EINVAL && last_err[0],
		   "'%s' is refused: %s", bad[i], last_err);
	}
	ok(strstr(last_err, "[A-Za-z0-9_] (bpffs refuses '.' in names)") != NULL,
	   "the error says what a name may be, and why no dot");
	return done_testing();
}
