#!/usr/bin/env bash
# The Debian packages (debian/): dpkg-buildpackage -us -uc -b builds them
# from a copy of the tree in a temporary directory (it writes to the parent
# directory and litters debian/), lintian finds nothing (the tags
# overridden have their reasons in debian/*.lintian-overrides), and
# the loader unpacked from tcpca with dpkg -x into a throwaway root runs:
# --version, --list, and as root --apply --dry-run of the shipped
# /etc/tcpca.conf; from tcpca-testbed, linkem --help and tcpca-bench --list
# run; the template unpacked from tcpca-dev builds there against what
# tcpca-dev installed (tests/outside-tree.t loads it, from these packages
# when they are of the tree as it is: tests/lib/debs.sh).  About a minute
# (the BPF programs are built again, lintian takes 10 s).
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/debs.sh
. "$(dirname "$0")/lib/debs.sh"
for t in dpkg-buildpackage dh fakeroot lintian dpkg-checkbuilddeps git; do
	command -v "$t" >/dev/null || skip_all "needs $t (scripts/install-deps)"
done
cd "$TCPCA_ROOT" || bail_out "no tree at $TCPCA_ROOT"
missing=$(dpkg-checkbuilddeps 2>&1) || skip_all "build dependencies missing (scripts/install-deps): $missing"
time_limit 240

W=$(mktemp -d /tmp/tcpca-package.XXXXXX) || bail_out "no temporary directory"
on_exit "rm -rf '$W'"
mkdir "$W/tcpca"
# the tree as it is, committed or not, without build products or ignored files
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -x -C "$W/tcpca"
ok $? "a copy of the tree in $W"
stamp=$(tree_stamp)

version=$(dpkg-parsechangelog -S Version)
tree_before=$(git status --porcelain --ignored --untracked-files=all)
parent_before=$(ls -d ../tcpca_"$version"* 2>/dev/null)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb="$W/tcpca_${version}_$arch.deb"
dev="$W/tcpca-dev_${version}_$arch.deb"
# no -dbgsym package, both cores: the build is what takes the time
(cd "$W/tcpca" && DEB_BUILD_OPTIONS="noddebs parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >"$W/build.log" 2>&1
if ! ok $? "dpkg-buildpackage -us -uc -b builds it"; then
	tail -n 20 "$W/build.log" | sed 's/^/# /' >&2
	bail_out "no package"
fi
[ -f "$deb" ]; ok $? "... tcpca_${version}_$arch.deb"
[ -f "$dev" ]; ok $? "... tcpca-dev_${version}_$arch.deb"
is "$(git status --porcelain --ignored --untracked-files=all)" "$tree_before" "... and leaves the tree as it was"
is "$(ls -d ../tcpca_"$version"* 2>/dev/null)" "$parent_before" "... and its parent directory too"

contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
# the units: under /usr from Debian 13 on, whose debhelper has dh_movetousr (debian/rules)
units=lib/systemd/system
command -v dh_movetousr >/dev/null && units=usr/lib/systemd/system
for f in ./usr/sbin/tcpca-load ./usr/share/man/man8/tcpca-load.8.gz ./usr/share/man/man5/tcpca.conf.5.gz \
	 ./$units/tcpca.service ./$units/tcpca@.service ./etc/tcpca.conf \
	 ./usr/share/doc/tcpca/examples/tcpca.conf ./usr/share/doc/tcpca/copyright; do
	printf '%s\n' "$contents" | grep -qxF "$f"; ok $? "it holds $f"
done
mkdir "$W/ctl" && dpkg-deb -e "$deb" "$W/ctl"
is "$(cat "$W/ctl/conffiles")" "/etc/tcpca.conf" "/etc/tcpca.conf is its one conffile"
like "$(dpkg-deb -f "$deb" Depends)" "libbpf1" "it depends on libbpf1 (tcpca-load links it dynamically)"
# the description's list is bpf/algorithms.tab's (scripts/gen-docs)
said=$(dpkg-deb -f "$deb" Description | tr -s ' \n' ' ')
missing=$(scripts/algorithms source name | while read -r src name; do
	if [ "$src" = "$name" ]; then w="$src"; else w="$src (as $name)"; fi
	case $said in *" $w"[,.\ ]*) ;; *) printf '%s ' "$src" ;; esac
done)
is "$missing" "" "its description names every algorithm of bpf/algorithms.tab"

dev_contents=$(dpkg-deb -c "$dev" | awk '{ print $6 }')
for f in ./usr/include/tcpca/tcpca.bpf.h ./usr/include/tcpca/tcpca_kernel.bpf.h \
	 ./usr/include/tcpca/tcpca_params.h ./usr/include/tcpca/vmlinux.h \
	 ./usr/share/tcpca/tcpca.mk ./usr/share/tcpca/template/Makefile \
	 ./usr/share/tcpca/template/myreno.bpf.c ./usr/share/pkgconfig/tcpca.pc \
	 ./usr/share/doc/tcpca-dev/copyright; do
	printf '%s\n' "$dev_contents" | grep -qxF "$f"; ok $? "tcpca-dev holds $f"
