# shellcheck shell=bash
# What one --alg of tools/bench/run names, sourced by it (and by
# tests/unit/test_bench.py, without root):
#
#   alg_spec SPEC KNOWN    prints "LABEL" or "LABEL<TAB>FILE"
#
# KNOWN: the names the bench measures under (the kernel's reno, cubic, bbr;
# bpf/algorithms.tab's names, so bpf_cubic for ours; the hook-cost
# baselines).
# SPEC is one of
#   NAME              one of KNOWN
#   FILE.bpf.o, DIR/FILE  a struct_ops object, reported under its file name
#                     less .bpf.o (or .o)
#   LABEL=FILE        the same, reported as LABEL
# A label is what the report, the CSV and the cells' directories call it:
# [A-Za-z0-9_.-], at most 32, and none of the bench's own names, so that a
# user's reno.bpf.o is never taken for the kernel's reno.
alg_spec() {
	local spec=$1 known=" $2 " label file
	if [[ $spec == *=* ]]; then
		label=${spec%%=*} file=${spec#*=}
	elif [[ $spec == */* || $spec == *.o ]]; then
		file=$spec label=${spec##*/}
		label=${label%.o}
		label=${label%.bpf}
	elif [[ $known == *" $spec "* ]]; then
		echo "$spec"
		return 0
	else
		echo "no algorithm '$spec' (--list names them; a file: FILE.bpf.o or ./FILE)" >&2
		return 1
	fi
	if [[ ! $label =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$ ]]; then
		echo "'$label' cannot label a result: [A-Za-z0-9_.-], at most 32 (--alg LABEL=$file)" >&2
		return 1
	fi
	if [[ $known == *" $label "* ]]; then
		echo "'$label' is the bench's name for its own $label: --alg OTHERNAME=$file" >&2
		return 1
	fi
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		echo "cannot read $file" >&2
		return 1
	fi
	file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
	printf '%s\t%s\n' "$label" "$file"
}
