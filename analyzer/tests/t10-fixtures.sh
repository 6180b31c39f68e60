#!/bin/bash
# Fixtures of the miniature tree: handlers, commands, values and masks.
set -u
make -s -C "$ANALYZER" ioctl-scan build/tests/check_fixtures || exit 1
mkdir -p "$WORK/fixtures"
"$ANALYZER/build/tests/check_fixtures" "$ANALYZER/ioctl-scan" \
	"$ANALYZER/tests/fixtures/tree" "$WORK/fixtures"