done
printf '%s\n' "$dev_contents" | grep -qxE '\./usr/share/doc/tcpca-dev/writing-an-algorithm\.md(\.gz)?'
ok $? "tcpca-dev holds the guide, writing-an-algorithm.md"
like "$(dpkg-deb -f "$dev" Depends)" "tcpca \(= $version\)" "tcpca-dev depends on this tcpca"

# the tags of every severity, less the one overridden with its reason
tags=$(lintian -I --pedantic "$W/tcpca_${version}_$arch.changes" 2>/dev/null)
is "$tags" "" "lintian -I --pedantic finds nothing"

R="$W/root"
dpkg -x "$deb" "$R"
dpkg -x "$dev" "$R"
L="$R/usr/sbin/tcpca-load"
missing=$(ldd "$L" | grep 'not found')
is "$missing" "" "every library it links is on this host (ldd)"
is "$("$L" --version)" "tcpca-load $version" "the unpacked tcpca-load --version says $version"
list=$("$L" --list)
like "$list" "^ALGORITHM +DEFAULT NAME" "... and --list runs"
for a in reno vegas hybla; do
	like "$list" "^$a " "... listing $a"
done
grep -q "^ExecStart=/usr/sbin/tcpca-load --apply /etc/tcpca.conf$" "$R/$units/tcpca.service"
ok $? "tcpca.service runs the packaged loader with --apply /etc/tcpca.conf"
is "$(grep -v '^#' "$R/etc/tcpca.conf" | grep -c '[^[:space:]]')" 0 "the shipped /etc/tcpca.conf is all comments"
if [ "$(id -u)" -eq 0 ]; then
	is "$("$L" --pin-dir "$TEST_PIN_DIR" --apply --dry-run "$R/etc/tcpca.conf")" \
		"nothing to change: the kernel matches $R/etc/tcpca.conf" "... and --apply of it changes nothing"
else
	skip "--apply of the shipped file" "needs root"
fi

# tcpca-testbed: linkem, tcpca-bench and the bench's tree (make install-testbed)
tdeb="$W/tcpca-testbed_${version}_$arch.deb"
[ -f "$tdeb" ]; ok $? "... and tcpca-testbed_${version}_$arch.deb"
tcontents=$(dpkg-deb -c "$tdeb" | awk '{ print $6 }')
for f in ./usr/bin/linkem ./usr/bin/tcpca-bench ./usr/share/man/man1/linkem.1.gz \
	 ./usr/share/man/man1/tcpca-bench.1.gz ./usr/lib/tcpca/tools/bench/run \
	 ./usr/lib/tcpca/tools/bench/obj/floor.bpf.o ./usr/share/doc/tcpca-testbed/copyright; do
	printf '%s\n' "$tcontents" | grep -qxF "$f"; ok $? "tcpca-testbed holds $f"
done
tdeps=$(dpkg-deb -f "$tdeb" Depends)
for d in "tcpca \(= $version\)" iperf3 jq python3 iproute2 bpftool; do
	like "$tdeps" "(^|, )$d(,|$| )" "it depends on ${d//\\/}"
done
dpkg -x "$tdeb" "$R"
like "$("$R/usr/bin/linkem" --help)" "^usage: linkem" "the unpacked linkem --help runs"
like "$("$R/usr/bin/tcpca-bench" --list --alg bpf_reno)" "^lowprio +.*\(bpf_reno reno; vs-reno\)$" \
	"... and tcpca-bench --list, from its own tree"

# the template, copied out, builds against the unpacked tcpca-dev: its
# headers are the ones the object's BTF names (tests/outside-tree.t hides
# the tree from the build as well, and loads the object)
cp -r "$R/usr/share/tcpca/template" "$W/myreno"
said=$(make -C "$W/myreno" TCPCA_MK="$R/usr/share/tcpca/tcpca.mk" 2>&1)
if ! ok $? "the template builds against the unpacked tcpca-dev (its tcpca.mk)"; then
	printf '%s\n' "$said" | tail -n 20 | sed 's/^/# /' >&2
fi
strings -a "$W/myreno/myreno.bpf.o" 2>/dev/null | grep -q "^$R/usr/include/tcpca/tcpca_kernel.bpf.h$"
ok $? "... with its headers, as the object's BTF says"

# for tests/outside-tree.t, with the tree's stamp when they were built
debs_keep "$W" "$stamp"
ok $? "the packages kept in $DEB_DIR"
done_testing
