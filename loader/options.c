// SPDX-License-Identifier: GPL-2.0
/*
 * The command line as options.def declares it: getopt's tables and the
 * --help text.  The man page and the README take the same file through
 * scripts/gen-docs, so the three cannot drift apart.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "tcpca.h"

#define HELP_COLUMN	22	/* where --help's explanations start */
#define HELP_WIDTH	80

static const char *const forms[] = {
#define FORM(args)	args,
#define OPTION(key, name, has_arg, shown, help, man)
#include "options.def"
#undef FORM
#undef OPTION
};

static const struct {
	int key;
	const char *name;
	int has_arg;
	const char *shown, *help;
} opts[] = {
#define FORM(args)
#define OPTION(key, name, has_arg, shown, help, man)	{ key, name, has_arg, shown, help },
#include "options.def"
#undef FORM
#undef OPTION
};

struct option cli_long_options[ARRAY_SIZE(opts) + 1];
char cli_short_options[2 * ARRAY_SIZE(opts) + 1];

void cli_tables(void)
{
	char *s = cli_short_options;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		cli_long_options[i] = (struct option){ opts[i].name, opts[i].has_arg, NULL, opts[i].key };
		if (opts[i].key > 255)
			continue;
		*s++ = (char)opts[i].key;
		if (opts[i].has_arg == required_argument)
			*s++ = ':';
	}
	*s = '\0';
}

/* text from column col on, in lines that end by HELP_WIDTH */
static void print_wrapped(FILE *f, const char *text, int col)
{
	int at = col;

	while (*text) {
		int len = (int)strcspn(text, " ");

		if (at > col && at + 1 + len > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", len, text);
		at += len;
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void cli_usage(FILE *f)
{
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(forms); i++)
		fprintf(f, "%s tcpca-load %s\n", i ? "      " : "Usage:", forms[i]);
	fputs("\n"
	      "Registers a BPF TCP congestion control so that it outlives this command; it is\n"
	      "kept by a link pinned at DIR/NAME/link (Linux 6.4+) or, on older kernels, by its\n"
	      "struct_ops map pinned at DIR/NAME/ops, and removed with --unload.\n\n", f);
	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		if (opts[i].key > 255)
			n = fprintf(f, "      --%s", opts[i].name);
		else
			n = fprintf(f, "  -%c, --%s", opts[i].key, opts[i].name);
		if (*opts[i].shown)
			n += fprintf(f, " %s", opts[i].shown);
		if (n >= HELP_COLUMN - 1)
			n = fprintf(f, "\n") - 1;
		fprintf(f, "%*s", HELP_COLUMN - n, "");
		print_wrapped(f, opts[i].help, HELP_COLUMN);
	}
}
