#!/bin/bash
# Same seed, same drops; another seed, other drops.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 40
plan 3

n=0
received() {	# SEED: the sequence numbers that came back, into $TB_DIR/seed-N
	n=$((n + 1))
	tb_link "c$n" "s$n" --loss 10% --seed "$1" || return 1
	tb_ping 600 0.002 -v -W 1 | sed -n 's/^seq=\([0-9]*\).*/\1/p' |
		sort -n | tr '\n' ' ' >"$TB_DIR/seed-$n"
	tb_link_stop "c$n"
}

tb_dir
received 7 && received 7 && received 8 || bail_out "no link"
a=$(cat "$TB_DIR/seed-1") b=$(cat "$TB_DIR/seed-2") c=$(cat "$TB_DIR/seed-3")
cnt=$(echo "$a" | wc -w)
diag "seed 7: $cnt of 600 echoes came back"
cmp_ok "$cnt" '<' 560 "loss happened"
is "$a" "$b" "seed 7 twice: the same echoes lost"
differs=$([ "$a" != "$c" ] && echo yes || echo no)
is "$differs" yes "seed 8: a different pattern"
