# shellcheck shell=bash disable=SC1091 # the paths below are as seen from tests/, which source this
# Moved to tools/testbed/testbed.sh (tests source it from there, after lib/tap.sh); kept for tests written against lib/testbed.sh.
# shellcheck source=lib/tap.sh
declare -F ok >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../tools/testbed/testbed.sh"
