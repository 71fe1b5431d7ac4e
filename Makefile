# tcpca: X.bpf.c -> build/X.bpf.o -> build/X.skel.h -> ./tcpca-load (all embedded)
# Quiet by default; `make V=1` prints every command.

ARCH		:= x86
CLANG		?= clang
BPFTOOL		?= bpftool
CC		?= gcc
OUT		:= build

# bpf/algorithms.tab declares the algorithms: a source file it does not name,
# or a name without its file, stops the build.
# `make ALGS=...` builds a part of them (tools/bench builds one at a time).
DECLARED	:= $(shell awk '!/^\#/ && NF { print $$1 }' bpf/algorithms.tab)
# a line the tools' reader refuses (a column missing) stops the build too
TAB_ERROR	:= $(shell scripts/algorithms source 2>&1 >/dev/null)
$(if $(TAB_ERROR),$(error $(TAB_ERROR)))
UNDECLARED	:= $(filter-out $(DECLARED),$(patsubst bpf/%.bpf.c,%,$(wildcard bpf/*.bpf.c)))
$(if $(UNDECLARED),$(error bpf/$(firstword $(UNDECLARED)).bpf.c has no line in bpf/algorithms.tab))
$(foreach a,$(DECLARED),$(if $(wildcard bpf/$(a).bpf.c),,$(error bpf/algorithms.tab names $(a), but there is no bpf/$(a).bpf.c)))
ALGS		:= $(DECLARED)
BPF_OBJS	:= $(ALGS:%=$(OUT)/%.bpf.o)
SKELS		:= $(ALGS:%=$(OUT)/%.skel.h)
TEST_BPF_OBJS	:= $(patsubst tests/bpf/%.bpf.c,$(OUT)/tests/%.bpf.o,$(wildcard tests/bpf/*.bpf.c))
LOADER_SRCS	:= $(wildcard loader/*.c)
LOADER_OBJS	:= $(LOADER_SRCS:loader/%.c=$(OUT)/loader/%.o)

# The BPF flags and recipe are devkit/tcpca.mk's, the file tcpca-dev installs
# for algorithms built outside: one definition for both.
TCPCA_IN_TREE	:= 1
TCPCA_ARCH	:= $(ARCH)
TCPCA_INCLUDE_DIR := include
TCPCA_INCLUDES	:= -Ivmlinux/$(ARCH) -Iinclude
include devkit/tcpca.mk
BPF_CFLAGS	:= $(TCPCA_BPF_CFLAGS)
CFLAGS		?= -O2 -g
CFLAGS		+= -Wall -Wextra -Iinclude -I$(OUT)
LDLIBS		:= -lbpf

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all test vmtest bench install uninstall install-dev uninstall-dev template vmlinux clean deps tools unit FORCE \
	testbed install-testbed uninstall-testbed
.DELETE_ON_ERROR:
.SECONDARY:

all: tcpca-load tools template

$(OUT) $(OUT)/loader $(OUT)/tests:
	$(Q)mkdir -p $@

# Linked by bpftool, which leaves out the DWARF (nine tenths of what clang
# writes) and keeps the BTF, and with it the verifier's source lines: the
# loader embeds every object.
$(OUT)/%.bpf.o: bpf/%.bpf.c $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(call msg,BPF,$@)
	$(Q)$(call tcpca_bpf_object,$<,$@)

# Objects the loader's tests feed it (they must fail to load), built here so
# that the tests need no compiler where they run.
$(OUT)/tests/%.bpf.o: tests/bpf/%.bpf.c $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)/tests
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@

# The loader's table of algorithms, from bpf/algorithms.tab (the rows in
# ALGS): each one's skeleton, default name, tunables and their check.
# Rewritten only when it changes, so that the same table rebuilds nothing.
$(OUT)/algorithms.inc: FORCE | $(OUT)
	$(Q)awk -v algs=" $(ALGS) " '!/^#/ && NF && index(algs, " " $$1 " ") { \
		if ($$3 != "-") printf "#include \"%s.h\"\n", $$1; \
		printf "#include \"%s.skel.h\"\n", $$1; \
		rows = rows ($$3 == "-" ? sprintf("\tALG(%s, \"%s\") \\\n", $$1, $$2) : \
			sprintf("\tALG_TUNABLE(%s, \"%s\", %s, %s) \\\n", $$1, $$2, $$3, \
				$$4 == "-" ? "NULL" : $$4)) } \
		END { printf "#define TCPCA_ALGORITHMS(ALG, ALG_TUNABLE) \\\n%s\n", rows }' bpf/algorithms.tab > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; echo "  GEN      $@"; fi

FORCE:

$(OUT)/loader/%.o: loader/%.c $(wildcard loader/*.h) $(wildcard include/*.h) $(SKELS) $(OUT)/algorithms.inc | $(OUT)/loader
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

tcpca-load: $(LOADER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# bpf-stats-on: the bench and the tests hold the BPF statistics on with it
tools: $(OUT)/bench/bpf-stats-on
	$(Q)if [ -f tools/linkem/Makefile ]; then $(MAKE) -s -C tools/linkem V=$(V); fi

# The template tcpca-dev installs, built as its user builds it (its own
# Makefile, devkit/tcpca.mk, a directory of its own), so that it cannot rot.
TEMPLATE	:= devkit/template/myreno.bpf.c devkit/template/Makefile
template: $(OUT)/template/myreno.bpf.o

$(OUT)/template/myreno.bpf.o: $(TEMPLATE) devkit/tcpca.mk $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h
	$(Q)mkdir -p $(OUT)/template && cp $(TEMPLATE) $(OUT)/template/
	$(Q)$(MAKE) --no-print-directory -C $(OUT)/template TCPCA_MK=$(CURDIR)/devkit/tcpca.mk \
		TCPCA_INCLUDE_DIR=$(CURDIR)/include \
		TCPCA_INCLUDES="-I$(CURDIR)/vmlinux/$(ARCH) -I$(CURDIR)/include"

# Host unit tests of the algorithms' arithmetic (include/<alg>.h) and the loader's parsers.
unit: $(TEST_BPF_OBJS) $(SKELS) $(OUT)/algorithms.inc
	$(Q)$(MAKE) -s -C tests/unit V=$(V)

# Regenerate the checked-in vmlinux.h from this machine's kernel BTF.
vmlinux:
	$(call msg,GEN,vmlinux/$(ARCH)/vmlinux.h)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/$(ARCH)/vmlinux.h

deps:
	$(Q)./scripts/install-deps

test:
	$(Q)./scripts/run-tests

# The loader's tests in each of Debian's kernels (tools/vm/, docs/vm.md);
# `make vmtest VM_KERNELS=6.1` one of them.
VM_KERNELS	?= 5.10 6.1 6.12 7.3
vmtest: all unit
	$(Q)for k in $(VM_KERNELS); do ./tools/vm/test --kernel $$k || exit 1; done

# The hook-cost scenario's baselines and its holder of the kernel's BPF statistics.
BENCH_BINS	:= $(OUT)/bench/floor.bpf.o $(OUT)/bench/empty.bpf.o $(OUT)/bench/tuned.bpf.o \
		   $(OUT)/bench/bpf-stats-on

$(OUT)/bench:
	$(Q)mkdir -p $@

$(OUT)/bench/floor.bpf.o: tools/bench/bpf/floor.bpf.c $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)/bench
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/bench/empty.bpf.o: tools/bench/bpf/floor.bpf.c $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)/bench
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DTCPCA_EMPTY_HOOK -c $< -o $@

$(OUT)/bench/tuned.bpf.o: tools/bench/bpf/floor.bpf.c $(wildcard include/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)/bench
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DTCPCA_TUNED_HOOK -c $< -o $@

$(OUT)/bench/bpf-stats-on: tools/bench/lib/bpf-stats-on.c | $(OUT)/bench
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< -o $@ $(LDLIBS)

bench: all $(BENCH_BINS)
	$(Q)./tools/bench/run $(BENCH_ARGS)

# Each kernel module against our program of the same name in a Debian 6.1 VM
# (tools/vm/run): results/fidelity-<timestamp>/report.md (docs/fidelity.md).
# FIDELITY_ARGS, e.g. --quick, --algs reno,hybla, --local (this kernel only).
.PHONY: fidelity
fidelity: all
	$(Q)./tools/fidelity/run --no-build $(FIDELITY_ARGS)

# Debian's packaging (debian/rules) sets PREFIX=/usr, UNITDIR=/lib/systemd/system
# and DESTDIR; the units name the loader where it is installed.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/tcpca
SYSCONFDIR ?= /etc
UNITDIR ?= /etc/systemd/system
UNITS := tcpca.service tcpca@.service
install: tcpca-load
	install -D -m 0755 tcpca-load $(DESTDIR)$(SBINDIR)/tcpca-load
	install -d $(DESTDIR)$(UNITDIR)
	for u in $(UNITS); do \
		sed 's|/usr/local/sbin/|$(SBINDIR)/|g' tools/systemd/$$u >$(DESTDIR)$(UNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -D -m 0644 docs/tcpca.conf.example $(DESTDIR)$(DOCDIR)/examples/tcpca.conf
	install -D -m 0644 docs/tcpca-load.8 $(DESTDIR)$(MANDIR)/man8/tcpca-load.8
	install -D -m 0644 docs/tcpca.conf.5 $(DESTDIR)$(MANDIR)/man5/tcpca.conf.5
	@# an existing configuration is the administrator's: never overwritten
	[ -e $(DESTDIR)$(SYSCONFDIR)/tcpca.conf ] || \
		install -D -m 0644 docs/tcpca.conf.example $(DESTDIR)$(SYSCONFDIR)/tcpca.conf

# The testbed as installed tools (docs/benchmarks.md): linkem and
# tcpca-bench in BINDIR, and in TESTBEDDIR the bench and the testbed's
# scripts laid out as in this tree, since they find one another (and
# linkem, the scenarios, scripts/algorithms with bpf/algorithms.tab) by
# their places relative to their own; the bench's helpers go in
# tools/bench/obj/, where tools/bench/run looks when it has no Makefile
# beside.  tcpca-bench runs tcpca-load from PATH: `make install` installs it.
BINDIR ?= $(PREFIX)/bin
TESTBEDDIR ?= $(PREFIX)/lib/tcpca
TESTBED_DOCDIR ?= $(PREFIX)/share/doc/tcpca-testbed
TESTBED_FILES := scripts/algorithms bpf/algorithms.tab tools/bench/run tools/bench/expectations.md \
		 $(wildcard tools/bench/lib/*.sh tools/bench/lib/*.py tools/bench/scenarios/*.sh) \
		 $(wildcard tools/testbed/*.sh tools/testbed/*.py tools/testbed/*.awk) \
		 tools/flowstats tools/plot-flows $(wildcard tools/traces/*)
TESTBED_OBJS	:= $(filter-out %/bpf-stats-on,$(BENCH_BINS))

testbed: tools $(BENCH_BINS)

install-testbed: testbed
	install -D -m 0755 tools/linkem/linkem $(DESTDIR)$(BINDIR)/linkem
	for f in $(TESTBED_FILES); do \
		m=0644; [ -x $$f ] && m=0755; \
		install -D -m $$m $$f $(DESTDIR)$(TESTBEDDIR)/$$f || exit 1; \
	done
	install -D -m 0755 tools/linkem/lkping $(DESTDIR)$(TESTBEDDIR)/tools/linkem/lkping
	ln -sfr $(DESTDIR)$(BINDIR)/linkem $(DESTDIR)$(TESTBEDDIR)/tools/linkem/linkem
	install -d $(DESTDIR)$(TESTBEDDIR)/tools/bench/obj
	install -m 0644 $(TESTBED_OBJS) $(DESTDIR)$(TESTBEDDIR)/tools/bench/obj/
	install -m 0755 $(OUT)/bench/bpf-stats-on $(DESTDIR)$(TESTBEDDIR)/tools/bench/obj/
	sed 's|@TESTBED@|$(shell realpath -m --relative-to=$(BINDIR) $(TESTBEDDIR))|' \
		tools/bench/tcpca-bench.in >$(DESTDIR)$(BINDIR)/tcpca-bench
	chmod 0755 $(DESTDIR)$(BINDIR)/tcpca-bench
	install -D -m 0644 docs/linkem.1 $(DESTDIR)$(MANDIR)/man1/linkem.1
	install -D -m 0644 docs/tcpca-bench.1 $(DESTDIR)$(MANDIR)/man1/tcpca-bench.1
	install -D -m 0644 docs/benchmarks.md $(DESTDIR)$(TESTBED_DOCDIR)/benchmarks.md
	install -D -m 0644 docs/linkem.md $(DESTDIR)$(TESTBED_DOCDIR)/linkem.md

uninstall-testbed:
	rm -f $(DESTDIR)$(BINDIR)/linkem $(DESTDIR)$(BINDIR)/tcpca-bench
	rm -f $(DESTDIR)$(MANDIR)/man1/linkem.1 $(DESTDIR)$(MANDIR)/man1/tcpca-bench.1
	rm -rf $(DESTDIR)$(TESTBEDDIR) $(DESTDIR)$(TESTBED_DOCDIR)

# tcpca-dev: what an algorithm built outside the tree needs (devkit/tcpca.mk
# says how it is built), the headers its helpers take (include/tcpca*.h, not
# the algorithms' own), vmlinux.h and the template.  tcpca.mk finds the
# headers from where it is, DATADIR/../../include/tcpca: move the two together.
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share/tcpca
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
DEVDOCDIR ?= $(PREFIX)/share/doc/tcpca-dev
VERSION := $(shell sed -n 's/^\#define TCPCA_VERSION[[:space:]]*"\(.*\)"/\1/p' loader/tcpca.h)
install-dev:
	install -d $(DESTDIR)$(INCLUDEDIR)/tcpca $(DESTDIR)$(DATADIR)/template $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0644 include/tcpca*.h vmlinux/$(ARCH)/vmlinux.h $(DESTDIR)$(INCLUDEDIR)/tcpca/
	install -m 0644 devkit/tcpca.mk $(DESTDIR)$(DATADIR)/tcpca.mk
	install -m 0644 devkit/template/myreno.bpf.c $(DESTDIR)$(DATADIR)/template/
	sed 's|/usr/share/tcpca/|$(DATADIR)/|' devkit/template/Makefile >$(DESTDIR)$(DATADIR)/template/Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@BPF_FLAGS@|$(TCPCA_BPF_FLAGS)|' \
		devkit/tcpca.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/tcpca.pc
	chmod 0644 $(DESTDIR)$(DATADIR)/template/Makefile $(DESTDIR)$(PKGCONFIGDIR)/tcpca.pc
	install -D -m 0644 docs/writing-an-algorithm.md $(DESTDIR)$(DEVDOCDIR)/writing-an-algorithm.md

uninstall-dev:
	rm -rf $(DESTDIR)$(INCLUDEDIR)/tcpca $(DESTDIR)$(DATADIR) $(DESTDIR)$(DEVDOCDIR)
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/tcpca.pc

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/tcpca-load
	for u in $(UNITS); do rm -f $(DESTDIR)$(UNITDIR)/$$u; done
	rm -f $(DESTDIR)$(MANDIR)/man8/tcpca-load.8 $(DESTDIR)$(MANDIR)/man5/tcpca.conf.5
	rm -rf $(DESTDIR)$(DOCDIR)
	@echo "uninstall: $(SYSCONFDIR)/tcpca.conf is left in place"

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUT) tcpca-load
	$(Q)if [ -f tools/linkem/Makefile ]; then $(MAKE) -s -C tools/linkem clean; fi
