# SPDX-License-Identifier: GPL-2.0
# tcpca.mk: builds NAME.bpf.c into NAME.bpf.o, a congestion control for
# tcpca-load, the way tcpca builds its own: clang with the BTF of -g (the
# loader reads the object's tunables and types from it, and the verifier's
# messages name source lines by it), then `bpftool gen object`, which keeps
# the BTF and drops the DWARF, nine tenths of what clang writes.
#
# tcpca-dev installs it as /usr/share/tcpca/tcpca.mk; the template's
# Makefile (/usr/share/tcpca/template/Makefile) is all it takes to use it.
# The tree's own Makefile includes it for its flags and recipe, so that an
# algorithm built outside is built exactly as the embedded ones are.
#
# Settable: TCPCA_INCLUDE_DIR (tcpca's headers and vmlinux.h; by default
# those of the installation this file is part of, found from where it is,
# so that a copy unpacked elsewhere uses its own), CLANG, BPFTOOL, V=1.

TCPCA_MK_DIR		:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
TCPCA_INCLUDE_DIR	?= $(abspath $(TCPCA_MK_DIR)/../../include/tcpca)
TCPCA_INCLUDES		?= -I$(TCPCA_INCLUDE_DIR)
TCPCA_ARCH		?= x86
CLANG			?= clang
BPFTOOL			?= bpftool

# The flags without the include path: also tcpca.pc's bpf_cflags.
TCPCA_BPF_FLAGS		:= -g -O2 -target bpf -D__TARGET_ARCH_$(TCPCA_ARCH) -Wall -Werror
TCPCA_BPF_CFLAGS	= $(TCPCA_BPF_FLAGS) $(TCPCA_INCLUDES)

# $(call tcpca_bpf_object,SOURCE,OBJECT): the recipe's command; clang's
# object, with its DWARF, is a temporary beside OBJECT.
tcpca_bpf_object = $(CLANG) $(TCPCA_BPF_CFLAGS) -c $(1) -o $(2:.bpf.o=.clang.o) && \
	$(BPFTOOL) gen object $(2) $(2:.bpf.o=.clang.o) && rm -f $(2:.bpf.o=.clang.o)

# The tree defines its own rules (into build/); a directory of one's own
# gets these: every *.bpf.c here, the default goal unless the including
# Makefile names one first.
ifndef TCPCA_IN_TREE
TCPCA_SOURCES		?= $(wildcard *.bpf.c)
TCPCA_OBJECTS		:= $(TCPCA_SOURCES:.bpf.c=.bpf.o)
TCPCA_Q			:= $(if $(filter 1,$(V)),,@)

.PHONY: tcpca-objects tcpca-clean clean
.DELETE_ON_ERROR:

tcpca-objects: $(TCPCA_OBJECTS)

# clean without a recipe of its own: the includer may give it one
clean: tcpca-clean

%.bpf.o: %.bpf.c $(wildcard $(TCPCA_INCLUDE_DIR)/*.h)
	@$(if $(TCPCA_Q),printf '  %-8s %s\n' BPF $@)
	$(TCPCA_Q)$(call tcpca_bpf_object,$<,$@)

tcpca-clean:
	rm -f $(TCPCA_OBJECTS) $(TCPCA_OBJECTS:.bpf.o=.clang.o)
endif
