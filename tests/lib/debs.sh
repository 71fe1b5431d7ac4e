# shellcheck shell=bash
# The .debs tests/package.t built, kept for tests/outside-tree.t, which
# installs them (dpkg -x) where they are of the tree as it is now, and
# otherwise installs with make install install-dev: building the packages
# again would cost a minute.  Needs TCPCA_ROOT (netns.sh).

DEB_DIR="$TCPCA_ROOT/build/debs"

# tree_stamp: the tree's files as package.t copies them (committed or not,
# without build products or ignored files), hashed with their contents
tree_stamp() {
	(cd "$TCPCA_ROOT" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sha256sum 2>/dev/null | sha256sum | cut -d' ' -f1)
}

# debs_keep DIR STAMP: the .debs in DIR, built from the tree when its
# tree_stamp was STAMP, become DEB_DIR's
debs_keep() {
	rm -rf "$DEB_DIR" && mkdir -p "$DEB_DIR" && cp "$1"/*.deb "$DEB_DIR"/ &&
		echo "$2" >"$DEB_DIR/stamp"
}

# debs_fresh: DEB_DIR holds packages of the tree as it is now
debs_fresh() {
	[ -s "$DEB_DIR/stamp" ] && [ "$(cat "$DEB_DIR/stamp")" = "$(tree_stamp)" ]
}
