# shellcheck shell=bash disable=SC1091 # the path below is as seen from tests/, which source this
# Moved to tools/testbed/netns.sh (tests source it from there); kept for tests written against lib/netns.sh.
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../tools/testbed/netns.sh"
